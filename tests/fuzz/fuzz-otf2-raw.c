/* Fuzz target: the raw files a crashed traced run leaves (DIR/mpivet-raw/rank-0.defs and
 * rank-0.raw, see src/trace/rawfmt.h) are read by mpivet-trace-finish, which must turn any of
 * them, cut or garbled, into an archive or an error message, never crash. Input: the .defs text,
 * a NUL byte, then the .raw bytes. Seeds: files of a real run of the crash-rank example. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "trace/archive.h"

static char dir[64] = "/tmp/mv-fuzz-raw-XXXXXX";
static char defs[128], raw[128], sub[128];

/* Everything the finisher may have left (an input naming several ranks writes traces/<r>.*). */
static void cleanup(void)
{
  mv__raw_remove(dir, 0);
  mv__archive_remove(dir);
  const char *names[] = {"callsites.txt", "TRUNCATED"};
  for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
    char p[256];
    snprintf(p, sizeof p, "%s/%s", dir, names[i]);
    unlink(p);
  }
  rmdir(sub);
  rmdir(dir);
}

static int put(const char *path, const void *data, size_t n)
{
  FILE *f = fopen(path, "wb");
  if (!f)
    return -1;
  size_t w = fwrite(data, 1, n, f);
  return fclose(f) != 0 || w != n ? -1 : 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  if (!defs[0]) {
    if (!mkdtemp(dir))
      abort();
    snprintf(sub, sizeof sub, "%s/mpivet-raw", dir);
    snprintf(defs, sizeof defs, "%s/rank-0.defs", sub);
    snprintf(raw, sizeof raw, "%s/rank-0.raw", sub);
    if (mkdir(sub, 0700) != 0)
      abort();
    atexit(cleanup);
  }
  const uint8_t *nul = memchr(data, 0, size);
  size_t ndefs = nul ? (size_t)(nul - data) : size;
  if (put(defs, data, ndefs) || put(raw, nul ? nul + 1 : data, nul ? size - ndefs - 1 : 0))
    abort();
  char msg[4096];
  int rc = mv__finish_dir(dir, msg, sizeof msg);
  if (rc < 0 || rc > 2 || !msg[0])
    abort();  /* the contract: 0, 1 or 2 with a message */
  mv__raw_remove(dir, 0);
  return 0;
}
