/* Minimal unit-test support: typed asserts that print both operands, never compiled out,
 * and a runner macro. A failed assert reports file:line and makes the test exit 1. */
#ifndef MPIVET_TEST_H
#define MPIVET_TEST_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpivet/error.h"

static int mv_test_failures;

/* The tests' scratch folder: the folder the environment variable keep names (so that another
 * test can reuse what was written, e.g. MV_ANALYZE_KEEP for tests/mpi/analyze-parallel.sh), or a
 * new one from the mkdtemp template dir ("...XXXXXX", size bytes); 0, or -1 after a message. */
static inline int mv_test_tmpdir(char *dir, size_t size, const char *keep)
{
  const char *k = keep ? getenv(keep) : NULL;
  if (k)
    snprintf(dir, size, "%s", k);
  else if (!mkdtemp(dir)) {
    perror("mkdtemp");
    return -1;
  }
  return 0;
}
/* Remove the scratch folder of mv_test_tmpdir unless the environment variable keep named it. */
static inline void mv_test_tmpdir_done(const char *dir, const char *keep)
{
  char cmd[300];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
  if (!(keep && getenv(keep)) && system(cmd) != 0)
    fprintf(stderr, "could not remove %s\n", dir);
}

/* The text of an error context, for ASSERT_STR_EQ (one buffer: use it before the next call). */
static inline const char *mv_test_errtext(const struct mv_error *e)
{
  static char buf[MV_ERROR_TEXT_SIZE];
  return mv_error_text(e, buf, sizeof buf);
}

#define MV_FAIL_(...)                                                  \
  do {                                                                 \
    fprintf(stderr, "%s:%d: ", __FILE__, __LINE__);                    \
    fprintf(stderr, __VA_ARGS__);                                      \
    fputc('\n', stderr);                                               \
    mv_test_failures++;                                                \
  } while (0)

#define ASSERT_TRUE(c) \
  do { if (!(c)) MV_FAIL_("expected true: %s", #c); } while (0)
#define ASSERT_INT_EQ(got, want)                                               \
  do { long long g_ = (got), w_ = (want);                                      \
       if (g_ != w_) MV_FAIL_("%s == %lld, want %lld", #got, g_, w_); } while (0)
#define ASSERT_STR_EQ(got, want)                                               \
  do { const char *g_ = (got), *w_ = (want);                                   \
       if (!g_ || strcmp(g_, w_) != 0)                                         \
         MV_FAIL_("%s == \"%s\", want \"%s\"", #got, g_ ? g_ : "(null)", w_); } while (0)
/* |got - want| <= tol */
#define ASSERT_DOUBLE_NEAR(got, want, tol)                                     \
  do { double g_ = (got), w_ = (want);                                         \
       if (!(fabs(g_ - w_) <= (tol)))                                          \
         MV_FAIL_("%s == %.12g, want %.12g (tol %g)", #got, g_, w_, (double)(tol)); } while (0)
/* relative: |got - want| <= rel * |want| */
#define ASSERT_DOUBLE_REL(got, want, rel)                                      \
  do { double g_ = (got), w_ = (want);                                         \
       if (!(fabs(g_ - w_) <= (rel) * fabs(w_)))                               \
         MV_FAIL_("%s == %.12g, want %.12g (rel %g)", #got, g_, w_, (double)(rel)); } while (0)

#define RUN_TEST(fn)                                                           \
  do { int before_ = mv_test_failures; fn();                                   \
       fprintf(stderr, "%s %s\n", mv_test_failures == before_ ? "ok  " : "FAIL", #fn); } while (0)

#define TEST_EXIT() (mv_test_failures ? (fprintf(stderr, "%d failure(s)\n", mv_test_failures), 1) : 0)

#endif
