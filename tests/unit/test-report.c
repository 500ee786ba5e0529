/* The report verdict: a mismatch, a failed rule or a guideline violation is FAIL; an expectation
 * without rows (not measured) or without a model keeps the verdict from PASS (INCOMPLETE), in
 * report.txt, report.json and the HTML alike; only fully judged passing reports PASS. And the
 * functions of per-process message sizes (msize = bytes x p), one per series, rules by size. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpivet/report.h"
#include "test.h"

/* A judged function: O(log p) expected, 1e-06 * log2(p) fitted (adj. R^2 1). */
static void add(struct mv_report *r, const char *callpath, const char *metric,
                enum mv_judge_status status)
{
  struct mv_report_fn f;
  size_t col;
  char msg[128];
  memset(&f, 0, sizeof f);
  snprintf(f.j.function, sizeof f.j.function, "%s", callpath);
  snprintf(f.label, sizeof f.label, "%s", callpath + 4);
  snprintf(f.j.metric, sizeof f.j.metric, "%s", metric);
  f.j.expected = 1;
  ASSERT_INT_EQ(mv_bigo_parse("O(log p)", 8, &f.j.expect, &col, msg, sizeof msg), 0);
  ASSERT_INT_EQ(mv_bigo_parse("O(1)", 4, &f.j.verdict.divergence, &col, msg, sizeof msg), 0);
  f.j.verdict.lead = f.j.expect;
  f.j.model.fn = f.j.expect;
  f.j.model.fn.terms[0].coef = 1e-6;
  f.j.model.ar2 = 1.0;
  f.j.status = status;
  ASSERT_INT_EQ(mv_report_add_fn(r, &f), 0);
}

/* Text of one writer into a buffer (caller frees). */
static char *render(const struct mv_report *r, int (*writer)(const struct mv_report *, FILE *))
{
  char *buf = NULL;
  size_t len = 0;
  FILE *fp = open_memstream(&buf, &len);
  ASSERT_TRUE(fp != NULL);
  ASSERT_INT_EQ(writer(r, fp), 0);
  fclose(fp);
  return buf;
}

static void test_verdicts(void)
{
  struct mv_report r;
  mv_report_init(&r);
  add(&r, "MPI_Bcast", "time_s", MV_JUDGE_EXACT);
  add(&r, "MPI_Reduce", "time_s", MV_JUDGE_APPROX);
  ASSERT_STR_EQ(mv_report_verdict(&r), "PASS");
  ASSERT_INT_EQ(mv_report_failed(&r), 0);

  add(&r, "MPI_Comm_dup", "mem_bytes", MV_JUDGE_NOT_MEASURED);
  ASSERT_STR_EQ(mv_report_verdict(&r), "INCOMPLETE");
  ASSERT_INT_EQ(mv_report_failed(&r), 0);
  ASSERT_INT_EQ(r.n_incomplete, 1);
  char *txt = render(&r, mv_report_write_text), *json = render(&r, mv_report_write_json);
  char *html = render(&r, mv_report_write_html);
  ASSERT_TRUE(strstr(txt, "? not measured") != NULL);
  ASSERT_TRUE(strstr(txt, "1 not measured") != NULL);
  ASSERT_TRUE(strstr(txt, "Verdict: INCOMPLETE") != NULL);
  ASSERT_TRUE(strstr(json, "\"verdict\": \"incomplete\"") != NULL);
  ASSERT_TRUE(strstr(json, "\"match\": \"not measured\"") != NULL);
  ASSERT_TRUE(strstr(json, "\"not_judged\": 1") != NULL);
  ASSERT_TRUE(strstr(html, "Verdict: INCOMPLETE") != NULL);
  free(txt);
  free(json);
  free(html);

  add(&r, "MPI_Gather", "time_s", MV_JUDGE_NOT_MODELED);
  ASSERT_INT_EQ(r.n_incomplete, 2);
  add(&r, "MPI_Alltoall", "time_s", MV_JUDGE_MISMATCH);
  ASSERT_STR_EQ(mv_report_verdict(&r), "FAIL");   /* a failure outranks what was not judged */
  ASSERT_INT_EQ(mv_report_failed(&r), 1);
  mv_report_release(&r);
}

/* Rows of op at size msize(p) for p = 16..256, value f(p) exactly (SMPI-like, no noise). */
static void rows(struct mv_dataset *ds, const char *op, int64_t bytes, int per_process,
                 double (*f)(double))
{
  for (int p = 16; p <= 256; p *= 2) {
    struct mv_row row;
    mv_row_init(&row);
    snprintf(row.engine, sizeof row.engine, "smpi");
    snprintf(row.library, sizeof row.library, "SMPI 3.32");
    snprintf(row.op, sizeof row.op, "%s", op);
    row.nprocs = p;
    row.msize = per_process ? bytes * p : bytes;
    for (int rep = 0; rep < 3; rep++) {
      row.rep = rep;
      row.value = f(p);
      ASSERT_INT_EQ(mv_dataset_add(ds, &row), 0);
    }
  }
}

static double linear(double p) { return 2e-6 + 1e-7 * p; }
static double logp(double p) { return 3e-6 + 2e-6 * log2(p); }

/* The leading order of a function's model, as report.txt shows it. */
static const char *lead_of(const struct mv_report_fn *f)
{
  static char buf[MV_REPORT_TEXT];
  mv_bigo_format(&f->j.verdict.lead, buf, sizeof buf);
  return buf;
}

static const struct mv_report_fn *fn_of(const struct mv_report *r, const char *callpath,
                                        const char *size)
{
  for (size_t i = 0; i < r->nfns; i++)
    if (strcmp(r->fns[i].j.function, callpath) == 0 && strcmp(r->fns[i].size, size) == 0)
      return &r->fns[i];
  return NULL;
}

static void build(struct mv_report *r, struct mv_dataset *ds, const char *text)
{
  struct mv_expect_file ef;
  struct mv_error err;
  mv_expect_file_init(&ef);
  ASSERT_INT_EQ(mv_expect_parse(&ef, "t.expect", text, strlen(text), &err), 0);
  ASSERT_INT_EQ(mv_report_build(r, ds, &ef), 0);
  mv_expect_file_release(&ef);
}

/* A per-process series (msize = 800 x p at each p: 12800 at 16 .. 204800 at 256) is one
 * function over p, next to the fixed 800-byte total; rules pair functions of one size. */
static void test_per_process_sizes(void)
{
  struct mv_dataset ds;
  mv_dataset_init(&ds);
  rows(&ds, "MPI_Gather", 800, 1, linear);
  rows(&ds, "MPI_Gather", 800, 0, logp);
  rows(&ds, "MPI_Bcast", 800, 0, logp);
  struct mv_report r;
  mv_report_init(&r);
  build(&r, &ds, "MPI_Gather time_s O(p) msize=800p deviation=p^(1/2)\n"
                 "MPI_Gather time_s O(log p) msize=800 deviation=p^(1/2)\n"
                 "MPI_Bcast time_s O(log p) deviation=p^(1/2)\n"
                 "rule MPI_Gather <= MPI_Bcast + MPI_Bcast\n");
  ASSERT_INT_EQ(r.nfns, 3);
  const struct mv_report_fn *pp = fn_of(&r, "MPI_Gather", "800 B per process");
  const struct mv_report_fn *tot = fn_of(&r, "MPI_Gather", "800 B");
  ASSERT_TRUE(pp != NULL && tot != NULL);
  ASSERT_INT_EQ(pp->npoints, 5);
  ASSERT_INT_EQ(pp->j.size.per_process, 1);
  ASSERT_INT_EQ(pp->j.size.bytes, 800);
  ASSERT_STR_EQ(lead_of(pp), "O(p)");
  ASSERT_INT_EQ(pp->j.status, MV_JUDGE_EXACT);
  ASSERT_STR_EQ(lead_of(tot), "O(log p)");
  ASSERT_INT_EQ(tot->j.status, MV_JUDGE_EXACT);
  /* the rule is judged at 800 B only: Bcast has no per-process function to pair with */
  ASSERT_INT_EQ(r.nrules, 2);
  int judged = 0, missing = 0;
  for (size_t i = 0; i < r.nrules; i++) {
    if (r.rules[i].size.per_process) {
      ASSERT_STR_EQ(mv_rule_judgement_status(&r.rules[i]), "not evaluated");
      missing++;
    } else {
      ASSERT_INT_EQ(r.rules[i].size.bytes, 800);
      judged += r.rules[i].evaluated;
    }
  }
  ASSERT_INT_EQ(judged, 1);
  ASSERT_INT_EQ(missing, 1);
  char *txt = render(&r, mv_report_write_text), *json = render(&r, mv_report_write_json);
  ASSERT_TRUE(strstr(txt, "message size 800 B per process") != NULL);
  ASSERT_TRUE(strstr(json, "\"size\": \"800 B per process\"") != NULL);
  free(txt);
  free(json);
  mv_report_release(&r);

  /* without msize=: one function per size, the series told by the campaign (pp_sizes) */
  mv_report_init(&r);
  r.pp_sizes[0] = 800;
  r.n_pp_sizes = 1;
  build(&r, &ds, "MPI_Gather time_s O(p)\nrule MPI_Gather <= MPI_Bcast msize=800p\n");
  ASSERT_INT_EQ(r.nfns, 2);
  ASSERT_INT_EQ(fn_of(&r, "MPI_Gather", "800 B per process")->npoints, 5);
  ASSERT_INT_EQ(fn_of(&r, "MPI_Gather", "800 B")->j.status, MV_JUDGE_MISMATCH);
  ASSERT_INT_EQ(r.nrules, 1);   /* msize=800p: only the per-process lhs */
  mv_report_release(&r);

  /* nothing says 800 B per process: the one size rule (mv_kernels_from_dataset, as `mpivet
   * model` applies it) still finds the series, since each total was measured at one process
   * count and 800 B per process at five; the report once made five one-point totals of it */
  mv_report_init(&r);
  build(&r, &ds, "MPI_Gather time_s O(p)\n");
  ASSERT_INT_EQ(r.nfns, 2);
  ASSERT_INT_EQ(r.n_incomplete, 0);
  ASSERT_INT_EQ(fn_of(&r, "MPI_Gather", "800 B per process")->npoints, 5);
  mv_report_release(&r);
  mv_dataset_release(&ds);
}

/* The report of one series of op (800 B, in total or per process) generated by f, judged by
 * the expectation file text; release both with one_series_release. */
static void one_series(struct mv_report *r, struct mv_dataset *ds, const char *op, int per_process,
                       double (*f)(double), const char *text)
{
  mv_dataset_init(ds);
  rows(ds, op, 800, per_process, f);
  mv_report_init(r);
  build(r, ds, text);
  ASSERT_INT_EQ(r->nfns, 1);
}

static void one_series_release(struct mv_report *r, struct mv_dataset *ds)
{
  mv_report_release(r);
  mv_dataset_release(ds);
}

/* Linear data where O(log p) was expected: O(log p)'s search space (log terms only) misses
 * it, so the fit is widened (mv_expect_fit), the model is linear and the report says so. */
static void test_widened_fit(void)
{
  struct mv_dataset ds;
  struct mv_report r;
  one_series(&r, &ds, "MPI_Bcast", 0, linear, "MPI_Bcast time_s O(log p)\n");
  ASSERT_STR_EQ(lead_of(&r.fns[0]), "O(p)");
  ASSERT_INT_EQ(r.fns[0].j.status, MV_JUDGE_MISMATCH);
  ASSERT_TRUE(strstr(r.fns[0].j.note, "beyond the expectation's search space") != NULL);
  ASSERT_DOUBLE_REL(mv_function_eval(&r.fns[0].j.model.fn, (double[]){1024}), linear(1024), 1e-6);
  one_series_release(&r, &ds);
}

/* An algorithm switch at the largest process count (100x at p = 256 on an otherwise log p
 * series): no PMNF term follows it; the series is split into two regimes and the note says where
 * and how big the switch is (p = 256 is 100 (3 + 2 log2 256) / (3 + 2 log2 128) = 112x p = 128, and 100x what the
 * log p of the first regime predicts there). */
static double jump(double p) { return p < 256 ? logp(p) : 100 * logp(p); }

static void test_poor_fit_note(void)
{
  struct mv_dataset ds;
  struct mv_report r;
  one_series(&r, &ds, "MPI_Allgather", 1, jump, "MPI_Allgather time_s O(p) msize=800p\n");
  ASSERT_TRUE(strstr(r.fns[0].j.note, "regime change between p = 128 and 256: p = 256 is 112x p = 128 "
                                      "(100x the p = ") != NULL);
  ASSERT_INT_EQ(r.fns[0].j.nsegments, 2);
  ASSERT_INT_EQ(r.fns[0].j.status, MV_JUDGE_MISMATCH);   /* the log p regime is not O(p) */
  one_series_release(&r, &ds);
  /* the same series without the jump: no note */
  one_series(&r, &ds, "MPI_Allgather", 1, logp, "MPI_Allgather time_s O(p) msize=800p\n");
  ASSERT_STR_EQ(r.fns[0].j.note, "");
  one_series_release(&r, &ds);
}

/* Size labels are exact, in the largest binary unit that divides the size (IEC 80000-13:
 * 1 KiB = 1024 B): worked out by hand. */
static void test_size_labels(void)
{
  static const struct { long long bytes; int pp; const char *want; } c[] = {
    {800, 0, "800 B"}, {1024, 0, "1 KiB"}, {1500, 0, "1500 B"}, {65536, 1, "64 KiB per process"},
    {1048576, 0, "1 MiB"}, {3145728, 0, "3 MiB"}, {1049600, 0, "1025 KiB"}, {0, 0, "0 B"},
    {1LL << 40, 0, "1024 GiB"}};
  char buf[64];
  for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
    struct mv_msize_spec sp = {c[i].bytes, c[i].pp};
    mv_judge_size_label(1, &sp, buf, sizeof buf);
    ASSERT_STR_EQ(buf, c[i].want);
  }
  mv_judge_size_label(0, &(struct mv_msize_spec){8, 0}, buf, sizeof buf);
  ASSERT_STR_EQ(buf, "");
}

int main(void)
{
  RUN_TEST(test_size_labels);
  RUN_TEST(test_verdicts);
  RUN_TEST(test_per_process_sizes);
  RUN_TEST(test_widened_fit);
  RUN_TEST(test_poor_fit_note);
  return TEST_EXIT();
}
