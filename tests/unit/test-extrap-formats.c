/* Extra-P input as Extra-P 4.x reads it: the text variants its text_file_reader.py accepts, its
 * JSON (current and legacy) and JSON Lines layouts, and its own test corpus (tests/data/extrap,
 * copied from the extra-p/extrap repository; README.md there names the commit). Expected values
 * are the files' own numbers and what Extra-P's tests assert on them (tests/test_load_*.py and
 * test_console.py: one_parameter_1.txt has means 8.19E+01 at x = 20 and 1.79E+02 at x = 30). */
#include "test.h"

#include <dirent.h>

#include "mpivet/error.h"
#include "mpivet/extrap.h"

#define DATA "../data/extrap/"

static int parse(struct mv_extrap *x, const char *text, struct mv_error *err)
{
  mv_extrap_init(x);
  return mv_extrap_parse(x, "t", text, strlen(text), err);
}

static const struct mv_extrap_kernel *find(const struct mv_extrap *x, const char *region, const char *metric)
{
  for (size_t k = 0; k < x->nkernels; k++)
    if (!strcmp(x->kernels[k].region, region) && !strcmp(x->kernels[k].metric, metric))
      return &x->kernels[k];
  return NULL;
}

static double mean_at(const struct mv_extrap_kernel *k, size_t p)
{
  double s = 0;
  for (size_t i = 0; i < k->nvalues[p]; i++)
    s += k->values[p][i];
  return s / (double)k->nvalues[p];
}

static void test_text_variants(void)
{
  struct mv_extrap x;
  struct mv_error err;
  /* METRIC before REGION, persisting across regions; one point per POINTS line or several. */
  const char *persist = "# comment\n\nPARAMETER p\nPOINTS 1 2\nPOINTS 3\nMETRIC time\nREGION a\n"
                        "DATA 1\nDATA 2\nDATA 3\nREGION b\nDATA\t4 4.5\nDATA 5\r\nDATA 6\n";
  ASSERT_INT_EQ(parse(&x, persist, &err), 0);
  ASSERT_INT_EQ(x.npoints, 3);
  ASSERT_INT_EQ(x.nkernels, 2);
  const struct mv_extrap_kernel *b = find(&x, "b", "time");
  ASSERT_TRUE(b && b->nvalues[0] == 2 && b->values[0][1] == 4.5);
  mv_extrap_release(&x);
  /* DATA with no METRIC yet: the metric is "" (and without REGION, the region too). */
  ASSERT_INT_EQ(parse(&x, "PARAMETER p\nPOINTS (1) (2) (4)\nREGION r\nDATA 1 2\nDATA 3\nDATA 4\n", &err), 0);
  ASSERT_TRUE(find(&x, "r", "") != NULL);
  mv_extrap_release(&x);
  /* Two parameters on two PARAMETER lines, tuples with and without spaces between them;
   * runs of white space in names become one space, as Extra-P collapses them. */
  ASSERT_INT_EQ(parse(&x, "PARAMETER p\nPARAMETER n\nPOINTS (1 10)(2 10) ( 1 20 )\nREGION  my   region \n"
                          "METRIC bytes\nDATA 1\nDATA 2\nDATA 3\n", &err), 0);
  ASSERT_INT_EQ(x.nparams, 2);
  ASSERT_INT_EQ(x.npoints, 3);
  ASSERT_DOUBLE_NEAR(x.points[2 * 2 + 1], 20, 0);
  ASSERT_TRUE(find(&x, "my region", "bytes") != NULL);
  mv_extrap_release(&x);
  ASSERT_INT_EQ(parse(&x, "PARAMETER a b c d\nPOINTS (1 2 3 4)\nREGION r\nDATA 1\n", &err), 0);
  ASSERT_INT_EQ(x.nparams, 4);
  mv_extrap_release(&x);
  /* Extra-P reads at most 4 parameters, and no hexadecimal numbers. */
  ASSERT_INT_EQ(parse(&x, "PARAMETER a b c d e\n", &err), MV_ERANGE);
  mv_extrap_release(&x);
  ASSERT_INT_EQ(parse(&x, "PARAMETER p\nPOINTS 0x10\n", &err), MV_EPARSE);
  ASSERT_STR_EQ(mv_test_errtext(&err), "t:2:8: expected a finite number, got \"0x10\"");
  mv_extrap_release(&x);
  /* A second DATA for the same point of one (region, metric): Extra-P's validation fails. */
  ASSERT_INT_EQ(parse(&x, "PARAMETER p\nPOINTS 1\nREGION r\nDATA 1\nREGION r\nDATA 2\n", &err), MV_EPARSE);
  mv_extrap_release(&x);
}

static void test_json_layouts(void)
{
  struct mv_extrap x;
  struct mv_error err;
  const char *cur = "{\"parameters\": [\"x\"], \"measurements\": {\"sweep\": {\"time\": ["
                    "{\"point\": [4], \"values\": [3.5, 3.5]}, {\"point\": 8, \"values\": [5.5]}]}}}";
  ASSERT_INT_EQ(parse(&x, cur, &err), 0);
  ASSERT_INT_EQ(x.npoints, 2);
  ASSERT_DOUBLE_NEAR(find(&x, "sweep", "time")->values[1][0], 5.5, 0);
  mv_extrap_release(&x);
  /* Legacy: lists sorted by id, measurements one value each, ids given as numbers or strings. */
  const char *legacy = "{\"parameters\": [{\"id\": 1, \"name\": \"p\"}], \"callpaths\": [{\"id\": 1, \"name\": \"c\"}],"
                       "\"metrics\": [{\"id\": 1, \"name\": \"m\"}], \"coordinates\": [{\"id\": 2, "
                       "\"parameter_value_pairs\": [{\"parameter_id\": 1, \"parameter_value\": 8}]}, {\"id\": 1, "
                       "\"parameter_value_pairs\": [{\"parameter_id\": 1, \"parameter_value\": \"4\"}]}],"
                       "\"measurements\": [{\"coordinate_id\": 1, \"callpath_id\": 1, \"metric_id\": 1, \"value\": 2},"
                       "{\"coordinate_id\": \"2\", \"callpath_id\": 1, \"metric_id\": 1, \"value\": 3}]}";
  ASSERT_INT_EQ(parse(&x, legacy, &err), 0);
  ASSERT_DOUBLE_NEAR(x.points[0], 4, 0);
  ASSERT_DOUBLE_NEAR(find(&x, "c", "m")->values[0][0], 2, 0);
  mv_extrap_release(&x);
  /* JSON Lines: defaults <root> and <default>, values as numbers or lists. */
  ASSERT_INT_EQ(parse(&x, "{\"params\": {\"x\": 1}, \"value\": 2}\n\n{\"params\": {\"x\": 2}, \"value\": [3, 4]}\n",
                      &err), 0);
  ASSERT_INT_EQ(find(&x, "<root>", "<default>")->nvalues[1], 2);
  mv_extrap_release(&x);
  ASSERT_INT_EQ(parse(&x, "{\"params\": {\"x\": 1}, \"value\": 2}\n{\"params\": {\"y\": 1}, \"value\": 2}\n",
                      &err), MV_EPARSE);
  ASSERT_STR_EQ(mv_test_errtext(&err), "t: line 2: expected a number for parameter \"x\"");
  mv_extrap_release(&x);
  ASSERT_INT_EQ(parse(&x, "{\"parameters\": [\"x\"],\n \"measurements\": {\"a\": tru}}", &err), MV_EPARSE);
  ASSERT_STR_EQ(mv_test_errtext(&err), "t:2:24: expected a number");
  mv_extrap_release(&x);
}

/* Reads every file of a corpus folder (recursively); returns how many parsed. */
static int read_dir(const char *dir, const char *suffix, int *files)
{
  DIR *d = opendir(dir);
  int ok = 0;
  struct dirent *e;
  if (!d)
    return 0;
  while ((e = readdir(d))) {
    char path[1024];
    struct mv_error err;
    if (e->d_name[0] == '.')
      continue;
    snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
    size_t n = strlen(e->d_name), s = strlen(suffix);
    if (e->d_type == DT_DIR) {
      ok += read_dir(path, suffix, files);
      continue;
    }
    if (n < s || strcasecmp(e->d_name + n - s, suffix) != 0)
      continue;
    struct mv_extrap x;
    mv_extrap_init(&x);
    ++*files;
    if (mv_extrap_read(&x, path, &err) == 0)
      ok++;
    else
      fprintf(stderr, "  not read: %s\n", mv_test_errtext(&err));
    mv_extrap_release(&x);
  }
  closedir(d);
  return ok;
}

static void test_corpus(void)
{
  int files = 0;
  /* Extra-P's tests/data/text: 56 files, all valid. */
  ASSERT_INT_EQ(read_dir(DATA "text", ".txt", &files), 56);
  ASSERT_INT_EQ(files, 56);
  files = 0;
  /* tests/data/json: 14 files, of which input_11.JSON is invalid (test_load_json_file.py). */
  ASSERT_INT_EQ(read_dir(DATA "json", ".json", &files), 13);
  ASSERT_INT_EQ(files, 14);
  files = 0;
  ASSERT_INT_EQ(read_dir(DATA "jsonlines", ".jsonl", &files), 15);
  ASSERT_INT_EQ(read_dir(DATA "input", ".jsonl", &files), 6);
  ASSERT_INT_EQ(files, 21);
}

static int reads(const char *path)
{
  struct mv_extrap x;
  struct mv_error err;
  mv_extrap_init(&x);
  int rc = mv_extrap_read(&x, path, &err);
  mv_extrap_release(&x);
  return rc;
}

static void test_corpus_values(void)
{
  struct mv_extrap x;
  struct mv_error err;
  mv_extrap_init(&x);
  ASSERT_INT_EQ(mv_extrap_read(&x, DATA "text/one_parameter_1.txt", &err), 0);
  const struct mv_extrap_kernel *k = find(&x, "compute", "time");
  ASSERT_TRUE(k != NULL);
  ASSERT_DOUBLE_NEAR(x.points[0], 20, 0);
  ASSERT_DOUBLE_NEAR(mean_at(k, 0), 81.9, 0.05);    /* Extra-P prints Mean: 8.19E+01 */
  ASSERT_DOUBLE_NEAR(mean_at(k, 1), 179.0, 0.5);    /* Mean: 1.79E+02 */
  mv_extrap_release(&x);
  /* The negative cases of Extra-P's test_load_text_file.py fail, the positive ones read. */
  ASSERT_TRUE(reads(DATA "input/experiments_SP/experiment_neg.txt") < 0);
  ASSERT_TRUE(reads(DATA "input/experiments_SP/experiment3_neg.txt") < 0);
  ASSERT_INT_EQ(reads(DATA "input/experiments_SP/experiment2.txt"), 0);
  ASSERT_INT_EQ(reads(DATA "input/experiments_SP/experiment4.txt"), 0);
  ASSERT_INT_EQ(reads(DATA "input/experiments_MP/experiment_MP.txt"), 0);
  ASSERT_TRUE(reads(DATA "input/experiments_MP/experiment_MP_neg1.txt") < 0);
  ASSERT_TRUE(reads(DATA "input/experiments_MP/experiment_MP_neg2.txt") < 0);
  ASSERT_INT_EQ(reads(DATA "input/input_data_3p.txt"), 0);
}

int main(void)
{
  RUN_TEST(test_text_variants);
  RUN_TEST(test_json_layouts);
  RUN_TEST(test_corpus);
  RUN_TEST(test_corpus_values);
  return TEST_EXIT();
}
