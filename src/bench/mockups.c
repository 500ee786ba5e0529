/* The 15 pattern-guideline mock-ups of PGMPI (Appendix A, GL3-GL17), each computing exactly the
 * output of the collective it emulates (checked by bench_op_check), plus the hand-written
 * binomial-tree Bcast on point-to-point (the "performance litmus test", impl bcast_as_binomial).
 * Ids are those of share/mpivet/guidelines.catalog. Reductions are MPI_SUM on MPI_INT. */
#include <string.h>

#include "bench.h"

#define ROOT 0

static int total(const struct bench_buf *b) { return b->block * b->size; }
static void zero(int *p, int n) { memset(p, 0, (size_t)n * sizeof(int)); }
static void own_block(const struct bench_buf *b, int *dst)
{
  memcpy(dst + b->rank * b->block, b->in, (size_t)b->block * sizeof(int));
}

/* GL3 Gather <= Allgather */
void bench_run_gather_as_allgather(struct bench_buf *b)
{
  MPI_Allgather(b->in, b->block, MPI_INT, b->out, b->block, MPI_INT, b->comm);
}
/* GL4 Gather <= Reduce: blocks placed in a zeroed vector and summed */
void bench_run_gather_as_reduce(struct bench_buf *b)
{
  zero(b->tmp, total(b));
  own_block(b, b->tmp);
  MPI_Reduce(b->tmp, b->out, total(b), MPI_INT, MPI_SUM, ROOT, b->comm);
}
/* GL5 Allgather <= Alltoall: the own block sent to everybody */
void bench_run_allgather_as_alltoall(struct bench_buf *b)
{
  for (int i = 0; i < b->size; i++)
    memcpy(b->tmp + i * b->block, b->in, (size_t)b->block * sizeof(int));
  MPI_Alltoall(b->tmp, b->block, MPI_INT, b->out, b->block, MPI_INT, b->comm);
}
/* GL6 Allgather <= Allreduce */
void bench_run_allgather_as_allreduce(struct bench_buf *b)
{
  zero(b->tmp, total(b));
  own_block(b, b->tmp);
  MPI_Allreduce(b->tmp, b->out, total(b), MPI_INT, MPI_SUM, b->comm);
}
/* GL7 Scatter <= Bcast: everybody receives the whole vector and keeps its block */
void bench_run_scatter_as_bcast(struct bench_buf *b)
{
  int *v = b->rank == ROOT ? b->in : b->tmp;
  MPI_Bcast(v, total(b), MPI_INT, ROOT, b->comm);
  memcpy(b->out, v + b->rank * b->block, (size_t)b->block * sizeof(int));
}
/* GL8 Reduce <= Allreduce */
void bench_run_reduce_as_allreduce(struct bench_buf *b)
{
  MPI_Allreduce(b->in, b->out, b->count, MPI_INT, MPI_SUM, b->comm);
}
/* GL9 Reduce_scatter <= Allreduce */
void bench_run_reduce_scatter_as_allreduce(struct bench_buf *b)
{
  MPI_Allreduce(b->in, b->tmp, total(b), MPI_INT, MPI_SUM, b->comm);
  memcpy(b->out, b->tmp + b->rank * b->block, (size_t)b->block * sizeof(int));
}
/* GL10 Bcast <= Scatter + Allgather */
void bench_run_bcast_as_scatter_allgather(struct bench_buf *b)
{
  MPI_Scatter(b->out, b->block, MPI_INT, b->tmp, b->block, MPI_INT, ROOT, b->comm);
  MPI_Allgather(b->tmp, b->block, MPI_INT, b->out, b->block, MPI_INT, b->comm);
}
/* GL11 Allgather <= Gather + Bcast */
void bench_run_allgather_as_gather_bcast(struct bench_buf *b)
{
  MPI_Gather(b->in, b->block, MPI_INT, b->out, b->block, MPI_INT, ROOT, b->comm);
  MPI_Bcast(b->out, total(b), MPI_INT, ROOT, b->comm);
}
/* GL12 Allreduce <= Reduce + Bcast */
void bench_run_allreduce_as_reduce_bcast(struct bench_buf *b)
{
  MPI_Reduce(b->in, b->out, b->count, MPI_INT, MPI_SUM, ROOT, b->comm);
  MPI_Bcast(b->out, b->count, MPI_INT, ROOT, b->comm);
}
/* GL13 Allreduce <= Reduce_scatter_block + Allgather (vector padded to p blocks) */
void bench_run_allreduce_as_reduce_scatter_block_allgather(struct bench_buf *b)
{
  MPI_Reduce_scatter_block(b->in, b->tmp, b->block, MPI_INT, MPI_SUM, b->comm);
  MPI_Allgather(b->tmp, b->block, MPI_INT, b->out, b->block, MPI_INT, b->comm);
}
/* GL14 Reduce <= Reduce_scatter_block + Gather */
void bench_run_reduce_as_reduce_scatter_block_gather(struct bench_buf *b)
{
  MPI_Reduce_scatter_block(b->in, b->tmp, b->block, MPI_INT, MPI_SUM, b->comm);
  MPI_Gather(b->tmp, b->block, MPI_INT, b->out, b->block, MPI_INT, ROOT, b->comm);
}
/* GL15 Reduce_scatter_block <= Reduce + Scatter */
void bench_run_reduce_scatter_block_as_reduce_scatter(struct bench_buf *b)
{
  MPI_Reduce(b->in, b->tmp, total(b), MPI_INT, MPI_SUM, ROOT, b->comm);
  MPI_Scatter(b->tmp, b->block, MPI_INT, b->out, b->block, MPI_INT, ROOT, b->comm);
}
/* GL16 Scan <= Exscan + Reduce_local */
void bench_run_scan_as_exscan_reduce_local(struct bench_buf *b)
{
  MPI_Exscan(b->in, b->out, b->count, MPI_INT, MPI_SUM, b->comm);
  if (b->rank == 0)
    memcpy(b->out, b->in, (size_t)b->count * sizeof(int));
  else
    MPI_Reduce_local(b->in, b->out, b->count, MPI_INT, MPI_SUM);
}
/* GL17 Reduce_scatter <= Reduce + Scatterv */
void bench_run_reduce_scatter_as_reduce_scatterv(struct bench_buf *b)
{
  MPI_Reduce(b->in, b->tmp, total(b), MPI_INT, MPI_SUM, ROOT, b->comm);
  MPI_Scatterv(b->tmp, b->counts, b->displs, MPI_INT, b->out, b->block, MPI_INT, ROOT, b->comm);
}

/* Binomial tree from rank 0: in round k, ranks below 2^k send to rank + 2^k. */
void bench_run_bcast_as_binomial(struct bench_buf *b)
{
  int mask = 1;
  while (mask < b->size && !(b->rank & mask))
    mask <<= 1;
  if (b->rank != ROOT)
    MPI_Recv(b->out, b->count, MPI_INT, b->rank - mask, 11, b->comm, MPI_STATUS_IGNORE);
  for (mask >>= 1; mask > 0; mask >>= 1)
    if (b->rank + mask < b->size)
      MPI_Send(b->out, b->count, MPI_INT, b->rank + mask, 11, b->comm);
}
