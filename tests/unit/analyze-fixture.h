/* The fixture the analyze unit tests share: numbered synthetic OTF2 archives in one scratch folder
 * (MV_ANALYZE_KEEP=DIR keeps them in DIR, so that tests/mpi/analyze-parallel.sh can replay them with
 * the parallel analyzer), each closed and analysed by the serial analyzer. Included by one test
 * program each; every test names its archives with its own letter. */
#ifndef MV_TEST_ANALYZE_FIXTURE_H
#define MV_TEST_ANALYZE_FIXTURE_H

#include <stdint.h>
#include <stdio.h>

#include "analyze/synth.h"
#include "mpivet/analyze.h"
#include "test.h"

static char tmpdir[256];
static char archive_letter;
static int archive_no;

/* Makes the scratch folder /tmp/mv-test-NAME-XXXXXX; the archives are LETTER0, LETTER1, ... */
static inline int fixture_begin(const char *name, char letter)
{
  snprintf(tmpdir, sizeof tmpdir, "/tmp/mv-test-%s-XXXXXX", name);
  archive_letter = letter;
  return mv_test_tmpdir(tmpdir, sizeof tmpdir, "MV_ANALYZE_KEEP");
}

static inline void fixture_end(void)
{
  mv_test_tmpdir_done(tmpdir, "MV_ANALYZE_KEEP");
}

static inline struct mv__synth *open_archive(char *path, size_t size, int nranks, int nwins)
{
  snprintf(path, size, "%s/%c%d", tmpdir, archive_letter, archive_no++);
  return mv__synth_open(path, nranks, nwins);
}

/* The serial analysis of the archive in DIR; NULL (with the reason on stderr) when it fails. */
static inline struct mv_analysis *analyze(const char *dir)
{
  char anchor[512], err[256];
  snprintf(anchor, sizeof anchor, "%s/traces.otf2", dir);
  struct mv_analysis *a = NULL;
  if (mv_analyze_trace(anchor, NULL, &a, err, sizeof err))
    fprintf(stderr, "analyze %s: %s\n", dir, err);
  return a;
}

/* Closes the synthetic archive and analyzes it; NULL (a failed check) when either fails. */
static inline struct mv_analysis *close_and_analyze(struct mv__synth *s, const char *dir)
{
  ASSERT_INT_EQ(mv__synth_close(s), 0);
  struct mv_analysis *a = analyze(dir);
  ASSERT_TRUE(a != NULL);
  return a;
}

#define TICKS(a, key, rank, region) mv_analysis_ticks(a, key, rank, region)

/* Computation NAME on RANK from T0 to T1 (ns). */
static inline void compute(struct mv__synth *s, int rank, uint64_t t0, uint64_t t1, const char *name)
{
  mv__synth_enter(s, rank, t0, name);
  mv__synth_leave(s, rank, t1, name);
}

#endif
