/* The report verdict: a mismatch, a failed rule or a guideline violation is FAIL; an expectation
 * without rows (not measured) or without a model keeps the verdict from PASS (INCOMPLETE), in
 * report.txt, report.json and the HTML alike; only fully judged passing reports PASS. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpivet/report.h"
#include "test.h"

static void add(struct mv_report *r, const char *callpath, const char *metric,
                enum mv_report_status status)
{
  struct mv_report_fn f;
  memset(&f, 0, sizeof f);
  snprintf(f.callpath, sizeof f.callpath, "%s", callpath);
  snprintf(f.label, sizeof f.label, "%s", callpath + 4);
  snprintf(f.metric, sizeof f.metric, "%s", metric);
  snprintf(f.expectation, sizeof f.expectation, "O(log p)");
  snprintf(f.lead, sizeof f.lead, "O(log p)");
  snprintf(f.divergence, sizeof f.divergence, "O(1)");
  snprintf(f.model, sizeof f.model, "1e-06 * log2(p)^(1)");
  f.ar2 = 1.0;
  f.status = status;
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
  add(&r, "MPI_Bcast", "time_s", MV_REPORT_MATCH);
  add(&r, "MPI_Reduce", "time_s", MV_REPORT_APPROX);
  ASSERT_STR_EQ(mv_report_verdict(&r), "PASS");
  ASSERT_INT_EQ(mv_report_failed(&r), 0);

  add(&r, "MPI_Comm_dup", "mem_bytes", MV_REPORT_NOT_MEASURED);
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

  add(&r, "MPI_Gather", "time_s", MV_REPORT_NOT_MODELED);
  ASSERT_INT_EQ(r.n_incomplete, 2);
  add(&r, "MPI_Alltoall", "time_s", MV_REPORT_MISMATCH);
  ASSERT_STR_EQ(mv_report_verdict(&r), "FAIL");   /* a failure outranks what was not judged */
  ASSERT_INT_EQ(mv_report_failed(&r), 1);
  mv_report_release(&r);
}

int main(void)
{
  RUN_TEST(test_verdicts);
  return TEST_EXIT();
}
