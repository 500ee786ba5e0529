/* An LD_PRELOAD library for the real HPL runs (keep-memory.sh): at load, before main, it writes
 * MV_PRETOUCH_MB MiB of heap (blocks of 8 MiB, below keep-memory.sh's 32 MiB mmap threshold) and
 * frees them. With keep-memory.sh's 4 GiB trim threshold glibc keeps the freed top, so HPL's later
 * heap allocations (its panels and, up to 32 MiB, the matrix) land on pages that are already faulted
 * in. Without it, HPL's heap kept growing onto never-touched pages in the measured warm solve:
 * 2 x 1, N = 1000, every other solve had rank 1 take 217 page faults in Open MPI's CMA copy into a
 * panel buffer and 31 in HPL_dlocswpT (perf record -e page-faults), 16-20 us each in this VM,
 * 22-29 Gflop/s against 34-52 for a solve without them; the simulation charges no such faults. */
#include <stdlib.h>
#include <string.h>

__attribute__((constructor)) static void mv_pretouch(void)
{
  enum { BLOCK = 8 << 20, MAX_BLOCKS = 512 };
  const char *env = getenv("MV_PRETOUCH_MB");
  long blocks = env ? atol(env) / 8 : 0;
  void *p[MAX_BLOCKS];
  if (blocks > MAX_BLOCKS)
    blocks = MAX_BLOCKS;
  for (long i = 0; i < blocks; i++)
    if ((p[i] = malloc(BLOCK)) != NULL)
      memset(p[i], 1, BLOCK);
  for (long i = blocks - 1; i >= 0; i--)
    free(p[i]);
}
