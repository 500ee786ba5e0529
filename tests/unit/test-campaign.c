/* Campaign plans and state: list parsing, the seeded generator (splitmix64 reference vectors
 * from Vigna's splitmix64.c, seed 1234567), shuffling as a permutation that depends only on the
 * seed, budget trimming, and resume after an interrupted launch and a torn journal/results. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mpivet/campaign.h"
#include "mpivet/error.h"
#include "test.h"

static void test_parse(void)
{
  struct mv_plan p;
  mv_plan_init(&p);
  ASSERT_INT_EQ(mv_plan_parse_nprocs(&p, "16:1024"), 0);
  ASSERT_INT_EQ(p.n_nprocs, 7);
  ASSERT_INT_EQ(p.nprocs[0], 16);
  ASSERT_INT_EQ(p.nprocs[6], 1024);
  ASSERT_INT_EQ(mv_plan_parse_nprocs(&p, "8,2,4,4"), 0);
  ASSERT_INT_EQ(p.n_nprocs, 3);
  ASSERT_INT_EQ(p.nprocs[0], 2);
  ASSERT_INT_EQ(p.nprocs[2], 8);
  ASSERT_INT_EQ(mv_plan_parse_nprocs(&p, "3:20"), 0);   /* powers of two inside [3, 20] */
  ASSERT_INT_EQ(p.n_nprocs, 3);
  ASSERT_INT_EQ(p.nprocs[0], 4);
  ASSERT_TRUE(mv_plan_parse_nprocs(&p, "8:2") < 0);
  ASSERT_TRUE(mv_plan_parse_nprocs(&p, "0") < 0);
  ASSERT_TRUE(mv_plan_parse_nprocs(&p, "4x") < 0);
  ASSERT_INT_EQ(mv_plan_parse_ops(&p, "MPI_Bcast,MPI_Reduce"), 0);
  ASSERT_INT_EQ(p.n_ops, 2);
  ASSERT_STR_EQ(p.ops[1], "MPI_Reduce");
  ASSERT_INT_EQ(mv_plan_parse_msizes(&p, "8,800"), 0);
  ASSERT_INT_EQ(p.msizes[1], 800);
  ASSERT_TRUE(mv_plan_parse_msizes(&p, "-1") < 0);
  mv_plan_release(&p);
}

static void test_rand(void)
{
  uint64_t s = 1234567;
  ASSERT_TRUE(mv_rand_next(&s) == 6457827717110365317ULL);
  ASSERT_TRUE(mv_rand_next(&s) == 3203168211198807973ULL);
  ASSERT_TRUE(mv_rand_next(&s) == 9817491932198370423ULL);
  for (int i = 0; i < 1000; i++) {
    ASSERT_TRUE(mv_rand_below(&s, 7) < 7);
    double u = mv_rand_uniform(&s);
    ASSERT_TRUE(u >= 0 && u < 1);
  }
}

static void make_plan(struct mv_plan *p, uint64_t seed)
{
  mv_plan_init(p);
  mv_plan_parse_nprocs(p, "2:16");
  mv_plan_parse_ops(p, "MPI_Bcast,MPI_Alltoall");
  mv_plan_parse_msizes(p, "800");
  p->runs = 3;
  p->reps = 4;
  p->seed = seed;
  ASSERT_INT_EQ(mv_plan_build(p), 0);
}

static void test_shuffle(void)
{
  struct mv_plan a, b, c;
  make_plan(&a, 42);
  make_plan(&b, 42);
  make_plan(&c, 43);
  ASSERT_INT_EQ(a.n_items, 12);
  int seen[12] = {0}, same = 1, differs = 0, sorted = 1;
  for (size_t i = 0; i < a.n_items; i++) {
    seen[a.items[i].index]++;
    same &= a.items[i].index == b.items[i].index;
    differs |= a.items[i].index != c.items[i].index;
    sorted &= a.items[i].index == (int)i;
    /* canonical index = nprocs-major, then run */
    ASSERT_INT_EQ(a.items[i].nprocs, 2 << (a.items[i].index / 3));
    ASSERT_INT_EQ(a.items[i].run, a.items[i].index % 3);
  }
  for (int i = 0; i < 12; i++)
    ASSERT_INT_EQ(seen[i], 1);
  ASSERT_TRUE(same);
  ASSERT_TRUE(differs);
  ASSERT_TRUE(!sorted);
  mv_plan_release(&a);
  mv_plan_release(&b);
  mv_plan_release(&c);
}

static void test_budget(void)
{
  struct mv_plan p;
  make_plan(&p, 1);
  p.runs = 10;
  p.reps = 100;
  mv_plan_build(&p);
  double full = mv_plan_cost(&p, "smpi", NULL);
  ASSERT_TRUE(full > mv_plan_launch_cost(&p, "smpi", 16));
  /* more ranks never cost less; Alltoall makes 16 ranks dearer than 2 */
  ASSERT_TRUE(mv_plan_launch_cost(&p, "smpi", 16) > mv_plan_launch_cost(&p, "smpi", 2));
  char note[256];
  ASSERT_INT_EQ(mv_plan_fit_budget(&p, "smpi", full / 4, note, sizeof note), 0);
  ASSERT_TRUE(mv_plan_cost(&p, "smpi", NULL) <= full / 4);
  ASSERT_TRUE(strstr(note, "trimmed") != NULL);
  ASSERT_INT_EQ(mv_plan_fit_budget(&p, "smpi", 1e-6, note, sizeof note), MV_ERANGE);
  mv_plan_release(&p);
}

static int has_arg(const char **args, size_t n, const char *want)
{
  for (size_t i = 0; i < n; i++)
    if (strcmp(args[i], want) == 0)
      return 1;
  return 0;
}

/* SMPI options: always no privatization and blocking sends; the named algorithms only below
 * MPICH's short-message thresholds (Bcast 12288 B, Reduce/Allreduce 2048 B) on one rank/host. */
static void test_smpi_args(void)
{
  struct mv_plan p;
  const char *a[16];
  mv_plan_init(&p);
  ASSERT_INT_EQ(mv_plan_parse_msizes(&p, "8,800"), 0);
  size_t n = mv_campaign_smpi_args(p.msizes, p.n_msizes, 0, a, 16);
  ASSERT_INT_EQ(n, 6);
  ASSERT_TRUE(a[n] == NULL);
  ASSERT_TRUE(has_arg(a, n, "--cfg=smpi/privatization:no"));
  ASSERT_TRUE(has_arg(a, n, "--cfg=smpi/send-is-detached-thresh:0"));
  ASSERT_TRUE(has_arg(a, n, "--cfg=smpi/bcast:binomial_tree"));
  ASSERT_TRUE(has_arg(a, n, "--cfg=smpi/allreduce:rdb"));
  ASSERT_INT_EQ(mv_plan_parse_msizes(&p, "800,4096"), 0);
  n = mv_campaign_smpi_args(p.msizes, p.n_msizes, 1, a, 16);
  ASSERT_TRUE(has_arg(a, n, "--cfg=smpi/bcast:binomial_tree"));
  ASSERT_TRUE(!has_arg(a, n, "--cfg=smpi/reduce:binomial"));
  ASSERT_TRUE(!has_arg(a, n, "--cfg=smpi/allreduce:rdb"));
  ASSERT_INT_EQ(mv_campaign_smpi_args(p.msizes, p.n_msizes, 4, a, 16), 2);  /* SMP: selector */
  ASSERT_INT_EQ(mv_campaign_smpi_args(p.msizes, p.n_msizes, 0, a, 1), 1);  /* bounded by cap */
  mv_plan_release(&p);
}

/* The cost model per MPI: "mpirun/mpich" has its own entry, an unknown MPI falls back to the
 * engine, MPICH never costs less than Open MPI (it polls when oversubscribed). */
static void test_cost_engines(void)
{
  struct mv_plan p;
  make_plan(&p, 1);
  double ompi = mv_plan_launch_cost(&p, "mpirun", 1024);   /* oversubscribed up to 512 cores */
  ASSERT_DOUBLE_REL(mv_plan_launch_cost(&p, "mpirun/openmpi", 1024), ompi, 1e-12);
  ASSERT_DOUBLE_REL(mv_plan_launch_cost(&p, "mpirun/other", 1024), ompi, 1e-12);
  ASSERT_TRUE(mv_plan_launch_cost(&p, "mpirun/mpich", 1024) >= ompi);
  ASSERT_TRUE(mv_plan_launch_cost(&p, "smpi", 1024) > 2 * mv_plan_launch_cost(&p, "smpi", 512));
  mv_plan_release(&p);
}

/* A deterministic fake engine: values depend only on (nprocs, run, op, rep); it fails once
 * at launch number fail_at to imitate a crash. */
struct fake {
  int calls, fail_at;
};

static int fake_launch(void *ctx, const struct mv_campaign *c, const struct mv_launch_item *it,
                       struct mv_rowbuf *out, struct mv_error *err)
{
  struct fake *f = ctx;
  if (f->calls++ == f->fail_at)
    return mv_error_set(err, MV_EEXTERN, NULL, 0, 0, "simulated crash");
  for (size_t o = 0; o < c->plan.n_ops; o++)
    for (int r = 0; r < c->plan.reps; r++) {
      struct mv_row row;
      mv_row_init(&row);
      snprintf(row.engine, sizeof row.engine, "smpi");
      snprintf(row.library, sizeof row.library, "fake 1.0");
      snprintf(row.op, sizeof row.op, "%s", c->plan.ops[o]);
      row.nprocs = it->nprocs;
      row.run = it->run;   /* the launch sets run (mv_launch_fn); the campaign keeps it */
      row.msize = 800;
      row.rep = r;
      uint64_t s = (uint64_t)it->nprocs * 1000003u + (uint64_t)it->run * 101u + o * 7u + r;
      row.value = 1e-6 * it->nprocs * (1 + mv_rand_uniform(&s));
      mv_rowbuf_push(out, &row);
    }
  return 0;
}

static char *slurp_sorted(const char *path)
{
  char cmd[512];
  snprintf(cmd, sizeof cmd, "sort '%s'", path);
  FILE *p = popen(cmd, "r");
  static char buf[1 << 16];
  size_t n = p ? fread(buf, 1, sizeof buf - 1, p) : 0;
  buf[n] = '\0';
  if (p)
    pclose(p);
  return strdup(buf);
}

static void run_campaign(const char *dir, int fail_at)
{
  struct mv_campaign c;
  mv_campaign_init(&c);
  make_plan(&c.plan, 7);
  mv_campaign_set(&c, "engine", "smpi");
  ASSERT_INT_EQ(mv_campaign_create(&c, dir), 0);
  struct fake f = {0, fail_at};
  int rc = mv_campaign_run(&c, fake_launch, &f, NULL, NULL);
  ASSERT_INT_EQ(rc, fail_at < 0 ? 0 : MV_EEXTERN);
  if (fail_at >= 0)
    ASSERT_TRUE(strstr(c.error.what, "simulated crash") != NULL);
  ASSERT_INT_EQ(c.n_done, fail_at < 0 ? 12 : fail_at);
  mv_campaign_release(&c);
}

static void append_text(const char *dir, const char *name, const char *text)
{
  char path[512];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  FILE *fp = fopen(path, "a");
  fputs(text, fp);
  fclose(fp);
}

static void test_resume(void)
{
  char clean[] = "/tmp/mv-test-campaign-XXXXXX", cut[] = "/tmp/mv-test-campaign-XXXXXX";
  ASSERT_TRUE(mkdtemp(clean) && mkdtemp(cut));
  run_campaign(clean, -1);
  run_campaign(cut, 5);
  /* rows of a launch that never reached the journal, a torn row and a torn journal line */
  append_text(cut, "results.csv", "0,smpi,fake 1.0,4,1,MPI_Bcast,default,800,time_s,0,1e-06,1\n0,smp");
  append_text(cut, "campaign.journal", "done 3");
  struct mv_campaign c;
  mv_campaign_init(&c);
  ASSERT_INT_EQ(mv_campaign_resume(&c, cut), 0);
  ASSERT_INT_EQ(c.n_done, 5);
  ASSERT_STR_EQ(mv_campaign_get(&c, "engine"), "smpi");
  ASSERT_INT_EQ(c.plan.seed, 7);
  struct fake f = {0, -1};
  ASSERT_INT_EQ(mv_campaign_run(&c, fake_launch, &f, NULL, NULL), 0);
  ASSERT_INT_EQ(f.calls, 7);
  ASSERT_INT_EQ(c.n_done, 12);
  mv_campaign_release(&c);
  char a[600], b[600];
  snprintf(a, sizeof a, "%s/results.csv", clean);
  snprintf(b, sizeof b, "%s/results.csv", cut);
  char *ra = slurp_sorted(a), *rb = slurp_sorted(b);
  ASSERT_TRUE(strlen(ra) > 1000);
  ASSERT_TRUE(strcmp(ra, rb) == 0);
  free(ra);
  free(rb);
  /* a second create on the same folder is refused */
  mv_campaign_init(&c);
  make_plan(&c.plan, 7);
  ASSERT_INT_EQ(mv_campaign_create(&c, clean), MV_EINVAL);
  mv_campaign_release(&c);
  char cmd[256];
  snprintf(cmd, sizeof cmd, "rm -rf '%s' '%s'", clean, cut);
  ASSERT_INT_EQ(system(cmd), 0);
}

int main(void)
{
  RUN_TEST(test_parse);
  RUN_TEST(test_rand);
  RUN_TEST(test_shuffle);
  RUN_TEST(test_budget);
  RUN_TEST(test_smpi_args);
  RUN_TEST(test_cost_engines);
  RUN_TEST(test_resume);
  return TEST_EXIT();
}
