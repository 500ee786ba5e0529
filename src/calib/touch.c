/* The first-touch measurement of mpivet-calib: a fresh anonymous mapping (no page of it in memory
 * yet) is written once per page, and the time per page is what the kernel charges to give a
 * process a zeroed page. A receive into a buffer that was allocated but never written pays it in
 * the MPI library's copy: 16 us per 4 KiB page on this project's VM, 20 ms for a fresh 4 MiB
 * buffer. SMPI copies the payload in the simulator and charges nothing for it, so
 * include/mpivet/first-touch.h charges the calibrated figure per page instead. */
#define _DEFAULT_SOURCE 1   /* MAP_ANONYMOUS */
#include <sys/mman.h>
#include <unistd.h>

#include "calib.h"

#define TOUCH_PAGES 256   /* 1 MiB of 4 KiB pages per measurement */

/* On this rank; main.c runs it one rank after the other (in_turn). */
double calib_touch_once(void)
{
  size_t page = (size_t)sysconf(_SC_PAGESIZE), bytes = TOUCH_PAGES * page;
  volatile char *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED)
    return 0;
  double t0 = MPI_Wtime();
  for (size_t i = 0; i < bytes; i += page)
    p[i] = 1;
  double t = (MPI_Wtime() - t0) / TOUCH_PAGES;
  munmap((void *)p, bytes);
  return t;
}
