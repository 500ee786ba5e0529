/* The paper's Table 4 (scalability-validation.txt, section 3.2.2) re-derived end to end:
 * measurements are generated from each generated model of the table (20 + 3*G(p) at
 * p = 2^4..2^13, 5 repetitions with +-2% uniform noise), fitted with the default modeler, and
 * checked against Table 1's expectations with the case study's deviation sqrt(p) (section
 * 3.1.3). Every match verdict and divergence must equal the table's; the rules Allreduce <=
 * Reduce + Bcast and Allgather <= Gather + Bcast are evaluated on leading-order terms. */
#include <stdint.h>

#include "test.h"
#include "mpivet/expect.h"

#define NFN 8
#define NPT 10

static const char *const fn_names[NFN] = {"Barrier", "Bcast", "Reduce", "Allreduce",
                                          "Gather", "Allgather", "Alltoall", "Bcast_BT"};
static const char *const expectations[NFN] = {"O(log p)", "O(log p)", "O(log p)", "O(log p)",
                                              "O(p)", "O(p)", "O(p log p)", "O(log p)"};

struct cell { const char *model, *div; int match; };
#define E MV_MATCH_EXACT
#define A MV_MATCH_APPROX
#define N MV_MATCH_NONE
static const struct { const char *machine; struct cell c[NFN]; } table4[] = {
  {"Juqueen", {{"log p", "O(1)", E}, {"log p", "O(1)", E}, {"log p", "O(1)", E},
               {"log p", "O(1)", E}, {"p", "O(1)", E}, {"p", "O(1)", E},
               {"p", "O(1/log p)", A}, {"log p", "O(1)", E}}},
  {"Juropa", {{"p^(2/3) log p", "O(p^(2/3))", N}, {"p^(1/2)", "O(p^(1/2)/log p)", A},
              {"p^(1/2) log p", "O(p^(1/2))", A}, {"p^(1/2)", "O(p^(1/2)/log p)", A},
              {"p", "O(1)", E}, {"p", "O(1)", E}, {"p^(5/4)", "O(p^(1/4)/log p)", A},
              {"p^(5/4) log p", "O(p^(5/4))", N}}},
  {"Piz Daint", {{"p^(1/3)", "O(p^(1/3)/log p)", A}, {"p^(1/2)", "O(p^(1/2)/log p)", A},
                 {"p^(1/2) log p", "O(p^(1/2))", A}, {"p^(2/3) log p", "O(p^(2/3))", N},
                 {"p", "O(1)", E}, {"p^(5/4)", "O(p^(1/4))", A},
                 {"p^(4/3)", "O(p^(1/3)/log p)", A}, {"p log p", "O(p)", N}}},
};

static double noise(uint64_t *s)
{
  *s ^= *s >> 12;
  *s ^= *s << 25;
  *s ^= *s >> 27;
  return (double)((*s * 2685821657736338717ULL) >> 11) / 9007199254740992.0 * 2 - 1;
}

static struct mv_function parse(const char *s)
{
  struct mv_function f;
  if (mv_bigo_parse(s, strlen(s), &f, NULL, NULL, 0))
    MV_FAIL_("cannot parse %s", s);
  return f;
}

static const char *fmt(const struct mv_function *f)
{
  static char buf[4][128];
  static int k;
  k = (k + 1) % 4;
  mv_bigo_format(f, buf[k], sizeof buf[k]);
  return buf[k];
}

/* 20 + scale * 3 * G(p) with noise, fitted. */
static struct mv_model fit_cell(const char *model, double scale, uint64_t *seed)
{
  struct mv_function g = parse(model);
  struct mv_series s;
  const char *names[1] = {"p"};
  mv_series_init(&s, 1, names);
  for (int i = 4; i < 4 + NPT; i++) {
    double p = exp2(i), f = 20 + scale * 3 * mv_term_eval(&g.terms[0], &p);
    for (int r = 0; r < 5; r++)
      mv_series_add(&s, &p, f * (1 + 0.02 * noise(seed)));
  }
  struct mv_model m;
  ASSERT_INT_EQ(mv_model_fit_series(&s, NULL, &m), 0);
  mv_series_release(&s);
  return m;
}

static void test_table4(void)
{
  uint64_t seed = 4;
  for (size_t row = 0; row < sizeof table4 / sizeof table4[0]; row++) {
    struct mv_model models[NFN];
    for (int f = 0; f < NFN; f++) {
      const struct cell *c = &table4[row].c[f];
      /* Piz Daint's Allreduce is cheap where measured (the paper: "the actual measurements do
       * not violate the guideline"), so its coefficient is small. */
      double scale = strcmp(table4[row].machine, "Piz Daint") == 0 && f == 3 ? 0.1 : 1;
      models[f] = fit_cell(c->model, scale, &seed);
      struct mv_expectation e;
      memset(&e, 0, sizeof e);
      e.expect = parse(expectations[f]);
      e.deviation = parse("O(p^(1/2))");
      struct mv_verdict v;
      ASSERT_INT_EQ(mv_expect_evaluate(&e, &models[f].fn, &v), 0);
      struct mv_function want = parse(c->model);
      if (strcmp(fmt(&v.lead), fmt(&want)) || strcmp(fmt(&v.divergence), c->div) ||
          (int)v.match != c->match)
        MV_FAIL_("%s %s: model %s div %s match %s, want %s %s %s", table4[row].machine,
                 fn_names[f], fmt(&v.lead), fmt(&v.divergence), mv_match_name(v.match),
                 fmt(&want), c->div, mv_match_name((enum mv_match)c->match));
    }
    /* Rules on leading-order terms, checked at the measured p. */
    double xs[NPT];
    for (int i = 0; i < NPT; i++)
      xs[i] = exp2(i + 4);
    const struct mv_function *rhs1[2] = {&models[2].fn, &models[1].fn};
    const struct mv_function *rhs2[2] = {&models[4].fn, &models[1].fn};
    struct mv_rule_verdict allreduce, allgather;
    mv_rule_evaluate(&models[3].fn, rhs1, 2, xs, NPT, &allreduce);
    mv_rule_evaluate(&models[5].fn, rhs2, 2, xs, NPT, &allgather);
    if (strcmp(table4[row].machine, "Piz Daint") == 0) {
      /* The table's warning sign: holds where measured, predicted to break. */
      ASSERT_INT_EQ(allreduce.status, MV_RULE_BREAKS_LATER);
      ASSERT_TRUE(allreduce.crossover > 8192 && allreduce.crossover < 0x1p40);
      /* p^(5/4) against p + p^(1/2): by the paper's own rule this breaks as well (Table 4 as
       * printed marks only Allreduce); here it is already violated at the measured scale. */
      ASSERT_TRUE(mv_rule_failed(allgather.status));
    } else {
      ASSERT_TRUE(!mv_rule_failed(allreduce.status));
      ASSERT_TRUE(!mv_rule_failed(allgather.status));
    }
  }
}

int main(void)
{
  RUN_TEST(test_table4);
  return TEST_EXIT();
}
