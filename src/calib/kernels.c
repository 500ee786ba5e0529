/* Compute measurements of mpivet-calib: BLAS kernels (dgemm, dtrsm as HPL calls them: column
 * major, no transpose) timed on random shapes when the program is linked with a CBLAS
 * (MV_HAVE_CBLAS), and busy background threads that load the cores while the network is measured
 * (the thesis calibrates under the application's load). */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

#include "calib.h"

#ifdef MV_HAVE_CBLAS
#include <cblas.h>

int calib_kernels_available(void) { return 1; }

static void kernel(struct calib_run *r, const struct calib_job *j)
{
  int m = j->m, n = j->n, k = j->k;
  if (j->op == MV_CALIB_DGEMM)
    cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, m, n, k, -1.0, r->ka, m, r->kb, k, 1.0,
                r->kc, m);
  else
    cblas_dtrsm(CblasColMajor, CblasLeft, CblasLower, CblasNoTrans, CblasUnit, m, n, 1.0, r->ka, m,
                r->kc, m);
}

/* The second of two calls is timed: an application calls its kernels on operands it has just
 * used (HPL's panel and trailing matrix), not on operands that the previous measurement (a
 * 1 GiB message) evicted from the caches; timed cold, dgemm came out 12-27 % slower than HPL
 * sees it. */
double calib_kernel_measure(struct calib_run *r, const struct calib_job *j)
{
  kernel(r, j);
  double t0 = MPI_Wtime();
  kernel(r, j);
  return MPI_Wtime() - t0;
}
#else
int calib_kernels_available(void) { return 0; }

double calib_kernel_measure(struct calib_run *r, const struct calib_job *j)
{
  (void)r;
  (void)j;
  return 0;
}
#endif

struct load {
  pthread_t *threads;
  int n;
  atomic_int stop;
};

static void *busy(void *arg)
{
  struct load *l = arg;
  volatile double x = 1.0;
  while (!atomic_load_explicit(&l->stop, memory_order_relaxed))
    for (int i = 0; i < 100000; i++)
      x = x * 1.0000001 + 1e-9;
  return NULL;
}

void *calib_load_start(int n)
{
  struct load *l = calloc(1, sizeof *l);
  if (!l || n <= 0 || !(l->threads = calloc((size_t)n, sizeof *l->threads))) {
    free(l);
    return NULL;
  }
  atomic_init(&l->stop, 0);
  for (; l->n < n; l->n++)
    if (pthread_create(&l->threads[l->n], NULL, busy, l) != 0)
      break;
  return l;
}

void calib_load_stop(void *load)
{
  struct load *l = load;
  if (!l)
    return;
  atomic_store(&l->stop, 1);
  for (int i = 0; i < l->n; i++)
    pthread_join(l->threads[i], NULL);
  free(l->threads);
  free(l);
}
