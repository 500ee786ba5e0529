/* mv_benchgen_median_run: of repeated runs of one program at one count, the run of the median
 * span; runs at another count or with other calls refused, naming the trace. Traces are real
 * format-5 files (tests/fuzz/seeds-fuzz-mvt: the ring and master-worker patterns traced under
 * SMPI at 8 ranks, crash.c under MPICH at 4); the spans are set by hand so the known median is
 * independent of the code under test. */
#include <stdint.h>
#include <string.h>

#include "mpivet/benchgen.h"
#include "test.h"

#define SEEDS "../fuzz/seeds-fuzz-mvt/"

static int load(const char *name, struct mv_mvt *t)
{
  struct mv_error e;
  int rc = mv_mvt_read(name, t, &e);
  if (rc)
    fprintf(stderr, "%s: %s\n", name, mv_test_errtext(&e));
  return rc;
}

static void test_median(void)
{
  struct mv_mvt t[5];
  const struct mv_mvt *p[5];
  /* spans in ms: 473, 402, 461, 420, 469 -> sorted 402 420 461 469 473: the median is 461, run 3 */
  const uint64_t ms[5] = {473, 402, 461, 420, 469};
  for (int i = 0; i < 5; i++) {
    ASSERT_INT_EQ(load(SEEDS "ring-8.mvt", &t[i]), 0);
    t[i].elapsed_ns = ms[i] * 1000000u;
    p[i] = &t[i];
  }
  struct mv_error e;
  size_t k = 99;
  ASSERT_INT_EQ(mv_benchgen_median_run(p, 5, &k, &e), 0);
  ASSERT_INT_EQ((int)k, 2);
  /* four runs: 473 402 461 420 -> 402 420 461 473, the lower median 420 (run 4) */
  ASSERT_INT_EQ(mv_benchgen_median_run(p, 4, &k, &e), 0);
  ASSERT_INT_EQ((int)k, 3);
  /* one run: itself */
  ASSERT_INT_EQ(mv_benchgen_median_run(p + 1, 1, &k, &e), 0);
  ASSERT_INT_EQ((int)k, 0);
  /* equal spans keep the given order: of three, the second */
  for (int i = 0; i < 3; i++)
    t[i].elapsed_ns = 5;
  ASSERT_INT_EQ(mv_benchgen_median_run(p, 3, &k, &e), 0);
  ASSERT_INT_EQ((int)k, 1);
  for (int i = 0; i < 5; i++)
    mv_mvt_release(&t[i]);
}

static void test_refused(void)
{
  struct mv_mvt ring, master, crash;
  ASSERT_INT_EQ(load(SEEDS "ring-8.mvt", &ring), 0);
  ASSERT_INT_EQ(load(SEEDS "master-8.mvt", &master), 0);
  ASSERT_INT_EQ(load(SEEDS "crash-4.mvt", &crash), 0);
  struct mv_error e;
  size_t k = 0;
  const struct mv_mvt *other_count[2] = {&ring, &crash};
  ASSERT_INT_EQ(mv_benchgen_median_run(other_count, 2, &k, &e), MV_EINVAL);
  ASSERT_TRUE(strstr(mv_test_errtext(&e), "trace 2 has 4 ranks, trace 1 has 8") != NULL);
  const struct mv_mvt *other_calls[3] = {&ring, &ring, &master};  /* both 8 ranks */
  ASSERT_INT_EQ(mv_benchgen_median_run(other_calls, 3, &k, &e), MV_EINVAL);
  ASSERT_TRUE(strstr(mv_test_errtext(&e), "trace 3 does not make the calls of trace 1") != NULL);
  ASSERT_INT_EQ(mv_benchgen_median_run(other_calls, 0, &k, &e), MV_EINVAL);
  mv_mvt_release(&ring);
  mv_mvt_release(&master);
  mv_mvt_release(&crash);
}

int main(void)
{
  RUN_TEST(test_median);
  RUN_TEST(test_refused);
  return TEST_EXIT();
}
