/* An MPI call counter independent of libmpivet-trace, for checking that a generated benchmark
 * makes the application's calls: preloaded (LD_PRELOAD) into a real-MPI program, it counts every
 * call of the wrapped functions per (function, communicator, peer as a world rank, tag, bytes,
 * root, number of requests) and writes PMPICOUNT_DIR/rank-N.txt at MPI_Finalize ("count key"
 * lines), with the rank's span from the end of MPI_Init to MPI_Finalize ("# span_s S"). (What
 * the scheduler did to the span is rt-span.c's, preloaded after this library.)
 * Receives are counted at completion with the actual source, tag and bytes of their status (a
 * posted receive may be larger than its message). PMPICOUNT_CALLS=0 records only the span.
 * PMPICOUNT_PROBE=1 also measures, outside the span (before it starts and after it ends), the
 * speed of the core the rank is on ("# probe": the CPU, nanoseconds per step of a fixed loop of
 * 8 independent multiply-adds, GB/s reading 64 MiB) and prints the rank's CPU time, context
 * switches and page faults ("# rusage"): for finding why a run's wall time moves between runs.
 * Build: mpicc -O2 -fPIC -shared -o pmpi-count.so pmpi-count.c */
#define _GNU_SOURCE
#include <mpi.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#define NKEYS 4096   /* distinct keys kept per rank (more are counted as "overflow") */
#define NREQS 4096   /* receive requests in flight */

struct entry { char key[160]; long count; };
static struct entry keys[NKEYS];
static long overflow;
static int counting, wrank = -1;
static double t0;
static struct { MPI_Request r; MPI_Comm comm; } reqs[NREQS];

static double now(void);
/* The core's speed (PMPICOUNT_PROBE=1): CPU, ns per loop step, GB/s reading 64 MiB. */
static int probing;
static char probed[160];
static void probe(const char *when)
{
  enum { MEM = 64 << 20 };
  static double *mem;
  if (!probing || (!mem && !(mem = malloc(MEM))))
    return;
  if (!strcmp(when, "start"))  /* its pages mapped first: the first read would time page faults */
    memset(mem, 0, MEM);
  double a[8] = {1, 2, 3, 4, 5, 6, 7, 8}, t = now(), sum = 0;
  for (long i = 0; i < 1000000; i++)
    for (int j = 0; j < 8; j++)
      a[j] = a[j] * 0.999999 + 1e-6;
  double fma = (now() - t) * 1e3, t1 = now();
  for (size_t i = 0; i < MEM / sizeof *mem; i++)
    sum += mem[i];
  double gbs = MEM / (now() - t1) * 1e-9;
  volatile double sink = a[0] + a[7] + sum;
  (void)sink;
  size_t len = strlen(probed);
  snprintf(probed + len, sizeof probed - len, " %s cpu %d fma_ns %.3f mem_gbs %.2f", when,
           sched_getcpu(), fma, gbs);
}

static double now(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void count_key(const char *key)
{
  uint64_t h = 1469598103934665603u;
  for (const char *c = key; *c; c++)
    h = (h ^ (unsigned char)*c) * 1099511628211u;
  for (size_t i = 0; i < NKEYS; i++) {
    struct entry *e = &keys[(h + i) % NKEYS];
    if (e->count && strcmp(e->key, key) != 0)
      continue;
    if (!e->count)
      snprintf(e->key, sizeof e->key, "%s", key);
    e->count++;
    return;
  }
  overflow++;
}

/* "size@leader": the communicator by its size and the world rank of its rank 0. */
static int world_of(MPI_Comm comm, int r)
{
  if (r < 0 || comm == MPI_COMM_WORLD)
    return r;
  MPI_Group g, w;
  int out = -1;
  PMPI_Comm_group(comm, &g);
  PMPI_Comm_group(MPI_COMM_WORLD, &w);
  PMPI_Group_translate_ranks(g, 1, &r, w, &out);
  PMPI_Group_free(&g);
  PMPI_Group_free(&w);
  return out;
}

static void comm_name(MPI_Comm comm, char *out, size_t n)
{
  int size;
  PMPI_Comm_size(comm, &size);
  snprintf(out, n, "%d@%d", size, world_of(comm, 0));
}

static long nbytes(int count, MPI_Datatype t)
{
  int size = 0;
  if (t != MPI_DATATYPE_NULL)
    PMPI_Type_size(t, &size);
  return (long)count * size;
}

/* A point-to-point call's key; peer is a rank in comm (MPI_ANY_SOURCE and MPI_PROC_NULL kept). */
static void p2p(const char *fn, MPI_Comm comm, int peer, int tag, long bytes)
{
  if (!counting)
    return;
  char c[32], key[160];
  comm_name(comm, c, sizeof c);
  int w = peer >= 0 ? world_of(comm, peer) : peer;
  snprintf(key, sizeof key, "%s comm=%s peer=%d tag=%d bytes=%ld", fn, c, w, tag, bytes);
  count_key(key);
}

static void coll(const char *fn, MPI_Comm comm, int root, long bytes)
{
  if (!counting)
    return;
  char c[32], key[160];
  comm_name(comm, c, sizeof c);
  snprintf(key, sizeof key, "%s comm=%s root=%d bytes=%ld", fn, c,
           root >= 0 ? world_of(comm, root) : -1, bytes);
  count_key(key);
}

static void received(const char *fn, MPI_Comm comm, const MPI_Status *st)
{
  int n = 0;
  PMPI_Get_count(st, MPI_BYTE, &n);
  if (st->MPI_SOURCE != MPI_PROC_NULL)
    p2p(fn, comm, st->MPI_SOURCE, st->MPI_TAG, n);
}

static void posted(MPI_Request r, MPI_Comm comm)
{
  if (!counting)
    return;
  for (size_t i = 0; i < NREQS; i++)
    if (!reqs[i].r) {
      reqs[i].r = r;
      reqs[i].comm = comm;
      return;
    }
  overflow++;
}

/* A request that completed with status st: a posted receive is counted now, as received. */
static void completed(MPI_Request r, const MPI_Status *st)
{
  for (size_t i = 0; counting && r && i < NREQS; i++)
    if (reqs[i].r == r) {
      reqs[i].r = 0;
      received("MPI_Irecv", reqs[i].comm, st);
      return;
    }
}

static void waits(const char *fn, int n)
{
  char key[64];
  snprintf(key, sizeof key, "%s n=%d", fn, n);
  if (counting)
    count_key(key);
}

int MPI_Init(int *argc, char ***argv)
{
  int err = PMPI_Init(argc, argv);
  PMPI_Comm_rank(MPI_COMM_WORLD, &wrank);
  const char *c = getenv("PMPICOUNT_CALLS");
  counting = getenv("PMPICOUNT_DIR") && !(c && !strcmp(c, "0"));
  probing = getenv("PMPICOUNT_PROBE") && !strcmp(getenv("PMPICOUNT_PROBE"), "1");
  probe("start");
  t0 = now();
  return err;
}

int MPI_Init_thread(int *argc, char ***argv, int required, int *provided)
{
  int err = PMPI_Init_thread(argc, argv, required, provided);
  PMPI_Comm_rank(MPI_COMM_WORLD, &wrank);
  const char *c = getenv("PMPICOUNT_CALLS");
  counting = getenv("PMPICOUNT_DIR") && !(c && !strcmp(c, "0"));
  probing = getenv("PMPICOUNT_PROBE") && !strcmp(getenv("PMPICOUNT_PROBE"), "1");
  probe("start");
  t0 = now();
  return err;
}

int MPI_Finalize(void)
{
  double span = now() - t0;
  probe("end");
  const char *dir = getenv("PMPICOUNT_DIR");
  char path[4096];
  snprintf(path, sizeof path, "%s/rank-%d.txt", dir ? dir : ".", wrank);
  FILE *f = dir ? fopen(path, "w") : NULL;
  if (f) {
    for (size_t i = 0; i < NKEYS; i++)
      if (keys[i].count)
        fprintf(f, "%ld %s\n", keys[i].count, keys[i].key);
    if (overflow)
      fprintf(f, "%ld overflow\n", overflow);
    fprintf(f, "# span_s %.6f\n", span);
    struct rusage u;
    if (probing && getrusage(RUSAGE_SELF, &u) == 0)
      fprintf(f, "# probe%s\n# rusage user_s %.3f sys_s %.3f nvcsw %ld nivcsw %ld minflt %ld\n",
              probed, u.ru_utime.tv_sec + u.ru_utime.tv_usec * 1e-6,
              u.ru_stime.tv_sec + u.ru_stime.tv_usec * 1e-6, u.ru_nvcsw, u.ru_nivcsw, u.ru_minflt);
    fclose(f);
  }
  return PMPI_Finalize();
}

/* Point-to-point. */
int MPI_Send(const void *b, int n, MPI_Datatype t, int to, int tag, MPI_Comm c)
{
  p2p("MPI_Send", c, to, tag, nbytes(n, t));
  return PMPI_Send(b, n, t, to, tag, c);
}

int MPI_Ssend(const void *b, int n, MPI_Datatype t, int to, int tag, MPI_Comm c)
{
  p2p("MPI_Ssend", c, to, tag, nbytes(n, t));
  return PMPI_Ssend(b, n, t, to, tag, c);
}

int MPI_Rsend(const void *b, int n, MPI_Datatype t, int to, int tag, MPI_Comm c)
{
  p2p("MPI_Rsend", c, to, tag, nbytes(n, t));
  return PMPI_Rsend(b, n, t, to, tag, c);
}

int MPI_Isend(const void *b, int n, MPI_Datatype t, int to, int tag, MPI_Comm c, MPI_Request *r)
{
  p2p("MPI_Isend", c, to, tag, nbytes(n, t));
  return PMPI_Isend(b, n, t, to, tag, c, r);
}

int MPI_Issend(const void *b, int n, MPI_Datatype t, int to, int tag, MPI_Comm c, MPI_Request *r)
{
  p2p("MPI_Issend", c, to, tag, nbytes(n, t));
  return PMPI_Issend(b, n, t, to, tag, c, r);
}

int MPI_Recv(void *b, int n, MPI_Datatype t, int from, int tag, MPI_Comm c, MPI_Status *st)
{
  MPI_Status own;
  int err = PMPI_Recv(b, n, t, from, tag, c, st == MPI_STATUS_IGNORE ? &own : st);
  received("MPI_Recv", c, st == MPI_STATUS_IGNORE ? &own : st);
  return err;
}

int MPI_Irecv(void *b, int n, MPI_Datatype t, int from, int tag, MPI_Comm c, MPI_Request *r)
{
  int err = PMPI_Irecv(b, n, t, from, tag, c, r);
  if (from != MPI_PROC_NULL)
    posted(*r, c);
  return err;
}

int MPI_Sendrecv(const void *sb, int sn, MPI_Datatype st_, int to, int stag, void *rb, int rn,
                 MPI_Datatype rt, int from, int rtag, MPI_Comm c, MPI_Status *st)
{
  MPI_Status own;
  p2p("MPI_Sendrecv/send", c, to, stag, nbytes(sn, st_));
  int err = PMPI_Sendrecv(sb, sn, st_, to, stag, rb, rn, rt, from, rtag, c,
                          st == MPI_STATUS_IGNORE ? &own : st);
  received("MPI_Sendrecv/recv", c, st == MPI_STATUS_IGNORE ? &own : st);
  return err;
}

int MPI_Sendrecv_replace(void *b, int n, MPI_Datatype t, int to, int stag, int from, int rtag,
                         MPI_Comm c, MPI_Status *st)
{
  MPI_Status own;
  p2p("MPI_Sendrecv_replace/send", c, to, stag, nbytes(n, t));
  int err = PMPI_Sendrecv_replace(b, n, t, to, stag, from, rtag, c, st == MPI_STATUS_IGNORE ? &own : st);
  received("MPI_Sendrecv_replace/recv", c, st == MPI_STATUS_IGNORE ? &own : st);
  return err;
}

int MPI_Probe(int from, int tag, MPI_Comm c, MPI_Status *st)
{
  p2p("MPI_Probe", c, from, tag, 0);
  return PMPI_Probe(from, tag, c, st);
}

int MPI_Iprobe(int from, int tag, MPI_Comm c, int *flag, MPI_Status *st)
{
  p2p("MPI_Iprobe", c, from, tag, 0);
  return PMPI_Iprobe(from, tag, c, flag, st);
}

/* Completions: the requests are copied first (completion sets them to MPI_REQUEST_NULL), and a
 * status array is supplied when the caller ignores them; keys count the completed requests. */
struct saved { MPI_Request *r; MPI_Status *st; };

static int save(struct saved *s, int n, const MPI_Request *r, MPI_Status *st)
{
  s->r = malloc((n + 1) * sizeof *s->r);
  s->st = st != MPI_STATUSES_IGNORE ? st : malloc((n + 1) * sizeof *s->st);
  if (!s->r || !s->st)
    return -1;
  memcpy(s->r, r, n * sizeof *r);
  return 0;
}

static void finish(struct saved *s, const MPI_Status *user, const char *fn, int n, const int *idx)
{
  for (int i = 0; i < n; i++)
    completed(s->r[idx ? idx[i] : i], &s->st[i]);
  waits(fn, n);
  if (user == MPI_STATUSES_IGNORE)
    free(s->st);
  free(s->r);
}

int MPI_Wait(MPI_Request *r, MPI_Status *st)
{
  MPI_Request r0 = *r;
  MPI_Status own;
  int err = PMPI_Wait(r, st == MPI_STATUS_IGNORE ? &own : st);
  completed(r0, st == MPI_STATUS_IGNORE ? &own : st);
  waits("MPI_Wait", 1);
  return err;
}

int MPI_Test(MPI_Request *r, int *flag, MPI_Status *st)
{
  MPI_Request r0 = *r;
  MPI_Status own;
  int err = PMPI_Test(r, flag, st == MPI_STATUS_IGNORE ? &own : st);
  if (*flag)
    completed(r0, st == MPI_STATUS_IGNORE ? &own : st);
  waits("MPI_Test", *flag);
  return err;
}

int MPI_Waitall(int n, MPI_Request *r, MPI_Status *st)
{
  struct saved s;
  if (save(&s, n, r, st) != 0)
    return PMPI_Waitall(n, r, st);
  int err = PMPI_Waitall(n, r, s.st);
  finish(&s, st, "MPI_Waitall", n, NULL);
  return err;
}

int MPI_Testall(int n, MPI_Request *r, int *flag, MPI_Status *st)
{
  struct saved s;
  if (save(&s, n, r, st) != 0)
    return PMPI_Testall(n, r, flag, st);
  int err = PMPI_Testall(n, r, flag, s.st);
  finish(&s, st, "MPI_Testall", *flag ? n : 0, NULL);
  return err;
}

int MPI_Waitany(int n, MPI_Request *r, int *idx, MPI_Status *st)
{
  struct saved s;
  MPI_Status own;
  if (save(&s, n, r, &own) != 0)
    return PMPI_Waitany(n, r, idx, st);
  int err = PMPI_Waitany(n, r, idx, &own);
  if (st != MPI_STATUS_IGNORE)
    *st = own;
  finish(&s, &own, "MPI_Waitany", *idx != MPI_UNDEFINED, idx);
  return err;
}

int MPI_Testany(int n, MPI_Request *r, int *idx, int *flag, MPI_Status *st)
{
  struct saved s;
  MPI_Status own;
  if (save(&s, n, r, &own) != 0)
    return PMPI_Testany(n, r, idx, flag, st);
  int err = PMPI_Testany(n, r, idx, flag, &own);
  if (st != MPI_STATUS_IGNORE)
    *st = own;
  finish(&s, &own, "MPI_Testany", *flag && *idx != MPI_UNDEFINED, idx);
  return err;
}

int MPI_Waitsome(int n, MPI_Request *r, int *out, int *idx, MPI_Status *st)
{
  struct saved s;
  if (save(&s, n, r, st) != 0)
    return PMPI_Waitsome(n, r, out, idx, st);
  int err = PMPI_Waitsome(n, r, out, idx, s.st);
  finish(&s, st, "MPI_Waitsome", *out == MPI_UNDEFINED ? 0 : *out, idx);
  return err;
}

int MPI_Testsome(int n, MPI_Request *r, int *out, int *idx, MPI_Status *st)
{
  struct saved s;
  if (save(&s, n, r, st) != 0)
    return PMPI_Testsome(n, r, out, idx, st);
  int err = PMPI_Testsome(n, r, out, idx, s.st);
  finish(&s, st, "MPI_Testsome", *out == MPI_UNDEFINED ? 0 : *out, idx);
  return err;
}

/* Collectives: bytes this rank contributes (the sum of its counts for the v-variants). */
static long sum(const int *counts, MPI_Comm c, MPI_Datatype t)
{
  int n;
  long s = 0;
  PMPI_Comm_size(c, &n);
  for (int i = 0; counts && i < n; i++)
    s += counts[i];
  return nbytes(1, t) * s;
}

static int is_root(MPI_Comm c, int root)
{
  int r;
  PMPI_Comm_rank(c, &r);
  return r == root;
}

int MPI_Barrier(MPI_Comm c)
{
  coll("MPI_Barrier", c, -1, 0);
  return PMPI_Barrier(c);
}

int MPI_Bcast(void *b, int n, MPI_Datatype t, int root, MPI_Comm c)
{
  coll("MPI_Bcast", c, root, nbytes(n, t));
  return PMPI_Bcast(b, n, t, root, c);
}

int MPI_Reduce(const void *s, void *r, int n, MPI_Datatype t, MPI_Op op, int root, MPI_Comm c)
{
  coll("MPI_Reduce", c, root, nbytes(n, t));
  return PMPI_Reduce(s, r, n, t, op, root, c);
}

int MPI_Allreduce(const void *s, void *r, int n, MPI_Datatype t, MPI_Op op, MPI_Comm c)
{
  coll("MPI_Allreduce", c, -1, nbytes(n, t));
  return PMPI_Allreduce(s, r, n, t, op, c);
}

int MPI_Scan(const void *s, void *r, int n, MPI_Datatype t, MPI_Op op, MPI_Comm c)
{
  coll("MPI_Scan", c, -1, nbytes(n, t));
  return PMPI_Scan(s, r, n, t, op, c);
}

int MPI_Exscan(const void *s, void *r, int n, MPI_Datatype t, MPI_Op op, MPI_Comm c)
{
  coll("MPI_Exscan", c, -1, nbytes(n, t));
  return PMPI_Exscan(s, r, n, t, op, c);
}

int MPI_Gather(const void *s, int sn, MPI_Datatype st, void *r, int rn, MPI_Datatype rt, int root,
               MPI_Comm c)
{
  coll("MPI_Gather", c, root, nbytes(sn, st));
  return PMPI_Gather(s, sn, st, r, rn, rt, root, c);
}

int MPI_Gatherv(const void *s, int sn, MPI_Datatype st, void *r, const int *rn, const int *d,
                MPI_Datatype rt, int root, MPI_Comm c)
{
  coll("MPI_Gatherv", c, root, nbytes(sn, st) + (is_root(c, root) ? sum(rn, c, rt) : 0));
  return PMPI_Gatherv(s, sn, st, r, rn, d, rt, root, c);
}

int MPI_Scatter(const void *s, int sn, MPI_Datatype st, void *r, int rn, MPI_Datatype rt, int root,
                MPI_Comm c)
{
  coll("MPI_Scatter", c, root, nbytes(rn, rt));
  return PMPI_Scatter(s, sn, st, r, rn, rt, root, c);
}

int MPI_Scatterv(const void *s, const int *sn, const int *d, MPI_Datatype st, void *r, int rn,
                 MPI_Datatype rt, int root, MPI_Comm c)
{
  coll("MPI_Scatterv", c, root, nbytes(rn, rt) + (is_root(c, root) ? sum(sn, c, st) : 0));
  return PMPI_Scatterv(s, sn, d, st, r, rn, rt, root, c);
}

int MPI_Allgather(const void *s, int sn, MPI_Datatype st, void *r, int rn, MPI_Datatype rt, MPI_Comm c)
{
  coll("MPI_Allgather", c, -1, nbytes(rn, rt));
  return PMPI_Allgather(s, sn, st, r, rn, rt, c);
}

int MPI_Allgatherv(const void *s, int sn, MPI_Datatype st, void *r, const int *rn, const int *d,
                   MPI_Datatype rt, MPI_Comm c)
{
  coll("MPI_Allgatherv", c, -1, sum(rn, c, rt));
  return PMPI_Allgatherv(s, sn, st, r, rn, d, rt, c);
}

int MPI_Alltoall(const void *s, int sn, MPI_Datatype st, void *r, int rn, MPI_Datatype rt, MPI_Comm c)
{
  coll("MPI_Alltoall", c, -1, nbytes(sn, st));
  return PMPI_Alltoall(s, sn, st, r, rn, rt, c);
}

int MPI_Alltoallv(const void *s, const int *sn, const int *sd, MPI_Datatype st, void *r,
                  const int *rn, const int *rd, MPI_Datatype rt, MPI_Comm c)
{
  coll("MPI_Alltoallv", c, -1, sum(sn, c, st) + sum(rn, c, rt));
  return PMPI_Alltoallv(s, sn, sd, st, r, rn, rd, rt, c);
}

int MPI_Reduce_scatter_block(const void *s, void *r, int n, MPI_Datatype t, MPI_Op op, MPI_Comm c)
{
  coll("MPI_Reduce_scatter_block", c, -1, nbytes(n, t));
  return PMPI_Reduce_scatter_block(s, r, n, t, op, c);
}

int MPI_Reduce_scatter(const void *s, void *r, const int *n, MPI_Datatype t, MPI_Op op, MPI_Comm c)
{
  coll("MPI_Reduce_scatter", c, -1, sum(n, c, t));
  return PMPI_Reduce_scatter(s, r, n, t, op, c);
}

/* Communicator management: counted, with the new communicator's size (benchgen recreates them
 * at the start instead of where the application made them). */
static void made(const char *fn, const MPI_Comm *out)
{
  char c[32] = "null", key[96];
  if (*out != MPI_COMM_NULL)
    comm_name(*out, c, sizeof c);
  snprintf(key, sizeof key, "%s new=%s", fn, c);
  if (counting)
    count_key(key);
}

int MPI_Comm_split(MPI_Comm c, int color, int key, MPI_Comm *out)
{
  int err = PMPI_Comm_split(c, color, key, out);
  made("MPI_Comm_split", out);
  return err;
}

int MPI_Comm_dup(MPI_Comm c, MPI_Comm *out)
{
  int err = PMPI_Comm_dup(c, out);
  made("MPI_Comm_dup", out);
  return err;
}

int MPI_Comm_create(MPI_Comm c, MPI_Group g, MPI_Comm *out)
{
  int err = PMPI_Comm_create(c, g, out);
  made("MPI_Comm_create", out);
  return err;
}

int MPI_Cart_create(MPI_Comm c, int nd, const int *dims, const int *periods, int reorder, MPI_Comm *out)
{
  int err = PMPI_Cart_create(c, nd, dims, periods, reorder, out);
  made("MPI_Cart_create", out);
  return err;
}
