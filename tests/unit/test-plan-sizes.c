/* Plans with message-size specs: "800p" (per process) resolved to a total at each launch's
 * nprocs (totals worked out by hand: 800 x 32 = 25600), "op@size" making one launch per size,
 * the per-process settings (one call, largest process count), the plan file round trip that
 * --resume relies on, and the SMPI cost of a per-process launch (cost.c's formula by hand). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mpivet/campaign.h"
#include "mpivet/error.h"
#include "test.h"

static void test_parse_sizes(void)
{
  struct mv_plan p;
  char buf[64];
  mv_plan_init(&p);
  ASSERT_INT_EQ(mv_plan_parse_msizes(&p, "800,800p,0"), 0);
  ASSERT_INT_EQ(p.n_msizes, 3);
  ASSERT_INT_EQ(p.msizes[1], 800);
  ASSERT_INT_EQ(p.msize_pp[1], 1);
  ASSERT_INT_EQ(p.msize_pp[0], 0);
  ASSERT_INT_EQ(mv_plan_format_msizes(&p, buf, sizeof buf), 0);
  ASSERT_STR_EQ(buf, "800,800p,0");
  ASSERT_TRUE(mv_plan_parse_msizes(&p, "0p") < 0);
  ASSERT_TRUE(mv_plan_parse_msizes(&p, "8k") < 0);
  ASSERT_TRUE(mv_plan_parse_ops(&p, "MPI_Bcast@80x") < 0);
  ASSERT_TRUE(mv_plan_parse_ops(&p, "@800") < 0);
  mv_plan_release(&p);
}

static const struct mv_launch_item *find(const struct mv_plan *p, int np, const char *size)
{
  for (size_t i = 0; i < p->n_items; i++) {
    const struct mv_launch_item *it = &p->items[i];
    char buf[32] = "all";
    if (it->msize >= 0) {
      struct mv_msize_spec s = mv_plan_msize(p, (size_t)it->msize);
      mv_msize_spec_format(&s, buf, sizeof buf);
    }
    if (it->nprocs == np && strcmp(buf, size) == 0)
      return it;
  }
  return NULL;
}

/* A plan of process counts, ops and sizes, parsed (each must parse). */
static void plan_of(struct mv_plan *p, const char *np, const char *ops, const char *msizes)
{
  mv_plan_init(p);
  ASSERT_INT_EQ(mv_plan_parse_nprocs(p, np), 0);
  ASSERT_INT_EQ(mv_plan_parse_ops(p, ops), 0);
  ASSERT_INT_EQ(mv_plan_parse_msizes(p, msizes), 0);
}

/* Default-suite shape: ops restricted to 800 or 800p make one launch per size. */
static void make_split(struct mv_plan *p)
{
  plan_of(p, "16,32", "MPI_Bcast@800,MPI_Gather@800p,MPI_Gather@800,MPI_Alltoall@800p", "800");
  p->reps = 3;
  p->pp_single = 1;
  p->seed = 5;
  ASSERT_INT_EQ(mv_plan_build(p), 0);
}

static void test_split_launches(void)
{
  struct mv_plan p;
  struct mv_launch_jobs j;
  make_split(&p);
  ASSERT_INT_EQ(p.n_msizes, 2);          /* 800p joined from the ops */
  ASSERT_INT_EQ(p.n_items, 4);           /* 2 process counts x 2 sizes */
  const struct mv_launch_item *pp = find(&p, 32, "800p"), *tot = find(&p, 32, "800");
  ASSERT_TRUE(pp && tot);
  ASSERT_INT_EQ(mv_plan_launch_jobs(&p, pp, &j), 0);
  ASSERT_STR_EQ(j.ops, "MPI_Gather,MPI_Alltoall");
  ASSERT_STR_EQ(j.msizes, "25600");
  ASSERT_INT_EQ(j.totals[0], 25600);
  ASSERT_INT_EQ(j.reps, 1);
  ASSERT_INT_EQ(j.warmup, 0);
  ASSERT_STR_EQ(j.name, "np32-run0-800p");
  ASSERT_INT_EQ(j.n_coll_totals, 0);     /* Gather, Alltoall never call Bcast/Reduce/Allreduce */
  ASSERT_INT_EQ(mv_plan_launch_jobs(&p, tot, &j), 0);
  ASSERT_STR_EQ(j.ops, "MPI_Bcast,MPI_Gather");
  ASSERT_STR_EQ(j.msizes, "800");
  ASSERT_INT_EQ(j.reps, 3);
  ASSERT_INT_EQ(j.warmup, -1);
  ASSERT_STR_EQ(j.name, "np32-run0-800");
  ASSERT_INT_EQ(j.n_coll_totals, 1);     /* Bcast does */
  ASSERT_INT_EQ(j.coll_totals[0], 800);
  /* canonical order: nprocs, then run, then size */
  for (size_t i = 0; i < p.n_items; i++)
    ASSERT_INT_EQ(p.items[i].nprocs, p.items[i].index < 2 ? 16 : 32);
  /* per-process sizes only up to np 16 */
  p.pp_np_max = 16;
  ASSERT_INT_EQ(mv_plan_build(&p), 0);
  ASSERT_INT_EQ(p.n_items, 3);
  ASSERT_TRUE(find(&p, 32, "800p") == NULL && find(&p, 16, "800p") != NULL);
  mv_plan_release(&p);
}

/* Plain ops: one launch measures every op at every size, per-process ones resolved. */
static void test_cross_product(void)
{
  struct mv_plan p;
  struct mv_launch_jobs j;
  plan_of(&p, "4", "MPI_Bcast,MPI_Reduce", "8,100");
  p.runs = 2;
  ASSERT_INT_EQ(mv_plan_build(&p), 0);
  ASSERT_INT_EQ(p.n_items, 2);
  ASSERT_INT_EQ(p.items[0].msize, -1);
  ASSERT_INT_EQ(mv_plan_launch_jobs(&p, &p.items[0], &j), 0);
  ASSERT_STR_EQ(j.msizes, "8,100");
  ASSERT_STR_EQ(j.ops, "MPI_Bcast,MPI_Reduce");
  ASSERT_TRUE(strcmp(j.name, "np4-run0") == 0 || strcmp(j.name, "np4-run1") == 0);
  ASSERT_INT_EQ(mv_plan_parse_msizes(&p, "100p"), 0);   /* one per-process size: no split */
  p.pp_single = 1;
  ASSERT_INT_EQ(mv_plan_build(&p), 0);
  ASSERT_INT_EQ(p.n_items, 2);
  ASSERT_INT_EQ(mv_plan_launch_jobs(&p, &p.items[0], &j), 0);
  ASSERT_STR_EQ(j.msizes, "400");
  ASSERT_INT_EQ(j.reps, 1);
  ASSERT_INT_EQ(mv_plan_parse_msizes(&p, "8,100p"), 0);  /* mixed: one launch per size */
  ASSERT_INT_EQ(mv_plan_build(&p), 0);
  ASSERT_INT_EQ(p.n_items, 4);
  mv_plan_release(&p);
}

/* campaign.plan keeps the specs, the ops as typed and the per-process settings. */
static void test_plan_file(void)
{
  char dir[64] = "/tmp/mv-test-plan-XXXXXX", cmd[128];
  ASSERT_TRUE(mkdtemp(dir) != NULL);
  strcat(dir, "/c");
  struct mv_campaign a, b;
  mv_campaign_init(&a);
  mv_campaign_init(&b);
  make_split(&a.plan);
  a.plan.pp_np_max = 16;
  ASSERT_INT_EQ(mv_plan_build(&a.plan), 0);
  ASSERT_INT_EQ(mv_campaign_create(&a, dir), 0);
  ASSERT_INT_EQ(mv_campaign_resume(&b, dir), 0);
  char fa[64], fb[64];
  mv_plan_format_msizes(&a.plan, fa, sizeof fa);
  mv_plan_format_msizes(&b.plan, fb, sizeof fb);
  ASSERT_STR_EQ(fb, fa);
  ASSERT_INT_EQ(b.plan.pp_single, 1);
  ASSERT_INT_EQ(b.plan.pp_np_max, 16);
  ASSERT_STR_EQ(b.plan.ops[1], "MPI_Gather@800p");
  ASSERT_INT_EQ(b.plan.n_items, a.plan.n_items);
  for (size_t i = 0; i < a.plan.n_items; i++) {
    ASSERT_INT_EQ(b.plan.items[i].index, a.plan.items[i].index);
    ASSERT_INT_EQ(b.plan.items[i].msize, a.plan.items[i].msize);
  }
  mv_campaign_release(&a);
  mv_campaign_release(&b);
  dir[strlen(dir) - 2] = '\0';
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
  ASSERT_INT_EQ(system(cmd), 0);
}

/* cost.c by hand for one Gather call at 800 B per process on 1024 simulated ranks:
 * launch 0.05 + ranks 2e-4 x 1024 + 5.5e-6 (1 + 1024/512) x (bench collectives 3 p log2 p + 6 p
 * = 36864, plus the call's p = 1024 messages) + 2e-11 x 819200 B x 1024^2 = 18.059821184 s. */
static void test_cost_per_process(void)
{
  struct mv_plan p;
  plan_of(&p, "512,1024", "MPI_Gather", "800p");
  p.pp_single = 1;
  ASSERT_INT_EQ(mv_plan_build(&p), 0);
  const struct mv_launch_item *it = find(&p, 1024, "all");
  ASSERT_TRUE(it != NULL);
  ASSERT_DOUBLE_REL(mv_plan_item_cost(&p, "smpi", it), 18.059821184, 1e-9);
  ASSERT_DOUBLE_REL(mv_plan_launch_cost(&p, "smpi", 1024), 18.059821184, 1e-9);
  mv_plan_release(&p);
}

/* --budget drops the per-process launches at the largest process count before any process
 * count: a budget just short of the full plan leaves np 1024 at 800 B in total only. */
static void test_budget_per_process(void)
{
  struct mv_plan p;
  char note[256];
  plan_of(&p, "64:1024", "MPI_Bcast@800,MPI_Gather@800p", "800");
  p.pp_single = 1;
  ASSERT_INT_EQ(mv_plan_build(&p), 0);
  double full = mv_plan_cost(&p, "smpi", NULL);
  const struct mv_launch_item *top = find(&p, 1024, "800p");
  ASSERT_TRUE(top != NULL);
  double budget = full - mv_plan_item_cost(&p, "smpi", top) + 1e-6;
  ASSERT_INT_EQ(mv_plan_fit_budget(&p, "smpi", budget, note, sizeof note), 0);
  ASSERT_INT_EQ(p.pp_np_max, 512);
  ASSERT_INT_EQ(p.n_nprocs, 5);
  ASSERT_INT_EQ(p.n_items, 9);
  ASSERT_TRUE(find(&p, 1024, "800") != NULL && find(&p, 1024, "800p") == NULL);
  ASSERT_TRUE(strstr(note, "per-process sizes up to np 512") != NULL);
  mv_plan_release(&p);
}

int main(void)
{
  RUN_TEST(test_parse_sizes);
  RUN_TEST(test_split_launches);
  RUN_TEST(test_cross_product);
  RUN_TEST(test_plan_file);
  RUN_TEST(test_cost_per_process);
  RUN_TEST(test_budget_per_process);
  return TEST_EXIT();
}
