/* MPI_Finalize's compressed trace (docs/trace.md): every rank compresses its own raw records,
 * then the rank sets are merged pairwise in ceil(log2 p) rounds (rank r + 2^k sends to r at
 * round k), identical ranks kept once, and rank 0 writes DIR/compressed.mvt. */
#include <stdlib.h>

#include "ctrace.h"
#include "output.h"
#include "state.h"

#define TAG 7411

static int build_own(struct mv__ct_set *set)
{
  struct mv__raw_defs own = {0};
  own.nranks = G.size;
  mv__defs_read(G.dir, G.rank, &own);
  struct mv__clock clk = own.ranks ? own.ranks[G.rank].clock : (struct mv__clock){0};
  struct mv__ct_comm *comms = malloc((G.nseen + 1) * sizeof *comms);
  if (!comms)
    return mv__defs_release(&own), -1;
  for (size_t i = 0; i < G.nseen; i++)
    comms[i] = (struct mv__ct_comm){G.seen[i].id, G.seen[i].size, G.seen[i].rank};
  struct mv__ct_input in = {G.dir, G.rank, G.size, &clk, comms, G.nseen, own.groups, own.ngroups};
  struct mv__ct_rank r;
  int err = mv__ct_build(&in, &r);
  if (!err)
    err = mv__ct_set_add_rank(set, G.rank, &r);
  mv__bytes_release(&r.blob);
  free(comms);
  mv__defs_release(&own);
  return err;
}

static void send_set(const struct mv__ct_set *set, int err, int to)
{
  struct mv__bytes b = {0};
  if (!err && mv__ct_set_pack(set, &b) != 0)
    err = -1;
  uint64_t head[2] = {err ? 0 : b.n, err != 0};
  PMPI_Send(head, 2, MPI_UINT64_T, to, TAG, G.tool_comm);
  if (head[0])
    PMPI_Send(b.p, (int)b.n, MPI_BYTE, to, TAG, G.tool_comm);
  mv__bytes_release(&b);
}

static int recv_merge(struct mv__ct_set *set, int err, int from)
{
  uint64_t head[2];
  PMPI_Recv(head, 2, MPI_UINT64_T, from, TAG, G.tool_comm, MPI_STATUS_IGNORE);
  uint8_t *p = head[0] ? malloc(head[0]) : NULL;
  if (head[0])  /* received even when short of memory, into nothing, so the sender finishes */
    PMPI_Recv(p, p ? (int)head[0] : 0, MPI_BYTE, from, TAG, G.tool_comm, MPI_STATUS_IGNORE);
  struct mv__ct_set other = {0};
  if (!err && (head[1] || (head[0] && !p)))
    err = -1;
  if (!err && mv__ct_set_unpack(&other, p, head[0]) != 0)
    err = -1;
  if (!err && mv__ct_set_merge(set, &other) != 0)
    err = -1;
  mv__ct_set_release(&other);
  free(p);
  return err;
}

static int write_root(const struct mv__ct_set *set)
{
  struct mv__raw_defs d = {0};
  d.nranks = G.size;
  for (int r = 0; r < G.size; r++)
    mv__defs_read(G.dir, r, &d);
  int err = mv__ct_write(G.dir, set, &d, G.size);
  mv__defs_release(&d);
  return err;
}

int mv__write_compressed(void)
{
  struct mv__ct_set set = {0};
  int err = build_own(&set);
  for (int step = 1; step < G.size; step *= 2) {
    if (G.rank % (2 * step) == step) {
      send_set(&set, err, G.rank - step);
      break;
    }
    if (G.rank + step < G.size)
      err = recv_merge(&set, err, G.rank + step);
  }
  if (G.rank == 0 && !err)
    err = write_root(&set);
  mv__ct_set_release(&set);
  PMPI_Bcast(&err, 1, MPI_INT, 0, G.tool_comm);
  return err ? -1 : 0;
}
