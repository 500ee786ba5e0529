/* Fuzz target: malformed and truncated OTF2 archives must give an error value or a (partial)
 * analysis, never a crash. A small archive with every replayed event kind is written once;
 * each input replaces one of its files (first byte: 0 global definitions, 1-3 a rank's events)
 * and the archive is analyzed and reported. The anchor file is not mutated: OTF2 3.0 itself
 * leaks memory on some malformed anchors (mv_analyze_trace only checks its magic bytes). */
#include <otf2/OTF2_Events.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analyze/synth.h"
#include "mpivet/analyze.h"

static char dir[64] = "/tmp/mv-fuzz-otf2-XXXXXX";
static char files[5][128];
static char *orig[5];
static size_t orig_len[5];

static void scenario(struct mv__synth *s)
{
  int all[3] = {0, 1, 2};
  uint32_t g = mv__synth_group(s, 3, all);
  for (int r = 0; r < 3; r++) {
    uint64_t t = 100 * (uint64_t)r;
    mv__synth_enter(s, r, t, "main");
    mv__synth_rcoll(s, r, t + 1, 400, "MPI_Win_create", OTF2_COLLECTIVE_OP_CREATE_HANDLE, 0);
    if (r == 0)
      mv__synth_send(s, 0, 410, 420, 1, 3);
    if (r == 1)
      mv__synth_recv(s, 1, 405, 430, 0, 3);
    mv__synth_coll(s, r, 440 + (uint64_t)r, 500, "MPI_Barrier", OTF2_COLLECTIVE_OP_BARRIER, -1);
    mv__synth_rma(s, r, 510, 520, "MPI_Put", 0, (r + 1) % 3);
    mv__synth_rcoll(s, r, 530, 600, "MPI_Win_fence", OTF2_COLLECTIVE_OP_BARRIER, 0);
    mv__synth_gsync(s, r, 610, 620, "MPI_Win_post", 0, g);
    mv__synth_gsync(s, r, 630, 640, "MPI_Win_start", 0, g);
    mv__synth_rma(s, r, 650, 660, "MPI_Get", 0, 0);
    mv__synth_gsync(s, r, 670, 680, "MPI_Win_complete", 0, g);
    mv__synth_gsync(s, r, 690, 700, "MPI_Win_wait", 0, g);
    mv__synth_lock(s, r, 710, 720 + (uint64_t)r, 0, 0, r != 1);
    mv__synth_rma(s, r, 730, 740, "MPI_Accumulate", 0, 0);
    mv__synth_unlock(s, r, 750, 800 + 10 * (uint64_t)r, 0, 0);
    mv__synth_rcoll(s, r, 900, 950, "MPI_Win_free", OTF2_COLLECTIVE_OP_DESTROY_HANDLE, 0);
    mv__synth_leave(s, r, 1000, "main");
  }
}

static char *slurp(const char *path, size_t *len)
{
  FILE *f = fopen(path, "rb");
  char *buf = NULL;
  if (f && fseek(f, 0, SEEK_END) == 0) {
    long n = ftell(f);
    rewind(f);
    buf = malloc(n > 0 ? (size_t)n : 1);
    *len = buf ? fread(buf, 1, (size_t)n, f) : 0;
  }
  if (f)
    fclose(f);
  return buf;
}

static void put(const char *path, const void *data, size_t len)
{
  FILE *f = fopen(path, "wb");
  if (f) {
    if (len)
      fwrite(data, 1, len, f);
    fclose(f);
  }
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
  (void)argc, (void)argv;
  if (!mkdtemp(dir))
    abort();
  char archive[128];
  snprintf(archive, sizeof archive, "%s/a", dir);
  struct mv__synth *s = mv__synth_open(archive, 3, 1);
  if (!s)
    abort();
  scenario(s);
  if (mv__synth_close(s) != 0)
    abort();
  snprintf(files[0], sizeof files[0], "%s/traces.def", archive);
  for (int r = 0; r < 3; r++)
    snprintf(files[1 + r], sizeof files[1 + r], "%s/traces/%d.evt", archive, r);
  snprintf(files[4], sizeof files[4], "%s/traces.otf2", archive);
  for (int i = 0; i < 5; i++)
    if (!(orig[i] = slurp(files[i], &orig_len[i])))
      abort();
  return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  if (size < 1)
    return 0;
  int which = data[0] % 4;
  put(files[which], data + 1, size - 1);
  struct mv_analysis *a = NULL;
  if (mv_analyze_trace(files[4], NULL, &a, NULL) == 0) {
    FILE *devnull = fopen("/dev/null", "w");
    if (devnull) {
      mv_analysis_write_text(a, devnull, 5);
      mv_analysis_write_json(a, devnull);
      fclose(devnull);
    }
    mv_analysis_free(a);
  }
  put(files[which], orig[which], orig_len[which]);
  return 0;
}
