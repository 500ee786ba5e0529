/* Accuracy and speed of the PMNF modeler on synthetic kernels, after Extra-P's own tests:
 * noise-free recovery of its 42 default terms (200 + 10*t(p), p = 2..32), and noisy recovery
 * (42 terms x SETS coefficient sets c0, c1 ~ U[1, 1000), 5 repetitions with uniform +-J
 * relative noise, then skewed log-normal exp(N(0, J)) noise, p = 4..64 and p = 2..512) for
 * the robust rule and Extra-P's SMAPE rule, with the CPU time per kernel. `--default-only` keeps the default method's rows (for runs over
 * other seeds); `--csv FILE` instead writes 1000 noisy kernels as results.csv for the
 * end-to-end timing of `mpivet model`.
 * Usage: model-accuracy [SETS [SEED [--default-only]]] | --csv FILE. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "mpivet/model.h"

#include "extrap-terms.h"

#define NTERMS MV_EXTRAP_NTERMS
#define REPS 5

static const double noise_levels[] = {0.01, 0.05, 0.10, 0.20};
#define NNOISE 4

struct method { const char *name; enum mv_select select; enum mv_measure measure; };
static const struct method methods[] = {
  {"robust, median (default)", MV_SELECT_ROBUST, MV_MEASURE_MEDIAN},
  {"robust, mean", MV_SELECT_ROBUST, MV_MEASURE_MEAN},
  {"SMAPE on means (Extra-P rule)", MV_SELECT_SMAPE, MV_MEASURE_MEAN},
};
static size_t nmethods = sizeof methods / sizeof methods[0];

static double now(void)
{
  struct timespec ts;   /* CPU time: figures stay meaningful on a loaded machine */
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static double tval(int k, double p)
{
  const int *t = mv_extrap_terms[k];
  return pow(p, (double)t[0] / t[1]) * pow(log2(p), t[2]);
}

/* The fitted model's leading term is the generating term. */
static int recovered(const struct mv_model *m, int k)
{
  if (m->fn.nterms == 0)
    return 0;
  const struct mv_term *lead = &m->fn.terms[m->fn.nterms - 1];
  for (int j = 0; j < m->fn.nterms; j++) {
    const struct mv_factor *a = &m->fn.terms[j].f[0], *b = &lead->f[0];
    if (a->poly > b->poly || (a->poly == b->poly && a->log > b->log))
      lead = &m->fn.terms[j];
  }
  const int *t = mv_extrap_terms[k];
  return fabs(lead->f[0].poly - (double)t[0] / t[1]) < 1e-9 && lead->f[0].log == t[2];
}

static void noise_free(void)
{
  double x[5] = {2, 4, 8, 16, 32}, y[5];
  size_t nv[5] = {1, 1, 1, 1, 1};
  const double *v[5] = {&y[0], &y[1], &y[2], &y[3], &y[4]};
  int ok = 0, runs = 200;
  double t0 = now();
  for (int r = 0; r < runs; r++)
    for (int k = 0; k < NTERMS; k++) {
      for (int i = 0; i < 5; i++)
        y[i] = 200 + 10 * tval(k, x[i]);
      struct mv_model m;
      if (mv_model_fit_1p(x, nv, v, 5, "p", NULL, &m) == 0 && r == 0 && recovered(&m, k) &&
          m.fn.nterms == 1 && fabs(m.fn.constant / 200 - 1) < 1e-6 &&
          fabs(m.fn.terms[0].coef / 10 - 1) < 1e-6)
        ok++;
    }
  double dt = (now() - t0) / (runs * NTERMS);
  printf("noise-free (200 + 10*t(p), p = 2..32): %d/42 terms recovered with c0, c1 to 6 digits; "
         "%.1f us CPU per kernel\n\n", ok, dt * 1e6);
}

struct cell { int ok, total; double seconds; };

/* Relative noise of level j: uniform in [-j, j], or log-normal (skewed: exp(N(0, j)), a long
 * right tail as run times have). */
static int lognormal;

static double noise(gsl_rng *rng, double j)
{
  return lognormal ? exp(gsl_ran_gaussian(rng, j)) : 1 + j * (2 * gsl_rng_uniform(rng) - 1);
}

static void noisy_case(const double *x, size_t n, int k, double c0, double c1, double j,
                       gsl_rng *rng, struct cell *cells)
{
  double vals[16][REPS];
  const double *vp[16];
  size_t nv[16];
  for (size_t i = 0; i < n; i++) {
    double f = c0 + c1 * tval(k, x[i]);
    for (int r = 0; r < REPS; r++)
      vals[i][r] = f * noise(rng, j);
    vp[i] = vals[i];
    nv[i] = REPS;
  }
  for (size_t mth = 0; mth < nmethods; mth++) {
    struct mv_fit_options o;
    mv_fit_options_init(&o);
    o.select = methods[mth].select;
    o.measure = methods[mth].measure;
    struct mv_model m;
    double t0 = now();
    int rc = mv_model_fit_1p(x, nv, vp, n, "p", &o, &m);
    cells[mth].seconds += now() - t0;
    cells[mth].ok += rc == 0 && recovered(&m, k);
    cells[mth].total++;
  }
}

static void noisy(int sets, unsigned long seed)
{
  static const double p5[] = {4, 8, 16, 32, 64};
  static const double p9[] = {2, 4, 8, 16, 32, 64, 128, 256, 512};
  static const struct { const double *x; size_t n; const char *label; const char *extrap; }
  layouts[] = {{p5, 5, "5 points p = 4..64", "95 / 60 / 37 / 28"},
               {p9, 9, "9 points p = 2..512", "96 / 82 / 63 / 42"}};
  gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
  gsl_rng_set(rng, seed);
  for (size_t l = 0; l < 2; l++) {
    struct cell cells[NNOISE][sizeof methods / sizeof methods[0]];
    memset(cells, 0, sizeof cells);
    for (int nl = 0; nl < NNOISE; nl++)
      for (int k = 0; k < NTERMS; k++)
        for (int s = 0; s < sets; s++) {
          double c0 = 1 + 999 * gsl_rng_uniform(rng), c1 = 1 + 999 * gsl_rng_uniform(rng);
          noisy_case(layouts[l].x, layouts[l].n, k, c0, c1, noise_levels[nl], rng, cells[nl]);
        }
    printf("noisy (%s), %s, %d terms x %d coefficient sets, %d repetitions: exact-term "
           "recovery\n", lognormal ? "log-normal, sigma = J" : "uniform +-J", layouts[l].label,
           NTERMS, sets, REPS);
    printf("  %-32s  +-1%%   +-5%%  +-10%%  +-20%%   CPU us/kernel\n", "method");
    for (size_t mth = 0; mth < nmethods; mth++) {
      double secs = 0;
      int total = 0;
      printf("  %-32s", methods[mth].name);
      for (int nl = 0; nl < NNOISE; nl++) {
        printf(" %5.1f%%", 100.0 * cells[nl][mth].ok / cells[nl][mth].total);
        secs += cells[nl][mth].seconds;
        total += cells[nl][mth].total;
      }
      printf("   %8.1f\n", 1e6 * secs / total);
    }
    if (!lognormal)
      printf("  %-32s %s  (published, for reference)\n", "Extra-P 4.2.5", layouts[l].extrap);
    putchar('\n');
  }
  gsl_rng_free(rng);
}

/* 1000 kernels x 5 process counts x 5 repetitions, +-5% noise, as results.csv. */
static int write_csv(const char *path)
{
  FILE *fp = fopen(path, "w");
  if (!fp)
    return 1;
  gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
  gsl_rng_set(rng, 7);
  fprintf(fp, "run,engine,library,nprocs,ppn,op,impl,msize,metric,rep,value,valid\n");
  for (int kernel = 0; kernel < 1000; kernel++) {
    int k = kernel % NTERMS;
    double c0 = 1 + 999 * gsl_rng_uniform(rng), c1 = 1 + 999 * gsl_rng_uniform(rng);
    for (int p = 4; p <= 64; p *= 2)
      for (int r = 0; r < REPS; r++)
        fprintf(fp, "0,smpi,SMPI 3.32,%d,1,K%04d,default,8,time_s,%d,%.9g,1\n", p, kernel, r,
                (c0 + c1 * tval(k, p)) * (1 + 0.05 * (2 * gsl_rng_uniform(rng) - 1)));
  }
  gsl_rng_free(rng);
  return fclose(fp) != 0;
}

int main(int argc, char **argv)
{
  if (argc == 3 && strcmp(argv[1], "--csv") == 0)
    return write_csv(argv[2]);
  int sets = argc > 1 ? atoi(argv[1]) : 3;
  unsigned long seed = argc > 2 ? strtoul(argv[2], NULL, 10) : 1;
  if (argc > 3 && strcmp(argv[3], "--default-only") == 0)
    nmethods = 1;
  if (sets < 1 || argc > 4 || (argc == 4 && nmethods != 1)) {
    fprintf(stderr, "usage: model-accuracy [SETS [SEED [--default-only]]] | --csv FILE\n");
    return 2;
  }
  printf("mpivet model accuracy (seed %lu)\n\n", seed);
  noise_free();
  noisy(sets, seed);
  lognormal = 1;   /* after the uniform cases, whose random streams stay as they were */
  noisy(sets, seed);
  return 0;
}
