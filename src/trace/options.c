/* Run-time options of libmpivet-trace from the environment (set by `mpivet trace`):
 * MPIVET_TRACE_DIR, MPIVET_TRACE_BUFFER, MPIVET_TRACE_RECORD, MPIVET_TRACE_CALLSTACK; and the
 * output folder, created by rank 0 and emptied of an older archive before anybody writes. */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "hooks.h"
#include "mpivet/trace-files.h"
#include "options.h"
#include "say.h"
#include "state.h"

static int parse_size(const char *s, size_t *out)
{
  char *end;
  errno = 0;
  double v = strtod(s, &end);
  if (errno || end == s || v <= 0)
    return -1;
  double mult = 1;
  if (*end == 'k' || *end == 'K')
    mult = 1024.0, end++;
  else if (*end == 'm' || *end == 'M')
    mult = 1048576.0, end++;
  else if (*end == 'g' || *end == 'G')
    mult = 1073741824.0, end++;
  if (*end == 'B' || *end == 'b')
    end++;
  if (*end)
    return -1;
  *out = (size_t)(v * mult);
  return 0;
}

static int parse_record(const char *s, unsigned *mask)
{
  *mask = 1u << MV__G_ENV;
  char buf[256];
  snprintf(buf, sizeof buf, "%s", s);
  for (char *save = NULL, *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
    if (strcasecmp(tok, "all") == 0) {
      *mask = (1u << MV__G_COUNT) - 1;
      continue;
    }
    int g = 1;
    while (g < MV__G_COUNT && strcasecmp(tok, mv__group_names[g]) != 0)
      g++;
    if (g == MV__G_COUNT)
      return -1;
    *mask |= 1u << g;
  }
  return 0;
}

int mv__read_options(void)
{
  const char *dir = getenv("MPIVET_TRACE_DIR"), *buf = getenv("MPIVET_TRACE_BUFFER");
  const char *rec = getenv("MPIVET_TRACE_RECORD"), *depth = getenv("MPIVET_TRACE_CALLSTACK");
  snprintf(G.dir, sizeof G.dir, "%s", dir && *dir ? dir : "trace");
  const char *size = buf ? buf : MV_TRACE_BUFFER_DEFAULT;
  size_t bytes = 0;
  if (parse_size(size, &bytes) != 0 || bytes < 4096) {
    mv__say("MPIVET_TRACE_BUFFER=%s: expected a size of at least 4k (e.g. 64k, 1M); not tracing", size);
    return -1;
  }
  G.cap = bytes / sizeof(uint64_t);
  G.record = (1u << MV__G_COUNT) - 1;
  if (rec && parse_record(rec, &G.record) != 0) {
    mv__say("MPIVET_TRACE_RECORD=%s: expected a comma list of all,p2p,coll,rma,comm,io; not tracing", rec);
    return -1;
  }
  const char *times = getenv("MPIVET_TRACE_TIMES");
  G.times = times && !strcmp(times, "1");
  const char *fmt = getenv("MPIVET_TRACE_FORMAT");
  G.formats = MV__OUT_OTF2 | MV__OUT_MVT;
  if (fmt && *fmt) {
    G.formats = !strcmp(fmt, "otf2") ? MV__OUT_OTF2 : !strcmp(fmt, "mvt") ? MV__OUT_MVT
                : !strcmp(fmt, "otf2,mvt") || !strcmp(fmt, "mvt,otf2") ? MV__OUT_OTF2 | MV__OUT_MVT : 0;
    if (!G.formats) {
      mv__say("MPIVET_TRACE_FORMAT=%s: expected otf2, mvt or otf2,mvt; not tracing", fmt);
      return -1;
    }
  }
  char *end = NULL;
  long d = depth ? strtol(depth, &end, 10) : 1;
  G.stack_depth = d >= 1 && d <= 16 && (!depth || (end != depth && !*end)) ? (int)d : 0;
  if (G.stack_depth == 0) {
    mv__say("MPIVET_TRACE_CALLSTACK=%s: expected 1..16; not tracing", depth);
    return -1;
  }
  return 0;
}

static void empty_dir(const char *path, const char *suffix1, const char *suffix2)
{
  DIR *d = opendir(path);
  if (!d)
    return;
  char file[PATH_MAX];
  for (struct dirent *e; (e = readdir(d));) {
    size_t n = strlen(e->d_name);
    int match = 0;
    for (const char *suf = suffix1; suf; suf = suf == suffix1 ? suffix2 : NULL)
      if (n > strlen(suf) && strcmp(e->d_name + n - strlen(suf), suf) == 0)
        match = 1;
    if (match && snprintf(file, sizeof file, "%s/%s", path, e->d_name) < (int)sizeof file)
      unlink(file);
  }
  closedir(d);
}

/* Only names this tracer writes are removed: a folder of other files is left alone. */
static int clean_dir(void)
{
  char p[PATH_MAX];
  static const char *const files[] = {MV_TRACE_OUTPUT_FILES};
  if (mkdir(G.dir, 0777) != 0 && errno != EEXIST) {
    mv__say("cannot create the trace folder %s: %s", G.dir, strerror(errno));
    return -1;
  }
  for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
    snprintf(p, sizeof p, "%s/%s", G.dir, files[i]);
    unlink(p);
  }
  snprintf(p, sizeof p, "%s/traces", G.dir);
  empty_dir(p, ".evt", ".def");
  rmdir(p);
  snprintf(p, sizeof p, "%s/" MV__RAW_DIR, G.dir);
  empty_dir(p, ".raw", ".defs");
  if (mkdir(p, 0777) != 0 && errno != EEXIST) {
    mv__say("cannot create %s: %s", p, strerror(errno));
    return -1;
  }
  return 0;
}

int mv__prepare_dir(void)
{
  int ok = G.rank == 0 ? clean_dir() : 0;
  PMPI_Bcast(&ok, 1, MPI_INT, 0, MPI_COMM_WORLD);
  return ok;
}
