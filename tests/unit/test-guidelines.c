/* Guideline verdicts on small hand-made data sets: test statistics and p-values against R 4.2.2
 * (the expressions are quoted next to each value), monotony, split-robustness (k, tolerance,
 * largest m_i only), the multiple-testing family, summaries and the JSON contract. */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "guidelines-data.h"

static void test_pattern_matches_r(void)
{
  struct mv_dataset ds;
  struct mv_gl_options opt;
  struct mv_gl_report rep;
  pattern_data(&ds, X, 7, Y, 5);
  options(&opt, MV_CORR_NONE);
  ASSERT_INT_EQ(evaluate(&ds, &opt, &rep), 1);
  const struct mv_gl_check *ck = find_check(&rep, "GL12", 8);
  ASSERT_TRUE(ck != NULL);
  if (ck) {
    /* R: wilcox.test(x, y, alternative="greater", exact=FALSE, correct=TRUE)
     *    W = 28.5, p-value = 0.042410927202930306 */
    ASSERT_DOUBLE_NEAR(ck->statistic, 28.5, 1e-12);
    ASSERT_DOUBLE_REL(ck->p_raw, 0.042410927202930306, 1e-9);
    ASSERT_DOUBLE_REL(ck->p_value, 0.042410927202930306, 1e-9);
    ASSERT_INT_EQ(ck->violated, 1);
    ASSERT_STR_EQ(ck->mockup, "allreduce_as_reduce_bcast");
    ASSERT_INT_EQ(ck->msize_small, -1);
    ASSERT_DOUBLE_REL(ck->slowdown, 1.8 / 1.3, 1e-12);   /* median(x) / median(y) */
    ASSERT_INT_EQ(ck->n, 7);
    ASSERT_INT_EQ(ck->n_ref, 5);
  }
  ASSERT_INT_EQ(rep.configs[0].violated[MV_GL_PATTERN], 1);
  ASSERT_INT_EQ(rep.configs[0].evaluated[MV_GL_PATTERN], 1);
  mv_gl_report_release(&rep);
  opt.alpha = 0.04;   /* p = 0.0424 is not significant at 0.04 */
  evaluate(&ds, &opt, &rep);
  ASSERT_INT_EQ(rep.nviolations, 0);
  mv_gl_report_release(&rep);
  mv_dataset_release(&ds);
}

static void test_pattern_direction(void)
{
  struct mv_dataset ds;
  struct mv_gl_options opt;
  struct mv_gl_report rep;
  pattern_data(&ds, Y, 5, X, 7);   /* the mock-up is the slower one: no violation */
  options(&opt, MV_CORR_NONE);
  evaluate(&ds, &opt, &rep);
  const struct mv_gl_check *ck = find_check(&rep, "GL12", 8);
  /* R: wilcox.test(y, x, alternative="greater", exact=FALSE, correct=TRUE)$p.value
   *    = 0.97045339007357512 */
  ASSERT_TRUE(ck && fabs(ck->p_raw - 0.97045339007357512) < 1e-9);
  ASSERT_INT_EQ(rep.nviolations, 0);
  mv_gl_report_release(&rep);
  mv_dataset_release(&ds);
}

static void test_raw_and_ks(void)
{
  struct mv_dataset ds;
  struct mv_gl_options opt;
  struct mv_gl_report rep;
  pattern_data(&ds, X, 7, Y, 5);
  options(&opt, MV_CORR_NONE);
  opt.per = MV_GL_PER_RAW;
  evaluate(&ds, &opt, &rep);
  const struct mv_gl_check *ck = find_check(&rep, "GL12", 8);
  /* R: wilcox.test(xr, yr, alternative="greater", exact=FALSE, correct=TRUE) with
   *    xr <- c(x-0.1, x, x+0.25), yr <- c(y-0.1, y, y+0.25): W = 254, p = 0.0010151764438734161 */
  ASSERT_TRUE(ck != NULL);
  if (ck) {
    ASSERT_DOUBLE_NEAR(ck->statistic, 254, 1e-9);
    ASSERT_DOUBLE_REL(ck->p_raw, 0.0010151764438734161, 1e-9);
    ASSERT_INT_EQ(ck->n, 21);
  }
  mv_gl_report_release(&rep);
  opt.per = MV_GL_PER_LAUNCH;
  opt.test = MV_GL_TEST_KS;
  evaluate(&ds, &opt, &rep);
  ck = find_check(&rep, "GL12", 8);
  /* "default slower" is "the mock-up's CDF lies above": R 4.2.2
   *    suppressWarnings(ks.test(y, x, alternative="greater")): D^+ = 0.5714285714285715,
   *    p-value = 0.10353535353535293 */
  ASSERT_TRUE(ck != NULL);
  if (ck) {
    ASSERT_DOUBLE_NEAR(ck->statistic, 4.0 / 7.0, 1e-12);
    ASSERT_DOUBLE_REL(ck->p_raw, 0.10353535353535293, 1e-6);
  }
  mv_gl_report_release(&rep);
  mv_dataset_release(&ds);
}

static void test_monotony(void)
{
  struct mv_dataset ds;
  struct mv_gl_options opt;
  struct mv_gl_report rep;
  mv_dataset_init(&ds);
  add_launches(&ds, "L", "MPI_Bcast", "default", 8, X, 7);    /* 8 B slower than 16 B */
  add_launches(&ds, "L", "MPI_Bcast", "default", 16, Y, 5);
  options(&opt, MV_CORR_NONE);
  ASSERT_INT_EQ(evaluate(&ds, &opt, &rep), 1);
  const struct mv_gl_check *ck = find_check(&rep, "GL1", 16);
  ASSERT_TRUE(ck != NULL);
  if (ck) {
    ASSERT_INT_EQ(ck->type, MV_GL_MONOTONY);
    ASSERT_INT_EQ(ck->msize_small, 8);
    ASSERT_DOUBLE_REL(ck->p_raw, 0.042410927202930306, 1e-9);   /* the same R call as above */
    ASSERT_INT_EQ(ck->violated, 1);
  }
  ASSERT_INT_EQ(rep.configs[0].violated[MV_GL_MONOTONY], 1);
  ASSERT_INT_EQ(rep.configs[0].evaluated[MV_GL_SPLIT], 1);
  ASSERT_INT_EQ(rep.configs[0].violated[MV_GL_SPLIT], 0);   /* 1.8 < 2 * 1.3 */
  mv_gl_report_release(&rep);
  mv_dataset_release(&ds);
}

/* Two mock-ups with the same data in library A and one in library B: the family is one
 * configuration. R: p <- 0.042410927202930306; p.adjust(c(p, p), "holm") = 0.084821854405860611
 * for both; p.adjust(c(p, p), "BH") = 0.042410927202930306 for both. */
static void test_correction_family(void)
{
  static const struct { enum mv_correction c; double p; int violations; } cases[] = {
    {MV_CORR_NONE, 0.042410927202930306, 3},
    {MV_CORR_HOLM, 0.084821854405860611, 1},
    {MV_CORR_BH, 0.042410927202930306, 3},
  };
  struct mv_dataset ds;
  pattern_data(&ds, X, 7, Y, 5);
  add_launches(&ds, "L", "MPI_Allreduce", "allreduce_as_reduce_scatter_block_allgather", 8, Y, 5);
  add_launches(&ds, "M", "MPI_Allreduce", "default", 8, X, 7);
  add_launches(&ds, "M", "MPI_Allreduce", "allreduce_as_reduce_bcast", 8, Y, 5);
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    struct mv_gl_options opt;
    struct mv_gl_report rep;
    options(&opt, cases[i].c);
    ASSERT_INT_EQ(evaluate(&ds, &opt, &rep), 3);
    ASSERT_INT_EQ(rep.nconfigs, 2);
    ASSERT_INT_EQ(rep.nviolations, cases[i].violations);
    for (size_t k = 0; k < rep.nchecks; k++) {
      const struct mv_gl_check *ck = &rep.checks[k];
      int single = strcmp(rep.configs[ck->config].library, "M") == 0;
      ASSERT_DOUBLE_REL(ck->p_value, single ? 0.042410927202930306 : cases[i].p, 1e-9);
    }
    mv_gl_report_release(&rep);
  }
  mv_dataset_release(&ds);
}

/* Split-robustness: op(m_j) <= k op(m_i), k = ceil(m_j / m_i), 5% tolerance, only the largest
 * violating m_i per m_j. Launch medians are constant so the arithmetic is exact. */
static void test_split(void)
{
  static const struct { long msize; double t; } series[] = {
    {500, 1.0}, {1000, 1.0}, {1024, 1.0}, {2000, 2.09}, {4000, 4.0}};
  struct mv_dataset ds;
  struct mv_gl_options opt;
  struct mv_gl_report rep;
  mv_dataset_init(&ds);
  for (size_t i = 0; i < sizeof series / sizeof series[0]; i++) {
    double med[4] = {series[i].t, series[i].t, series[i].t, series[i].t};
    add_launches(&ds, "L", "MPI_Gather", "default", series[i].msize, med, 4);
  }
  options(&opt, MV_CORR_NONE);
  evaluate(&ds, &opt, &rep);
  /* 2000 vs 1024: k = 2 (ceil 1.95), bound 2 * 1.0; 2.09 is within 5% (<= 2.1): no violation.
   * 4000 vs 2000: k = 2, 4.0 <= 4.2 fine; vs 1024: k = 4, 4.0 fine; vs 1000: k = 4 fine;
   * so nothing is violated at the default tolerance. */
  ASSERT_INT_EQ(rep.configs[0].violated[MV_GL_SPLIT], 0);
  mv_gl_report_release(&rep);
  opt.split_tolerance = 0.02;
  evaluate(&ds, &opt, &rep);
  /* 2000: vs 1024 (k=2) 2.09 > 2.04: violated; 1000 (k=2, also violated) is not reported.
   * 4000: vs 2000 k=2: 4.0 <= 4.284; vs 1024 k=4 (ceil 3.906): 4.0 <= 4.08; vs 1000 k=4 same;
   *       vs 500 k=8: fine -> no violation. */
  const struct mv_gl_check *ck = find_check(&rep, "GL2", 2000);
  ASSERT_TRUE(ck != NULL);
  if (ck) {
    ASSERT_INT_EQ(ck->msize_small, 1024);
    ASSERT_INT_EQ(ck->k, 2);
    ASSERT_DOUBLE_REL(ck->median_ref, 2.0, 1e-12);
    ASSERT_DOUBLE_REL(ck->slowdown, 1.045, 1e-12);
    ASSERT_TRUE(isnan(ck->p_value));
  }
  ASSERT_TRUE(find_check(&rep, "GL2", 4000) == NULL);
  size_t nsplit = 0;
  for (size_t i = 0; i < rep.nchecks; i++)
    nsplit += rep.checks[i].type == MV_GL_SPLIT;
  ASSERT_INT_EQ(nsplit, 1);   /* 2000 vs 1000 violates too but is not the largest m_i */
  ASSERT_INT_EQ(rep.configs[0].violated[MV_GL_SPLIT], 1);
  mv_gl_report_release(&rep);
  mv_dataset_release(&ds);
}

static void test_untested_and_tukey(void)
{
  static const double one[] = {1.0};
  struct mv_dataset ds;
  struct mv_gl_options opt;
  struct mv_gl_report rep;
  pattern_data(&ds, one, 1, Y, 5);   /* 1 vs 5 launches: min p = 1/6, undecidable (issue 15) */
  options(&opt, MV_CORR_NONE);
  ASSERT_INT_EQ(evaluate(&ds, &opt, &rep), 1);   /* listed as undecidable */
  ASSERT_INT_EQ(rep.configs[0].undecidable, 1);
  ASSERT_TRUE(rep.checks[0].undecidable && !rep.checks[0].violated);
  ASSERT_INT_EQ(rep.nundecidable, 1);
  ASSERT_INT_EQ(rep.ndecided, 0);
  ASSERT_INT_EQ(rep.configs[0].evaluated[MV_GL_PATTERN], 0);
  mv_gl_report_release(&rep);
  mv_dataset_release(&ds);

  /* Launch values 1, 1.1, ..., 1.5, 9, 10: median 1.35; Tukey (k=1.5, R's quantile type 7:
   * q1 = 1.175, q3 = 3.375, upper fence 6.675) drops 9 and 10: median 1.25. */
  static const double launch[] = {1.0, 1.1, 1.2, 1.3, 1.4, 1.5, 9, 10};
  struct mv_row row;
  mv_dataset_init(&ds);
  mv_row_init(&row);
  strcpy(row.op, "MPI_Scan");
  row.nprocs = 2;
  for (int impl = 0; impl < 2; impl++)
    for (int r = 0; r < 2; r++)
      for (int k = 0; k < 8; k++) {
        strcpy(row.impl, impl ? "scan_as_exscan_reduce_local" : "default");
        row.run = r;
        row.value = launch[k] * (impl ? 2 : 1);
        mv_dataset_add(&ds, &row);
      }
  opt.tukey_k = 1.5;
  evaluate(&ds, &opt, &rep);
  ASSERT_TRUE(rep.nchecks == 1 && fabs(rep.checks[0].median - 1.25) < 1e-12);
  mv_gl_report_release(&rep);
  mv_dataset_release(&ds);
}

/* A default call 1e-15 s slower than its mock-up in every launch is "significant" (R:
 * wilcox.test(rep(1+1e-15, 10), rep(1, 10), alternative="greater", exact=FALSE,
 * correct=TRUE)$p.value = 7.968956e-06, tie-corrected), but no slowdown. The launches are
 * identical, so the statistical path is only taken with --deterministic off. */
static void test_min_slowdown(void)
{
  double a[10], b[10];
  for (int i = 0; i < 10; i++) {
    a[i] = 1 + 1e-15;
    b[i] = 1;
  }
  struct mv_dataset ds;
  struct mv_gl_options opt;
  struct mv_gl_report rep;
  pattern_data(&ds, a, 10, b, 10);
  options(&opt, MV_CORR_NONE);
  opt.deterministic = MV_GL_DET_OFF;
  evaluate(&ds, &opt, &rep);
  ASSERT_TRUE(rep.nchecks == 1 && fabs(rep.checks[0].p_value - 7.968956e-06) < 1e-11);
  ASSERT_INT_EQ(rep.nviolations, 0);
  mv_gl_report_release(&rep);
  opt.min_slowdown = 1;   /* PGMPI's rule: the test alone decides */
  evaluate(&ds, &opt, &rep);
  ASSERT_INT_EQ(rep.nviolations, 1);
  mv_gl_report_release(&rep);
  mv_dataset_release(&ds);
}

static void test_json_contract(void)
{
  struct mv_dataset ds;
  struct mv_gl_options opt;
  struct mv_gl_report rep;
  pattern_data(&ds, X, 7, Y, 5);
  options(&opt, MV_CORR_HOLM);
  opt.alpha = 0.1;
  evaluate(&ds, &opt, &rep);
  char *buf = NULL;
  size_t len = 0;
  FILE *fp = open_memstream(&buf, &len);
  struct mv_json j;
  mv_json_init(&j, fp, 0);
  mv_gl_write_json(&rep, &j);
  ASSERT_INT_EQ(mv_json_finish(&j), 0);
  fclose(fp);
  const char *want = "{\"violations\":[{\"type\":\"pattern\",\"op\":\"MPI_Allreduce\","
                     "\"mockup\":\"allreduce_as_reduce_bcast\",\"msize\":8,\"msize_small\":null,"
                     "\"p_value\":0.0424109272029";
  ASSERT_TRUE(buf && strncmp(buf, want, strlen(want)) == 0);
  ASSERT_TRUE(buf && strstr(buf, "\"stars\":\"*\",\"test\":\"ranksum\",\"guideline\":\"GL12\""));
  ASSERT_TRUE(buf && strstr(buf, "\"correction\":\"holm\""));
  ASSERT_TRUE(buf && strstr(buf, "\"pattern\":{\"violated\":1,\"evaluated\":1}"));
  if (buf && strncmp(buf, want, strlen(want)) != 0)
    fprintf(stderr, "got: %s\n", buf);
  free(buf);
  mv_gl_report_release(&rep);
  mv_dataset_release(&ds);
}

int main(void)
{
  mv_catalog_init(&cat);
  struct mv_error err;
  if (mv_catalog_load(&cat, "../../share/mpivet/guidelines.catalog", &err) != 0) {
    fprintf(stderr, "cannot load the catalog: %s\n", mv_test_errtext(&err));
    return 1;
  }
  RUN_TEST(test_pattern_matches_r);
  RUN_TEST(test_pattern_direction);
  RUN_TEST(test_raw_and_ks);
  RUN_TEST(test_monotony);
  RUN_TEST(test_correction_family);
  RUN_TEST(test_split);
  RUN_TEST(test_untested_and_tukey);
  RUN_TEST(test_min_slowdown);
  RUN_TEST(test_json_contract);
  mv_catalog_release(&cat);
  return TEST_EXIT();
}
