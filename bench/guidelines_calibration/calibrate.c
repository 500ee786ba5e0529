/* Statistical calibration of `mpivet guidelines`: simulated launches with realistic noise
 * (launch-to-launch factor, log-normal repetition noise, rare heavy outliers) go through the
 * library's whole path (dataset, launch medians, test, correction). It prints the false
 * violation rate when default and mock-up share one distribution, and the detection rate of
 * a planted slowdown. Usage: calibrate [CASES] [SEED]. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "mpivet/dataset.h"
#include "mpivet/guidelines.h"

struct noise {
  double launch_sd;   /* sd of log launch factor (mpirun-to-mpirun variation) */
  double rep_sd;      /* sd of log repetition noise */
  double outlier_p;   /* probability of an outlier repetition */
};

struct scenario {
  int launches, reps;
  double slowdown;    /* default / mock-up true location ratio */
  struct noise noise;
  int sizes;          /* message sizes (tests) per case: the multiple-testing family */
};

static const struct { enum mv_gl_per per; enum mv_gl_test test; } methods[] = {
  {MV_GL_PER_LAUNCH, MV_GL_TEST_RANKSUM}, {MV_GL_PER_LAUNCH, MV_GL_TEST_KS},
  {MV_GL_PER_RAW, MV_GL_TEST_RANKSUM}, {MV_GL_PER_RAW, MV_GL_TEST_KS}};
#define NMETHODS (sizeof methods / sizeof methods[0])

static const char catalog_text[] =
  "GL12 pattern MPI_Allreduce allreduce_as_reduce_bcast MPI_Reduce+MPI_Bcast\n";

static void add_group(struct mv_dataset *ds, const char *impl, long msize, double base,
                      const struct scenario *sc, gsl_rng *rng)
{
  struct mv_row row;
  mv_row_init(&row);
  strcpy(row.library, "sim");
  strcpy(row.engine, "sim");
  strcpy(row.op, "MPI_Allreduce");
  snprintf(row.impl, sizeof row.impl, "%s", impl);
  row.nprocs = 16;
  row.msize = msize;
  for (int r = 0; r < sc->launches; r++) {
    double launch = exp(gsl_ran_gaussian(rng, sc->noise.launch_sd));
    for (int k = 0; k < sc->reps; k++) {
      double v = base * launch * exp(gsl_ran_gaussian(rng, sc->noise.rep_sd));
      if (gsl_rng_uniform(rng) < sc->noise.outlier_p)
        v *= 1 + gsl_ran_exponential(rng, 1.0);   /* OS noise: up to several times slower */
      row.run = r;
      row.rep = k;
      row.value = v;
      mv_dataset_add(ds, &row);
    }
  }
}

/* Fraction of cases with at least one violation, per method and correction. */
static void run_scenario(const struct scenario *sc, int cases, const struct mv_catalog *cat,
                         enum mv_correction corr, gsl_rng *rng, double rate[NMETHODS])
{
  long hits[NMETHODS] = {0};
  for (int c = 0; c < cases; c++) {
    struct mv_dataset ds;
    mv_dataset_init(&ds);
    for (int s = 0; s < sc->sizes; s++) {
      double base = 1e-5 * (1 + s);
      add_group(&ds, "default", 8L << s % 20, base * sc->slowdown, sc, rng);
      add_group(&ds, "allreduce_as_reduce_bcast", 8L << s % 20, base, sc, rng);
    }
    for (size_t m = 0; m < NMETHODS; m++) {
      struct mv_gl_options opt;
      struct mv_gl_report rep;
      mv_gl_options_init(&opt);
      opt.per = methods[m].per;
      opt.test = methods[m].test;
      opt.correction = corr;
      mv_gl_report_init(&rep);
      if (mv_gl_evaluate(cat, &ds, &opt, &rep) == 0 && rep.nviolations > 0)
        hits[m]++;
      mv_gl_report_release(&rep);
    }
    mv_dataset_release(&ds);
  }
  for (size_t m = 0; m < NMETHODS; m++)
    rate[m] = (double)hits[m] / cases;
}

static void print_row(const char *label, const double rate[NMETHODS])
{
  printf("%-44s", label);
  for (size_t m = 0; m < NMETHODS; m++)
    printf(" %9.4f", rate[m]);
  printf("\n");
}

static void print_header(const char *title)
{
  printf("\n%s\n%-44s %9s %9s %9s %9s\n", title, "scenario", "launch/rs", "launch/ks",
         "raw/rs", "raw/ks");
}

int main(int argc, char **argv)
{
  int cases = argc > 1 ? atoi(argv[1]) : 10000;
  unsigned long seed = argc > 2 ? strtoul(argv[2], NULL, 10) : 20240601UL;
  struct mv_catalog cat;
  mv_catalog_init(&cat);
  if (cases <= 0 || mv_catalog_parse(&cat, catalog_text, strlen(catalog_text), "calib") != 0) {
    fprintf(stderr, "usage: calibrate [CASES > 0] [SEED]\n");
    return 2;
  }
  gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
  gsl_rng_set(rng, seed);
  clock_t t0 = clock();
  printf("mpivet guidelines calibration: %d cases per scenario, seed %lu, alpha 0.05\n"
         "noise: value = base * exp(N(0, launch_sd)) per launch * exp(N(0, rep_sd)) per "
         "repetition, and with probability 2%% an outlier * (1 + Exp(1))\n"
         "columns: per launch medians (default) or raw repetitions; rank-sum (rs) or KS\n",
         cases, seed);
  double rate[NMETHODS];
  char label[128];
  static const double launch_sd[] = {0.01, 0.03, 0.05, 0.10};

  print_header("1. false violation rate, default and mock-up from the same distribution "
               "(one test per case; must be <= 0.05)");
  for (size_t i = 0; i < sizeof launch_sd / sizeof launch_sd[0]; i++) {
    struct scenario sc = {10, 50, 1.0, {launch_sd[i], 0.05, 0.02}, 1};
    run_scenario(&sc, cases, &cat, MV_CORR_NONE, rng, rate);
    snprintf(label, sizeof label, "R=10 reps=50 launch_sd=%.2f rep_sd=0.05", launch_sd[i]);
    print_row(label, rate);
  }

  print_header("2. detection rate of a planted 10% slowdown of the default call (one test)");
  for (size_t i = 0; i < sizeof launch_sd / sizeof launch_sd[0]; i++) {
    struct scenario sc = {10, 50, 1.10, {launch_sd[i], 0.05, 0.02}, 1};
    run_scenario(&sc, cases, &cat, MV_CORR_NONE, rng, rate);
    snprintf(label, sizeof label, "R=10 reps=50 launch_sd=%.2f rep_sd=0.05", launch_sd[i]);
    print_row(label, rate);
  }
  static const int launches[] = {5, 30};
  for (size_t i = 0; i < 2; i++) {
    struct scenario sc = {launches[i], 50, 1.10, {0.05, 0.05, 0.02}, 1};
    run_scenario(&sc, cases, &cat, MV_CORR_NONE, rng, rate);
    snprintf(label, sizeof label, "R=%d reps=50 launch_sd=0.05 rep_sd=0.05", launches[i]);
    print_row(label, rate);
  }

  int suites = cases / 20 > 0 ? cases / 20 : 1;
  printf("\n(%d suites of 20 message sizes each below)", suites);
  print_header("3. family-wise: suites of 20 tests from one distribution with >= 1 false "
               "violation");
  static const enum mv_correction corr[] = {MV_CORR_NONE, MV_CORR_HOLM, MV_CORR_BH};
  for (size_t i = 0; i < 3; i++) {
    struct scenario sc = {10, 20, 1.0, {0.03, 0.05, 0.02}, 20};
    run_scenario(&sc, suites, &cat, corr[i], rng, rate);
    snprintf(label, sizeof label, "R=10 reps=20 launch_sd=0.03, correction %s",
             mv_gl_correction_name(corr[i]));
    print_row(label, rate);
  }
  printf("\ncpu time: %.1f s\n", (double)(clock() - t0) / CLOCKS_PER_SEC);
  gsl_rng_free(rng);
  mv_catalog_release(&cat);
  return 0;
}
