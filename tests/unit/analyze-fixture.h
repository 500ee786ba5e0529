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
  char anchor[512];
  struct mv_error err;
  snprintf(anchor, sizeof anchor, "%s/traces.otf2", dir);
  struct mv_analysis *a = NULL;
  if (mv_analyze_trace(anchor, NULL, &a, &err))
    fprintf(stderr, "analyze %s: %s\n", dir, mv_test_errtext(&err));
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

/* One expected value: metric KEY on RANK (-1: all ranks) in REGION (NULL: all call paths), in
 * ticks (ns in the synthetic archives). */
struct want_ticks {
  const char *key;
  int rank;
  const char *region;
  long long ticks;
};

static inline void expect_ticks_at(const char *file, int line, const struct mv_analysis *a,
                                   const struct want_ticks *w, size_t n)
{
  for (size_t i = 0; i < n; i++) {
    long long got = mv_analysis_ticks(a, w[i].key, w[i].rank, w[i].region);
    if (got == w[i].ticks)
      continue;
    fprintf(stderr, "%s:%d: row %zu: %s on rank %d in %s == %lld, want %lld\n", file, line, i + 1,
            w[i].key, w[i].rank, w[i].region ? w[i].region : "(all)", got, w[i].ticks);
    mv_test_failures++;
  }
}

/* EXPECT_TICKS(a, {KEY, RANK, REGION, TICKS}, ...): every row of the table, each failure named by
 * the table's line and the row. */
#define EXPECT_TICKS(a, ...)                                                              \
  do {                                                                                    \
    const struct want_ticks w_[] = {__VA_ARGS__};                                         \
    expect_ticks_at(__FILE__, __LINE__, a, w_, sizeof w_ / sizeof w_[0]);                 \
  } while (0)

/* Computation NAME on RANK from T0 to T1 (ns). */
static inline void compute(struct mv__synth *s, int rank, uint64_t t0, uint64_t t1, const char *name)
{
  mv__synth_enter(s, rank, t0, name);
  mv__synth_leave(s, rank, t1, name);
}

/* The identity of the cost model: short-term plus long-term costs of all delays equal the waiting
 * time they explain, and here (every wait has a delay or a wait in its interval) all of the
 * waiting time: that of metric W1 plus, unless NULL, W2; to 1e-9 relative. */
static inline void check_identity(const struct mv_analysis *a, const char *w1, const char *w2)
{
  double delay = mv_analysis_value(a, "delay", -1, NULL);
  double wait = mv_analysis_value(a, w1, -1, NULL) + (w2 ? mv_analysis_value(a, w2, -1, NULL) : 0);
  ASSERT_TRUE(wait > 0);
  ASSERT_DOUBLE_NEAR(delay, wait, 1e-9 * wait);
  ASSERT_DOUBLE_NEAR(mv_analysis_explained(a), wait, 1e-9 * wait);
}

#endif
