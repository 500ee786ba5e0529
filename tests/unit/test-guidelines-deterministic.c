/* The deterministic verdict: with identical launches (zero spread) or the smpi engine, a
 * comparison is decided on the slowdown alone (> min_slowdown), stays out of the
 * multiple-testing family and is labelled in the check, the text report and the JSON. */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "guidelines-data.h"
#include "mpivet/error.h"

static const double FLAT_SLOW[] = {1.02, 1.02, 1.02};   /* 3 identical launches: 2% slower */
static const double FLAT_BASE[] = {1.0, 1.0, 1.0};
/* SMPI's launches differ in the last digits (2.6150546141238962e-05 vs ...228553e-05 seen). */
static const double ROUNDED_BASE[] = {1.0, 1.0 + 4e-16, 1.0 - 1e-15};
static const double NOISY_BASE[] = {1.0, 1.0 + 1e-6, 1.0};

/* R=3 identical launches a side on real MPI: auto treats them as deterministic. The test
 * could not decide: R 4.2.2 wilcox.test(rep(1.02, 3), rep(1, 3), alternative="greater",
 * exact=FALSE, correct=TRUE)$p.value = 0.023427088801936877, the smallest p-value 3 against
 * 3 launches can reach, which no correction over a realistic family lets through. */
static void test_zero_spread(void)
{
  struct mv_dataset ds;
  struct mv_gl_options opt;
  struct mv_gl_report rep;
  pattern_data(&ds, FLAT_SLOW, 3, FLAT_BASE, 3);
  options(&opt, MV_CORR_BH);
  ASSERT_INT_EQ(evaluate(&ds, &opt, &rep), 1);
  const struct mv_gl_check *ck = find_check(&rep, "GL12", 8);
  ASSERT_TRUE(ck != NULL);
  if (ck) {
    ASSERT_INT_EQ(ck->deterministic, 1);
    ASSERT_INT_EQ(ck->violated, 1);                   /* 1.02 > 1.01 */
    ASSERT_DOUBLE_REL(ck->slowdown, 1.02, 1e-12);
    ASSERT_TRUE(isnan(ck->p_value) && isnan(ck->p_raw) && isnan(ck->statistic));
  }
  ASSERT_INT_EQ(rep.configs[0].tests, 0);
  ASSERT_INT_EQ(rep.configs[0].deterministic, 1);
  ASSERT_INT_EQ(rep.configs[0].violated[MV_GL_PATTERN], 1);
  mv_gl_report_release(&rep);

  opt.min_slowdown = 1.03;                            /* the tolerance decides: 1.02 is within */
  evaluate(&ds, &opt, &rep);
  ASSERT_INT_EQ(rep.nviolations, 0);
  ASSERT_INT_EQ(rep.configs[0].deterministic, 1);
  mv_gl_report_release(&rep);

  opt.min_slowdown = 1.01;
  /* The statistical path: 3 vs 3 launches. The normal approximation with ties would give
   * p = 0.0234, but no permutation of 3 vs 3 values goes below 1/C(6,3) = 0.05: undecidable
   * (issue 15 item 8), never "no violation". */
  opt.deterministic = MV_GL_DET_OFF;
  opt.correction = MV_CORR_NONE;
  evaluate(&ds, &opt, &rep);
  ck = find_check(&rep, "GL12", 8);
  ASSERT_TRUE(ck && ck->deterministic == 0 && ck->undecidable == 1 && !ck->violated);
  ASSERT_TRUE(ck && isnan(ck->p_raw));
  ASSERT_INT_EQ(rep.configs[0].tests, 0);
  ASSERT_INT_EQ(rep.configs[0].undecidable, 1);
  ASSERT_INT_EQ(rep.configs[0].deterministic, 0);
  mv_gl_report_release(&rep);
  mv_dataset_release(&ds);

  pattern_data(&ds, FLAT_SLOW, 3, ROUNDED_BASE, 3);   /* rounding is no spread */
  options(&opt, MV_CORR_BH);
  evaluate(&ds, &opt, &rep);
  ASSERT_TRUE(rep.nchecks == 1 && rep.checks[0].deterministic && rep.checks[0].violated);
  mv_gl_report_release(&rep);
  mv_dataset_release(&ds);
}

/* Spread on one side, or a single launch on real MPI: the statistical path (or untested). */
static void test_spread_keeps_the_test(void)
{
  struct mv_dataset ds;
  struct mv_gl_options opt;
  struct mv_gl_report rep;
  pattern_data(&ds, X, 7, FLAT_BASE, 3);
  options(&opt, MV_CORR_NONE);
  ASSERT_INT_EQ(evaluate(&ds, &opt, &rep), 1);
  ASSERT_TRUE(rep.nchecks == 1 && rep.checks[0].deterministic == 0 &&
              !isnan(rep.checks[0].p_raw));
  mv_gl_report_release(&rep);
  mv_dataset_release(&ds);

  pattern_data(&ds, FLAT_SLOW, 3, NOISY_BASE, 3);    /* a spread of 1e-6 is real */
  evaluate(&ds, &opt, &rep);
  ASSERT_TRUE(rep.nchecks == 1 && rep.checks[0].deterministic == 0);
  mv_gl_report_release(&rep);
  mv_dataset_release(&ds);

  pattern_data(&ds, FLAT_SLOW, 1, FLAT_BASE, 1);     /* one launch each: zero spread means nothing */
  ASSERT_INT_EQ(evaluate(&ds, &opt, &rep), 1);
  ASSERT_INT_EQ(rep.configs[0].undecidable, 1);
  ASSERT_INT_EQ(rep.ndecided, 0);
  mv_gl_report_release(&rep);
  mv_dataset_release(&ds);
}

/* The smpi engine is deterministic by construction: one launch suffices, and launches that
 * differ (here X against Y) are still compared on the slowdown, median 1.8 / 1.3. */
static void test_smpi_engine(void)
{
  struct mv_dataset ds;
  struct mv_gl_options opt;
  struct mv_gl_report rep;
  mv_dataset_init(&ds);
  add_launches_on(&ds, "smpi", "SMPI", "MPI_Allreduce", "default", 8, FLAT_SLOW, 1);
  add_launches_on(&ds, "smpi", "SMPI", "MPI_Allreduce", "allreduce_as_reduce_bcast", 8,
                  FLAT_BASE, 1);
  add_launches_on(&ds, "smpi", "SMPI", "MPI_Bcast", "default", 8, X, 7);
  add_launches_on(&ds, "smpi", "SMPI", "MPI_Bcast", "bcast_as_scatter_allgather", 8, Y, 5);
  options(&opt, MV_CORR_BH);
  ASSERT_INT_EQ(evaluate(&ds, &opt, &rep), 2);
  const struct mv_gl_check *ck = find_check(&rep, "GL10", 8);
  ASSERT_TRUE(ck && ck->deterministic && ck->violated);
  ASSERT_TRUE(ck && fabs(ck->slowdown - 1.8 / 1.3) < 1e-12);
  ASSERT_INT_EQ(rep.configs[0].untested, 0);
  ASSERT_INT_EQ(rep.configs[0].deterministic, 2);
  ASSERT_INT_EQ(rep.configs[0].violated[MV_GL_PATTERN], 2);
  mv_gl_report_release(&rep);
  mv_dataset_release(&ds);
}

/* Deterministic comparisons are not tests: they stay out of the family. GL12 is a test
 * (p = 0.042410927202930306 as in test-guidelines.c) and, alone in its family, keeps that
 * p-value under Holm. With --deterministic off, GL10 and GL1 (MPI_Scan) have 3 launches a
 * side: no test at 3 vs 3 can go below 0.05, so they are undecidable and stay out of the
 * family; GL12 keeps its p. Also: monotony on deterministic data. */
static void test_family_and_monotony(void)
{
  static const double TWO[] = {2.0, 2.0, 2.0};
  struct mv_dataset ds;
  struct mv_gl_options opt;
  struct mv_gl_report rep;
  pattern_data(&ds, X, 7, Y, 5);
  add_launches(&ds, "L", "MPI_Bcast", "default", 8, FLAT_SLOW, 3);
  add_launches(&ds, "L", "MPI_Bcast", "bcast_as_scatter_allgather", 8, FLAT_BASE, 3);
  add_launches(&ds, "L", "MPI_Scan", "default", 8, TWO, 3);     /* 8 B slower than 16 B */
  add_launches(&ds, "L", "MPI_Scan", "default", 16, FLAT_BASE, 3);
  options(&opt, MV_CORR_HOLM);
  evaluate(&ds, &opt, &rep);
  const struct mv_gl_check *ck = find_check(&rep, "GL12", 8);
  ASSERT_TRUE(ck && !ck->deterministic && fabs(ck->p_value - 0.042410927202930306) < 1e-12);
  ASSERT_INT_EQ(rep.configs[0].tests, 1);
  ASSERT_INT_EQ(rep.configs[0].deterministic, 2);
  ck = find_check(&rep, "GL1", 16);
  ASSERT_TRUE(ck && ck->deterministic && ck->violated && ck->msize_small == 8);
  ASSERT_TRUE(ck && fabs(ck->slowdown - 2.0) < 1e-12);
  ASSERT_INT_EQ(rep.nviolations, 3);
  mv_gl_report_release(&rep);

  opt.deterministic = MV_GL_DET_OFF;
  evaluate(&ds, &opt, &rep);
  ck = find_check(&rep, "GL12", 8);
  ASSERT_TRUE(ck && fabs(ck->p_value - 0.042410927202930306) < 1e-12);
  ASSERT_INT_EQ(rep.configs[0].tests, 1);
  ASSERT_INT_EQ(rep.configs[0].undecidable, 2);
  ASSERT_INT_EQ(rep.nviolations, 1);
  mv_gl_report_release(&rep);

  opt.deterministic = MV_GL_DET_ON;                 /* everything on the slowdown, even X vs Y */
  evaluate(&ds, &opt, &rep);
  ASSERT_INT_EQ(rep.configs[0].tests, 0);
  ASSERT_INT_EQ(rep.configs[0].deterministic, 3);
  mv_gl_report_release(&rep);
  mv_dataset_release(&ds);
}

/* The label: "test": "deterministic", p_value and stars null; "determ." and "d" in the text. */
static void test_labels(void)
{
  struct mv_dataset ds;
  struct mv_gl_options opt;
  struct mv_gl_report rep;
  pattern_data(&ds, FLAT_SLOW, 3, FLAT_BASE, 3);
  options(&opt, MV_CORR_BH);
  evaluate(&ds, &opt, &rep);
  char *buf = NULL;
  size_t len = 0;
  FILE *fp = open_memstream(&buf, &len);
  struct mv_json j;
  mv_json_init(&j, fp, 0);
  mv_gl_write_json(&rep, &j);
  ASSERT_INT_EQ(mv_json_finish(&j), 0);
  fclose(fp);
  ASSERT_TRUE(buf && strstr(buf, "\"p_value\":null,\"slowdown\":1.02,\"stars\":null,"
                                 "\"test\":\"deterministic\",\"guideline\":\"GL12\""));
  ASSERT_TRUE(buf && strstr(buf, "\"deterministic\":\"auto\""));
  ASSERT_TRUE(buf && strstr(buf, "\"tests\":0,\"deterministic\":1,"));
  free(buf);
  buf = NULL;
  fp = open_memstream(&buf, &len);
  ASSERT_INT_EQ(mv_gl_write_text(&rep, &cat, fp), 0);
  fclose(fp);
  ASSERT_TRUE(buf && strstr(buf, "0 tests, 1 deterministic comparisons (slowdown alone)"));
  ASSERT_TRUE(buf && strstr(buf, "1.020    determ.\n"));
  ASSERT_TRUE(buf && strstr(buf, "  p MPI_Allreduce <= Reduce+Bcast"));
  ASSERT_TRUE(buf && strstr(buf, "d deterministic"));
  if (buf && !strstr(buf, "determ.\n"))
    fprintf(stderr, "got: %s\n", buf);
  free(buf);
  mv_gl_report_release(&rep);
  mv_dataset_release(&ds);
}

static void test_names(void)
{
  enum mv_gl_det d;
  ASSERT_INT_EQ(mv_gl_parse_det("on", &d), 0);
  ASSERT_INT_EQ(d, MV_GL_DET_ON);
  ASSERT_INT_EQ(mv_gl_parse_det("yes", &d), MV_EINVAL);
  ASSERT_STR_EQ(mv_gl_det_name(MV_GL_DET_OFF), "off");
}

int main(void)
{
  mv_catalog_init(&cat);
  struct mv_error err;
  if (mv_catalog_load(&cat, "../../share/mpivet/guidelines.catalog", &err) != 0) {
    fprintf(stderr, "cannot load the catalog: %s\n", mv_test_errtext(&err));
    return 1;
  }
  RUN_TEST(test_zero_spread);
  RUN_TEST(test_spread_keeps_the_test);
  RUN_TEST(test_smpi_engine);
  RUN_TEST(test_family_and_monotony);
  RUN_TEST(test_labels);
  RUN_TEST(test_names);
  mv_catalog_release(&cat);
  return TEST_EXIT();
}
