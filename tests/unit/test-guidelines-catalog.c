/* The guideline catalog: the shipped file holds PGMPI's 17 guidelines (Appendix A of the paper)
 * with the 15 mock-up ids mpivet-bench measures; malformed catalogs fail with file:line:col. */
#include <ctype.h>
#include <string.h>

#include "mpivet/error.h"
#include "mpivet/guidelines.h"
#include "test.h"

static const struct mv_guideline *find(const struct mv_catalog *cat, const char *id)
{
  for (size_t i = 0; i < cat->n; i++)
    if (strcmp(cat->items[i].id, id) == 0)
      return &cat->items[i];
  return NULL;
}

/* Every mock-up id reads <coll>_as_<parts>: the lower-case function name without MPI_. */
static int mockup_named_after_op(const struct mv_guideline *gl)
{
  char want[MV_NAME_MAX + 8];
  size_t n = 0;
  for (const char *s = gl->ops[0] + 4; *s && n + 1 < sizeof want; s++)
    want[n++] = (char)tolower((unsigned char)*s);
  strcpy(want + n, "_as_");
  return strncmp(gl->mockup, want, strlen(want)) == 0;
}

static void test_shipped_catalog(void)
{
  struct mv_catalog cat;
  mv_catalog_init(&cat);
  ASSERT_INT_EQ(mv_catalog_load(&cat, "../../share/mpivet/guidelines.catalog", NULL), 0);
  ASSERT_INT_EQ(cat.n, 17);
  ASSERT_INT_EQ(mv_catalog_count(&cat, MV_GL_MONOTONY), 1);
  ASSERT_INT_EQ(mv_catalog_count(&cat, MV_GL_SPLIT), 1);
  ASSERT_INT_EQ(mv_catalog_count(&cat, MV_GL_PATTERN), 15);
  const struct mv_guideline *gl = find(&cat, "GL1");
  ASSERT_TRUE(gl && gl->type == MV_GL_MONOTONY && gl->nops == 9);
  gl = find(&cat, "GL2");
  ASSERT_TRUE(gl && gl->type == MV_GL_SPLIT && gl->nops == 9);
  gl = find(&cat, "GL12");   /* MPI_Allreduce(n) <= MPI_Reduce(n) + MPI_Bcast(n) */
  ASSERT_TRUE(gl != NULL);
  if (gl) {
    ASSERT_STR_EQ(gl->ops[0], "MPI_Allreduce");
    ASSERT_STR_EQ(gl->mockup, "allreduce_as_reduce_bcast");
    ASSERT_STR_EQ(gl->parts, "MPI_Reduce+MPI_Bcast");
    char label[256];
    mv_guideline_label(gl, label, sizeof label);
    ASSERT_STR_EQ(label, "MPI_Allreduce <= Reduce+Bcast");
  }
  gl = find(&cat, "GL16");   /* MPI_Scan(n) <= MPI_Exscan(n) + MPI_Reduce_local(n) */
  ASSERT_TRUE(gl && strcmp(gl->mockup, "scan_as_exscan_reduce_local") == 0);
  for (size_t i = 0; i < cat.n; i++) {
    const struct mv_guideline *a = &cat.items[i];
    if (a->type != MV_GL_PATTERN)
      continue;
    ASSERT_TRUE(mockup_named_after_op(a));
    for (size_t j = 0; j < i; j++)
      ASSERT_TRUE(strcmp(a->mockup, cat.items[j].mockup) != 0);
  }
  mv_catalog_release(&cat);
}

static void test_parse_minimal(void)
{
  static const char text[] = "# comment\n\nGL1 monotony MPI_Bcast,MPI_Scan  # trailing\r\n"
                             "GL7\tpattern MPI_Scatter scatter_as_bcast MPI_Bcast";
  struct mv_catalog cat;
  mv_catalog_init(&cat);
  ASSERT_INT_EQ(mv_catalog_parse(&cat, text, strlen(text), "t", NULL), 0);
  ASSERT_INT_EQ(cat.n, 2);
  if (cat.n == 2) {
    ASSERT_INT_EQ(cat.items[0].nops, 2);
    ASSERT_STR_EQ(cat.items[0].ops[1], "MPI_Scan");
    ASSERT_INT_EQ(cat.items[1].line, 4);
    ASSERT_STR_EQ(cat.items[1].parts, "MPI_Bcast");
  }
  mv_catalog_release(&cat);
}

static void test_parse_errors(void)
{
  static const struct { const char *text, *error; } cases[] = {
    {"GL1 monotone MPI_Bcast\n", "t:1:5: expected monotony, split or pattern, got \"monotone\""},
    {"\nX1 split MPI_Bcast\n", "t:2:1: expected a guideline id like GL3, got \"X1\""},
    {"GL3 pattern MPI_Gather gather_as_allgather\n",
     "t:1:43: expected 5 fields for a pattern guideline (ID pattern OP MOCKUP PARTS), got 4"},
    {"GL1 split MPI_Bcast,,MPI_Scan\n", "t:1:21: expected a function name of 1 to 127 "
                                         "characters, got 0"},
    {"GL1 split A\nGL1 split B\n", "t:2:1: guideline GL1 already defined on line 1"},
    {"GL1\n", "t:1:4: expected a guideline type after GL1"},
    {"# nothing\n", "t: no guideline found"},
    {"GL1 split A\x01\n", "t:1:12: unexpected control character 0x01"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    struct mv_catalog cat;
    mv_catalog_init(&cat);
    struct mv_error err;
    ASSERT_INT_EQ(mv_catalog_parse(&cat, cases[i].text, strlen(cases[i].text), "t", &err), MV_EPARSE);
    ASSERT_STR_EQ(mv_test_errtext(&err), cases[i].error);
    mv_catalog_release(&cat);
  }
}

static void test_missing_file(void)
{
  struct mv_catalog cat;
  mv_catalog_init(&cat);
  struct mv_error err;
  ASSERT_INT_EQ(mv_catalog_load(&cat, "no-such.catalog", &err), MV_ENOENT);
  ASSERT_TRUE(strstr(mv_test_errtext(&err), "no-such.catalog") != NULL);
  mv_catalog_release(&cat);
}

int main(void)
{
  RUN_TEST(test_shipped_catalog);
  RUN_TEST(test_parse_minimal);
  RUN_TEST(test_parse_errors);
  RUN_TEST(test_missing_file);
  return TEST_EXIT();
}
