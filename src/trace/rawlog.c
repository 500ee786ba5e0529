/* The raw event buffer of one rank, written to <dir>/mpivet-raw/rank-<r>.raw whenever it is
 * full (bounded memory), and the definitions side file rank-<r>.defs (one line per definition,
 * written at once). A failed write (full disk) stops recording with one clear message. */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

int mv__raw_open(void)
{
  G.raw_fd = G.defs_fd = -1;
  G.buf = malloc(G.cap * sizeof *G.buf);
  if (!G.buf) {
    mv__fail("event buffer", ENOMEM);
    return -1;
  }
  /* touched now rather than page by page (a fault every ~100 events) while the application runs */
  memset(G.buf, 0, G.cap * sizeof *G.buf);
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
  free(G.buf);
  G.buf = NULL;
}
