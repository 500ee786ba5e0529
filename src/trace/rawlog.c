/* The raw event buffer of one rank, written to <dir>/mpivet-raw/rank-<r>.raw whenever it is
 * full (bounded memory), and the definitions side file rank-<r>.defs (one line per definition,
 * written at once). A failed write (full disk) stops recording with one clear message. */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "clock.h"
#include "emit.h"
#include "say.h"
#include "state.h"

void mv__say(const char *fmt, ...)
{
  char msg[768];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  fprintf(stderr, "mpivet-trace: rank %d: %s\n", G.rank, msg);
}

void mv__fail(const char *what, int err)
{
  if (!G.failed)
    mv__say("%s: %s; recording stopped, the trace will be marked truncated", what, strerror(err));
  G.failed = 1;
}

static int write_all(int fd, const void *data, size_t n)
{
  const char *p = data;
  while (n > 0) {
    ssize_t k = write(fd, p, n);
    if (k < 0 && errno == EINTR)
      continue;
    if (k <= 0)
      return k == 0 ? ENOSPC : errno;
    p += k;
    n -= (size_t)k;
  }
  return 0;
}

static int open_file(const char *ext)
{
  char path[PATH_MAX];
  snprintf(path, sizeof path, "%s/" MV__RAW_DIR "/rank-%d.%s", G.dir, G.rank, ext);
  int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
  if (fd < 0)
    mv__fail(path, errno);
  return fd;
}

/* The buffer is mapped with all its pages present: a page fault costs ~4.5 us on the test VM,
 * and faulting them in while recording put one every ~30 round trips of a 0-byte ping-pong,
 * +80 ns per one-way trip (malloc + memset does not prefault: the compiler turns it into calloc,
 * whose fresh pages are not touched). Not under SMPI: time is simulated there, and all ranks
 * share one process, whose memory would grow by the whole buffer per rank at once. */
#ifdef MV_SMPI
#define MV__POPULATE 0
#else
#define MV__POPULATE MAP_POPULATE
#endif
int mv__raw_open(void)
{
  G.raw_fd = G.defs_fd = -1;
  void *p = mmap(NULL, G.cap * sizeof *G.buf, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MV__POPULATE, -1, 0);
  if (p == MAP_FAILED) {
    mv__fail("event buffer", errno);
    return -1;
  }
  G.buf = p;
  G.n = 0;
  G.raw_fd = open_file("raw");
  G.defs_fd = open_file("defs");
  return G.raw_fd >= 0 && G.defs_fd >= 0 ? 0 : -1;
}

void mv__raw_flush(void)
{
  if (G.n == 0 || G.failed) {
    G.n = 0;
    return;
  }
  int err = write_all(G.raw_fd, G.buf, G.n * sizeof *G.buf);
  if (err) {
    char what[PATH_MAX + 32];
    snprintf(what, sizeof what, "cannot write the trace in %s/" MV__RAW_DIR, G.dir);
    mv__fail(what, err);
    mv__def("truncated write error: %s", strerror(err));
  } else {
    mv__clock_anchor();
  }
  G.n = 0;
}

void mv__def(const char *fmt, ...)
{
  if (G.defs_fd < 0)
    return;
  char line[4096];
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(line, sizeof line - 1, fmt, ap);
  va_end(ap);
  if (n < 0)
    return;
  if ((size_t)n > sizeof line - 2)
    n = (int)sizeof line - 2;
  line[n++] = '\n';
  if (write_all(G.defs_fd, line, (size_t)n) != 0)
    G.failed = 1;
}

void mv__raw_close(void)
{
  mv__raw_flush();
  mv__clock_anchor();
  mv__def("closed %llu", (unsigned long long)G.nevents);
  if (G.raw_fd >= 0)
    close(G.raw_fd);
  if (G.defs_fd >= 0)
    close(G.defs_fd);
  G.raw_fd = G.defs_fd = -1;
  if (G.buf)
    munmap(G.buf, G.cap * sizeof *G.buf);
  G.buf = NULL;
}
