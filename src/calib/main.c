/* mpivet-calib: the calibration MPI program of `mpivet calibrate`. Builds the plan (network
 * operation x message size x repetition, kernel x random shape), shuffles it with a recorded seed,
 * runs every job after a barrier, and writes one CSV row per measurement from rank 0. Exit 0, 2 on
 * bad options, 1 when the output cannot be written or memory is short. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <math.h>

#include "calib.h"

#ifdef MV_SMPI
#include <smpi/smpi.h>
#define BUF_ALLOC(n) SMPI_SHARED_MALLOC(n)   /* simulated transfers need no real payload */
#define BUF_FREE(p) SMPI_SHARED_FREE(p)
#else
#define BUF_ALLOC(n) malloc(n)
#define BUF_FREE(p) free(p)
#endif

#define HOST_LEN 64

static const char *const op_names[MV_CALIB_NOPS] = {
#define XX(id, name, shape, what) name,
  MV_CALIB_OPS(XX)
#undef XX
};

uint64_t calib_random(uint64_t *s)
{
  uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

/* 0, then sizes 2^(i/per_octave) rounded, without duplicates, up to max_size (included). */
static int message_sizes(const struct calib_opts *o, int64_t *sizes)
{
  int n = 0;
  sizes[n++] = 0;
  for (int i = 0; n < CALIB_MAX_SIZES - 1; i++) {
    int64_t s = (int64_t)(pow(2.0, (double)i / o->per_octave) + 0.5);
    if (s > o->max_size)
      break;
    if (s > sizes[n - 1])
      sizes[n++] = s;
  }
  if (sizes[n - 1] < o->max_size)
    sizes[n++] = o->max_size;
  return n;
}

static int log_uniform(uint64_t *s, int max)
{
  double u = (double)(calib_random(s) >> 11) / 9007199254740992.0;
  return (int)(exp(u * log((double)max)) + 0.5);
}

static void add_kernel_jobs(const struct calib_opts *o, enum mv_calib_op op, uint64_t *s,
                            struct calib_job *jobs, int *n)
{
  for (int i = 0; i < o->kernel_samples; i++) {
    struct calib_job *j = &jobs[(*n)++];
    *j = (struct calib_job){.op = op, .m = log_uniform(s, o->kernel_max),
                            .n = log_uniform(s, o->kernel_max), .rep = i};
    j->k = op == MV_CALIB_DTRSM ? j->m : log_uniform(s, o->kernel_max);
  }
}

/* Repetitions of a network job of this size: CHEAP_REPS_FACTOR x --reps up to
 * CHEAP_MAX_BYTES, where a repetition of all five operations (9 transfers) takes ~13 ms at
 * most here. Calls of a few us or less (Isend at every size, Recv, Send, the ping-pong of small
 * messages) vary 30-50 % from one to the next here, and medians of 10 were 5-12 % apart from one
 * size to the next (stop 31: Isend >= 64 KiB 5.4-12.1 % off its calibrated line, which is flat). */
#define CHEAP_MAX_BYTES (8 << 20)
#define CHEAP_REPS_FACTOR 3
/* An Isend job gets ISEND_REPS_FACTOR x the repetitions of the others at every size. Its samples
 * are bimodal job by job (4 calls of 0.08 us, or of 0.2-0.5 us: Open MPI) and the typical value
 * of 30-90 of them moved 8-15 % from one size to the next (stop 33: 3 x; Isend >= 64 KiB 6.1-9.9 %
 * off its flat line in the self-check). Timing one Isend a job instead of 4 above
 * CHEAP_MAX_BYTES, with 4 x the jobs for as many copies, made those sizes 20-50 % dearer
 * than the 4-call means below (the first call after the go is the slow one) and 10-25 % apart
 * from one size to the next (stop 34). The Isends of 8 MiB-1 GiB are the dearest jobs: 2.3 s for
 * 4 copies of each of those 14 sizes. */
#define ISEND_REPS_FACTOR 6
/* Above CHEAP_MAX_BYTES twice that again: with 60 samples those sizes' own noise (half the
 * difference between the typical values of alternate samples) was 3.8-5.9 %, and the self-check's
 * Isend >= 64 KiB missed its 5 % goal in 5 of 8 calibrations at 4.1-8.0 % (stop 34). */
#define ISEND_BIG_REPS_FACTOR (2 * ISEND_REPS_FACTOR)

static int reps_of(const struct calib_opts *o, int op, int64_t bytes)
{
  int cheap = bytes <= CHEAP_MAX_BYTES, n = cheap ? CHEAP_REPS_FACTOR * o->reps : o->reps;
  return op != MV_CALIB_ISEND ? n : cheap ? ISEND_REPS_FACTOR * n : ISEND_BIG_REPS_FACTOR * n;
}

/* Every job of the plan, shuffled (Fisher-Yates with the seed); *n gets the count. */
static struct calib_job *plan(const struct calib_run *r, uint64_t seed, int *n)
{
  const struct calib_opts *o = r->o;
  int64_t sizes[CALIB_MAX_SIZES];
  struct calib_opts wo = *o;   /* the window sizes: the message sizes up to CALIB_WIN_MAX */
  wo.max_size = o->max_size < CALIB_WIN_MAX ? o->max_size : CALIB_WIN_MAX;
  int64_t wsizes[CALIB_MAX_SIZES];
  int ns = message_sizes(o, sizes), nw = message_sizes(&wo, wsizes);
  int cap = 2 * (MV_CALIB_NNET * ns + 3) * CHEAP_REPS_FACTOR * ISEND_REPS_FACTOR * o->reps +
            MV_CALIB_NWIN * nw * o->reps + 2 * o->kernel_samples + 2 * o->reps;
  struct calib_job *jobs = calloc((size_t)cap, sizeof *jobs);
  if (!jobs)
    return NULL;
  *n = 0;
  for (int pair = 0; pair < 2 && o->net; pair++) {
    if (r->peer[pair] < 0)
      continue;
    for (int op = MV_CALIB_PINGPONG; op <= MV_CALIB_WTIME; op++)
      for (int i = 0; i < (op < MV_CALIB_NNET ? ns : 1); i++) {
        int64_t bytes = op < MV_CALIB_NNET ? sizes[i] : 0;
        for (int rep = 0; rep < reps_of(o, op, bytes); rep++)
          jobs[(*n)++] = (struct calib_job){.op = op, .pair = pair, .rep = rep, .bytes = bytes};
      }
  }
  for (int rep = 0; rep < o->reps && o->net; rep++)   /* every rank takes part, rank 0 times */
    for (int op = MV_CALIB_WINALLOC; op <= MV_CALIB_WINCREATEFREE; op++)
      for (int i = 0; i < nw; i++)
        jobs[(*n)++] = (struct calib_job){.op = op, .rep = rep, .bytes = wsizes[i]};
  for (int rep = 0; rep < o->reps; rep++) {  /* every rank, on its own memory and clock */
    jobs[(*n)++] = (struct calib_job){.op = MV_CALIB_TOUCH, .rep = rep};
    jobs[(*n)++] = (struct calib_job){.op = MV_CALIB_CPUCLOCK, .rep = rep};
  }
  uint64_t s = seed;
  if (o->dgemm && calib_kernels_available())
    add_kernel_jobs(o, MV_CALIB_DGEMM, &s, jobs, n);
  if (o->dtrsm && calib_kernels_available())
    add_kernel_jobs(o, MV_CALIB_DTRSM, &s, jobs, n);
  for (int i = *n - 1; i > 0; i--) {
    int k = (int)(calib_random(&s) % (uint64_t)(i + 1));
    struct calib_job t = jobs[i];
    jobs[i] = jobs[k];
    jobs[k] = t;
  }
  return jobs;
}

/* The first rank after 0 on rank 0's host, and the first on another host (-1: none). */
static void find_peers(struct calib_run *r, char (*hosts)[HOST_LEN])
{
  r->peer[0] = r->peer[1] = -1;
  for (int i = 1; i < r->size; i++) {
    int other = strcmp(hosts[i], hosts[0]) != 0;
    if (r->peer[other] < 0)
      r->peer[other] = i;
  }
}

static int allocate(struct calib_run *r)
{
  size_t bytes = (size_t)r->o->max_size, dim = (size_t)r->o->kernel_max;
  r->sendbuf = BUF_ALLOC(bytes);
  r->recvbuf = BUF_ALLOC(bytes);
  if (!r->sendbuf || !r->recvbuf)
    return -1;
#ifndef MV_SMPI
  memset(r->sendbuf, 1, bytes);   /* first touch outside the measurements */
  memset(r->recvbuf, 0, bytes);
#endif
  if (r->o->dgemm || r->o->dtrsm) {
    r->ka = calloc(dim * dim, sizeof(double));
    r->kb = calloc(dim * dim, sizeof(double));
    r->kc = calloc(dim * dim, sizeof(double));
    if (!r->ka || !r->kb || !r->kc)
      return -1;
    for (size_t i = 0; i < dim * dim; i++) {   /* every page touched before any timing */
      r->ka[i] = r->kb[i] = 1.0 / (double)(1 + i % 97);
      r->kc[i] = r->ka[i];
    }
    for (size_t i = 0; i < dim; i++)
      r->ka[i * dim + i] = 1.0;
  }
  return 0;
}

static void release(struct calib_run *r)
{
  if (r->sendbuf)
    BUF_FREE(r->sendbuf);
  if (r->recvbuf)
    BUF_FREE(r->recvbuf);
  free(r->ka);
  free(r->kb);
  free(r->kc);
}

static int timing_rank(const struct calib_run *r, const struct calib_job *j)
{
  if (j->op >= MV_CALIB_WINALLOC && j->op <= MV_CALIB_WINCREATEFREE)
    return 0;
  int sender = j->op == MV_CALIB_PINGPONG || j->op == MV_CALIB_SEND || j->op == MV_CALIB_ISEND ||
               j->op == MV_CALIB_LATESEND || j->op == MV_CALIB_WTIME;
  return sender != calib_job_reversed(j) ? 0 : r->peer[j->pair];
}

static int write_rows(const struct calib_run *r, const struct calib_job *jobs, int n,
                      const double *all, char (*hosts)[HOST_LEN])
{
  static const char *const pairs[] = {"same", "other"};
  FILE *fp = fopen(r->o->out, "w");
  if (!fp)
    return -1;
  fprintf(fp, "order,op,rank,host,pair,bytes,m,n,k,rep,seconds\n");
  for (int i = 0; i < n; i++) {
    const struct calib_job *j = &jobs[i];
    int kernel = j->op >= MV_CALIB_DGEMM, every_rank = j->op >= MV_CALIB_TOUCH;
    for (int rank = 0; rank < r->size; rank++) {
      if (!every_rank && rank != timing_rank(r, j))
        continue;
      fprintf(fp, "%d,%s,%d,%s,%s,%lld,%d,%d,%d,%d,%.9e\n", i, op_names[j->op], rank,
              hosts[rank], kernel ? "" : pairs[j->pair], (long long)j->bytes, j->m, j->n, j->k,
              j->rep, all[(size_t)rank * (size_t)n + (size_t)i]);
    }
  }
  int bad = ferror(fp);
  return fclose(fp) != 0 || bad ? -1 : 0;
}

/* A measurement of each rank's own resources (fresh pages, its clock) run one rank after the
 * other, the others waiting in a barrier: page faults taken at once by several ranks of a host
 * contend (both ranks of this VM at once: 15-146 us per page, alone: 15-17 us). */
static double in_turn(const struct calib_run *r, double (*measure)(void))
{
  double t = 0;
  for (int turn = 0; turn < r->size; turn++) {
    if (turn == r->rank)
      t = measure();
    MPI_Barrier(MPI_COMM_WORLD);
  }
  return t;
}

static void run_jobs(struct calib_run *r, const struct calib_job *jobs, int n, double *vals)
{
  void *load = calib_load_start(r->o->load);
  r->timer_s = calib_timer_overhead();
  for (int i = 0; i < n; i++) {
    MPI_Barrier(MPI_COMM_WORLD);
    vals[i] = jobs[i].op >= MV_CALIB_DGEMM  ? calib_kernel_measure(r, &jobs[i])
              : jobs[i].op == MV_CALIB_TOUCH ? in_turn(r, calib_touch_once)
              : jobs[i].op == MV_CALIB_CPUCLOCK ? in_turn(r, calib_cpuclock_once)
              : jobs[i].op >= MV_CALIB_WINALLOC ? calib_win_measure(r, &jobs[i])
                                             : calib_net_measure(r, &jobs[i]);
  }
  calib_load_stop(load);
}

static int calibrate(struct calib_run *r, uint64_t seed)
{
  char(*hosts)[HOST_LEN] = calloc((size_t)r->size, HOST_LEN);
  char me[MPI_MAX_PROCESSOR_NAME] = "";
  int len = 0, n = 0, ok = hosts != NULL, all_ok;
  MPI_Get_processor_name(me, &len);
  char mine[HOST_LEN];
  snprintf(mine, sizeof mine, "%s", me);
  for (char *c = mine; *c; c++)
    if (*c == ',' || *c == '"')
      *c = '_';
  MPI_Allgather(mine, HOST_LEN, MPI_CHAR, ok ? hosts : NULL, HOST_LEN, MPI_CHAR, MPI_COMM_WORLD);
  find_peers(r, hosts);
  struct calib_job *jobs = plan(r, seed, &n);
  double *vals = calloc((size_t)n + 1, sizeof *vals), *all = NULL;
  ok = ok && jobs && vals && allocate(r) == 0;
  if (r->rank == 0 && ok)
    ok = (all = calloc((size_t)r->size * (size_t)n + 1, sizeof *all)) != NULL;
  MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  int rc = all_ok ? 0 : -1;
  if (all_ok) {
    run_jobs(r, jobs, n, vals);
    MPI_Gather(vals, n, MPI_DOUBLE, all, n, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    rc = r->rank == 0 ? write_rows(r, jobs, n, all, hosts) : 0;
  }
  release(r);
  free(all);
  free(vals);
  free(jobs);
  free(hosts);
  return rc;
}

int main(int argc, char **argv)
{
  struct calib_opts o;
  struct calib_run r = {.o = &o};
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &r.rank);
  MPI_Comm_size(MPI_COMM_WORLD, &r.size);
  int rc = calib_opts_parse(&o, argc, argv, r.rank);
  if (rc) {
    MPI_Finalize();
    return rc == 1 ? 0 : rc;
  }
  uint64_t seed = o.seed ? o.seed : (uint64_t)time(NULL);
  MPI_Bcast(&seed, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD);
  if (r.rank == 0)
    fprintf(stderr, "mpivet-calib: seed %llu, %d ranks\n", (unsigned long long)seed, r.size);
  rc = calibrate(&r, seed);
  if (rc && r.rank == 0)
    fprintf(stderr, "mpivet-calib: %s: out of memory or cannot write\n", o.out);
  MPI_Finalize();
  return rc ? 1 : 0;
}
