/* The operations mpivet-bench measures with their library implementation (impl "default"):
 * every collective of the issue, the v-variants, and a ping-pong; plus the operation table,
 * generated from MV_BENCH_OPS over these, the mock-ups (mockups.c) and the memory ops (mem.c),
 * and the buffers they share.
 * Sizes follow PGMPI: msize n is the total volume; per-rank blocks hold ceil(n / 4 / p) ints. */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "bench.h"

#define ROOT 0

static int len_count(const struct bench_buf *b) { return b->count; }
static int len_block(const struct bench_buf *b) { return b->block; }
static int len_all(const struct bench_buf *b) { return b->block * b->size; }

void bench_run_barrier(struct bench_buf *b) { MPI_Barrier(b->comm); }
void bench_run_bcast(struct bench_buf *b)
{
  MPI_Bcast(b->out, b->count, MPI_INT, ROOT, b->comm);
}
void bench_run_reduce(struct bench_buf *b)
{
  MPI_Reduce(b->in, b->out, b->count, MPI_INT, MPI_SUM, ROOT, b->comm);
}
void bench_run_allreduce(struct bench_buf *b)
{
  MPI_Allreduce(b->in, b->out, b->count, MPI_INT, MPI_SUM, b->comm);
}
void bench_run_gather(struct bench_buf *b)
{
  MPI_Gather(b->in, b->block, MPI_INT, b->out, b->block, MPI_INT, ROOT, b->comm);
}
void bench_run_gatherv(struct bench_buf *b)
{
  MPI_Gatherv(b->in, b->block, MPI_INT, b->out, b->counts, b->displs, MPI_INT, ROOT, b->comm);
}
void bench_run_allgather(struct bench_buf *b)
{
  MPI_Allgather(b->in, b->block, MPI_INT, b->out, b->block, MPI_INT, b->comm);
}
void bench_run_allgatherv(struct bench_buf *b)
{
  MPI_Allgatherv(b->in, b->block, MPI_INT, b->out, b->counts, b->displs, MPI_INT, b->comm);
}
void bench_run_alltoall(struct bench_buf *b)
{
  MPI_Alltoall(b->in, b->block, MPI_INT, b->out, b->block, MPI_INT, b->comm);
}
void bench_run_alltoallv(struct bench_buf *b)
{
  MPI_Alltoallv(b->in, b->counts, b->displs, MPI_INT, b->out, b->counts, b->displs, MPI_INT,
                b->comm);
}
void bench_run_scatter(struct bench_buf *b)
{
  MPI_Scatter(b->in, b->block, MPI_INT, b->out, b->block, MPI_INT, ROOT, b->comm);
}
void bench_run_scatterv(struct bench_buf *b)
{
  MPI_Scatterv(b->in, b->counts, b->displs, MPI_INT, b->out, b->block, MPI_INT, ROOT, b->comm);
}
void bench_run_reduce_scatter(struct bench_buf *b)
{
  MPI_Reduce_scatter(b->in, b->out, b->counts, MPI_INT, MPI_SUM, b->comm);
}
void bench_run_reduce_scatter_block(struct bench_buf *b)
{
  MPI_Reduce_scatter_block(b->in, b->out, b->block, MPI_INT, MPI_SUM, b->comm);
}
void bench_run_scan(struct bench_buf *b)
{
  MPI_Scan(b->in, b->out, b->count, MPI_INT, MPI_SUM, b->comm);
}
void bench_run_exscan(struct bench_buf *b)
{
  MPI_Exscan(b->in, b->out, b->count, MPI_INT, MPI_SUM, b->comm);
}

/* One round trip of msize bytes between rank 0 and the last rank; others idle. */
void bench_run_pingpong(struct bench_buf *b)
{
  int peer = b->size - 1;
  if (b->size < 2)
    return;
  if (b->rank == 0) {
    MPI_Send(b->in, b->count, MPI_INT, peer, 7, b->comm);
    MPI_Recv(b->out, b->count, MPI_INT, peer, 7, b->comm, MPI_STATUS_IGNORE);
  } else if (b->rank == peer) {
    MPI_Recv(b->out, b->count, MPI_INT, 0, 7, b->comm, MPI_STATUS_IGNORE);
    MPI_Send(b->out, b->count, MPI_INT, 0, 7, b->comm);
  }
}

/* The table, generated from MV_BENCH_OPS: defaults, mock-ups, memory ops. */
#define BENCH_FNS_TIME(id) bench_run_##id, NULL
#define BENCH_FNS_MEMORY(id) NULL, bench_create_##id
#define X(id, op, impl, kind, sized, ...) {op, impl, BENCH_##kind, sized, BENCH_FNS_##kind(id)},
static const struct bench_op ops[] = {MV_BENCH_OPS(X)};
#undef X
#define NOPS ((int)(sizeof ops / sizeof ops[0]))

/* The output of a default collective that its mock-ups must reproduce (bench_op_check): how many
 * ints, and which ranks have it (0: all, 1: root only, 2: all but rank 0, as Exscan). */
#define X(id, ...) BENCH_ID_##id,
enum bench_id { MV_BENCH_OPS(X) };
#undef X
static const struct {
  int (*len)(const struct bench_buf *b);
  int ranks;
} outputs[NOPS] = {
  [BENCH_ID_bcast] = {len_count, 0},          [BENCH_ID_reduce] = {len_count, 1},
  [BENCH_ID_allreduce] = {len_count, 0},      [BENCH_ID_gather] = {len_all, 1},
  [BENCH_ID_gatherv] = {len_all, 1},          [BENCH_ID_allgather] = {len_all, 0},
  [BENCH_ID_allgatherv] = {len_all, 0},       [BENCH_ID_alltoall] = {len_all, 0},
  [BENCH_ID_alltoallv] = {len_all, 0},        [BENCH_ID_scatter] = {len_block, 0},
  [BENCH_ID_scatterv] = {len_block, 0},       [BENCH_ID_reduce_scatter] = {len_block, 0},
  [BENCH_ID_reduce_scatter_block] = {len_block, 0}, [BENCH_ID_scan] = {len_count, 0},
  [BENCH_ID_exscan] = {len_count, 2},
};

const struct bench_op *bench_op_entry(int i)
{
  return i >= 0 && i < NOPS ? &ops[i] : NULL;
}

const struct bench_op *bench_op_find(const char *name)
{
  const struct bench_op *e;
  for (int i = 0; (e = bench_op_entry(i)) != NULL; i++) {
    int is_default = strcmp(e->impl, "default") == 0;
    if (!is_default && strcasecmp(name, e->impl) == 0)
      return e;
    if (is_default && (strcasecmp(name, e->op) == 0 ||
                       (strncmp(e->op, "MPI_", 4) == 0 && strcasecmp(name, e->op + 4) == 0)))
      return e;
  }
  return NULL;
}

int bench_group_has(const char *name, const struct bench_op *e)
{
  int mock = e && strcmp(e->impl, "default") != 0;
  if (strcasecmp(name, "all") == 0)
    return 1;
  if (strcasecmp(name, "collectives") == 0)
    return e && !mock && e->kind == BENCH_TIME && strncmp(e->op, "MPI_", 4) == 0;
  if (strcasecmp(name, "mockups") == 0)
    return mock;
  if (strcasecmp(name, "memory") == 0)
    return e && e->kind == BENCH_MEMORY;
  return -1;
}

/* The index of the default implementation of an op, -1 when there is none. */
static int default_of(const char *op)
{
  for (int i = 0; i < NOPS; i++)
    if (strcmp(ops[i].op, op) == 0 && strcmp(ops[i].impl, "default") == 0)
      return i;
  return -1;
}

int bench_buf_init(struct bench_buf *b, MPI_Comm comm, int64_t msize)
{
  memset(b, 0, sizeof *b);
  b->comm = comm;
  MPI_Comm_rank(comm, &b->rank);
  MPI_Comm_size(comm, &b->size);
  b->msize = msize;
  b->count = (int)((msize + (int64_t)sizeof(int) - 1) / (int64_t)sizeof(int));
  b->block = (b->count + b->size - 1) / b->size;
  size_t n = (size_t)b->block * (size_t)b->size;
  if (n < (size_t)b->count)
    n = (size_t)b->count;
  n += 1;
  b->in = calloc(n, sizeof(int));
  b->out = calloc(n, sizeof(int));
  b->tmp = calloc(n, sizeof(int));
  b->counts = calloc((size_t)b->size, sizeof(int));
  b->displs = calloc((size_t)b->size, sizeof(int));
  if (!b->in || !b->out || !b->tmp || !b->counts || !b->displs) {
    bench_buf_release(b);
    return -1;
  }
  for (int i = 0; i < b->size; i++) {
    b->counts[i] = b->block;
    b->displs[i] = i * b->block;
  }
  return 0;
}

void bench_buf_release(struct bench_buf *b)
{
  free(b->in);
  free(b->out);
  free(b->tmp);
  free(b->counts);
  free(b->displs);
  b->in = b->out = b->tmp = b->counts = b->displs = NULL;
}

void bench_buf_fill(struct bench_buf *b)
{
  int n = b->block * b->size > b->count ? b->block * b->size : b->count;
  for (int i = 0; i < n; i++) {
    b->in[i] = (b->rank * 131 + i * 7) % 1009;
    b->out[i] = b->rank == ROOT ? (i * 13) % 997 : -1;
    b->tmp[i] = -2;
  }
}

/* Compare a rank's output with the reference copy; 1 when equal or not an output rank. */
static int same_output(int def, const struct bench_buf *b, const int *ref)
{
  if ((outputs[def].ranks == 1 && b->rank != ROOT) || (outputs[def].ranks == 2 && b->rank == 0))
    return 1;
  return memcmp(ref, b->out, (size_t)outputs[def].len(b) * sizeof(int)) == 0;
}

int bench_op_check(const struct bench_op *op, struct bench_buf *b)
{
  int def = default_of(op->op);
  if (def < 0 || !outputs[def].len || &ops[def] == op)
    return 1;
  int n = outputs[def].len(b), ok = 0;
  int *ref = malloc(((size_t)n + 1) * sizeof(int));
  if (ref) {
    bench_buf_fill(b);
    ops[def].run(b);
    memcpy(ref, b->out, (size_t)n * sizeof(int));
    bench_buf_fill(b);
    op->run(b);
    ok = same_output(def, b, ref);
    free(ref);
  }
  int all = 0;
  MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, b->comm);
  return all;
}
