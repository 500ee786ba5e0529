/* The one-sided part of a rank's compressed trace (docs/formats.md, "Compressed trace"): window
 * creation and free, fences and post/start/complete/wait epochs, locks, flushes, puts, gets and
 * accumulates become operations naming the window by its creation number, its communicator
 * symbolically and targets relative to the caller (ctrace.c adds them to the call). No MPI. */
#include <errno.h>
#include <stdlib.h>

#include "ctrace.h"
#include "mvt.h"
#include "rawfmt.h"
#include "trace-regions.h"

static uint32_t win_comm(const struct mv__ct_rma *st, uint32_t win)
{
  for (size_t i = 0; i < st->nwins; i++)
    if (st->wins[i][0] == win)
      return st->wins[i][1];
  return 0;  /* a window created before tracing: assumed on MPI_COMM_WORLD */
}

static int remember(struct mv__ct_rma *st, uint32_t win, uint32_t comm)
{
  void *p = realloc(st->wins, (st->nwins + 1) * sizeof *st->wins);
  if (!p)
    return -ENOMEM;
  st->wins = p;
  st->wins[st->nwins][0] = win, st->wins[st->nwins++][1] = comm;
  return 0;
}

/* The members of the post/start group: GROUP operations with world ranks relative to the caller. */
static int group(const struct mv__ct_input *in, uint32_t gid, uint64_t w, mv__ct_add_fn *add, void *arg)
{
  for (size_t i = 0; i < in->ngroups; i++) {
    const struct mv__def_set *g = &in->groups[i];
    if (g->id != gid)
      continue;
    for (uint32_t k = 0; k < g->filled; k++) {
      uint64_t *f = add(arg, MV_MVT_OP_GROUP);
      if (!f)
        return -ENOMEM;
      f[1] = 0, f[2] = w, f[3] = mv__ct_peer(in, 0, (uint32_t)g->members[k]);
    }
    return 1;
  }
  uint64_t *f = add(arg, MV_MVT_OP_OTHER);  /* a group the definitions do not hold */
  return f ? (f[1] = MV__K_RMA_GROUP_SYNC, 1) : -ENOMEM;
}

/* SYNC: lock, unlock, flush, Win_sync (its own rank: peer 0). */
static int sync_op(const struct mv__ct_input *in, const struct mv__raw_rec *r, uint32_t comm, int region,
                   uint64_t *f)
{
  int all = r->a == UINT32_MAX;
  f[3] = all || region == MV__R_MPI_Win_sync ? 0 : mv__ct_peer(in, comm, r->a);
  f[4] = (all ? MV_MVT_ALL_TARGETS : 0) |
         (r->kind == MV__K_RMA_REQUEST_LOCK && r->sub == OTF2_LOCK_EXCLUSIVE ? MV_MVT_EXCLUSIVE : 0);
  return 1;
}

int mv__ct_rma(struct mv__ct_rma *st, const struct mv__ct_input *in, const struct mv__raw_rec *r, int region,
               mv__ct_add_fn *add, void *arg)
{
  uint32_t comm = r->kind == MV__K_RMA_WIN_CREATE ? r->a : win_comm(st, r->b);
  uint64_t w = mv__ct_comm_sym(in, r->b), *f;
  int kind;
  switch (r->kind) {
  case MV__K_RMA_WIN_CREATE:
    if (remember(st, r->b, r->a) != 0)
      return -ENOMEM;
    kind = MV_MVT_OP_WIN;
    break;
  case MV__K_RMA_WIN_DESTROY: kind = MV_MVT_OP_WIN; break;
  case MV__K_RMA_COLL_END:  /* a fence; creation and free: their WIN operation */
    if (r->sub != OTF2_COLLECTIVE_OP_BARRIER)
      return 1;
    kind = MV_MVT_OP_EPOCH;
    break;
  case MV__K_RMA_GROUP_SYNC:  /* post and start name their group; complete, wait end the epoch */
    if (r->sub == OTF2_RMA_SYNC_LEVEL_PROCESS)
      return group(in, r->c, w, add, arg);
    kind = MV_MVT_OP_EPOCH;
    break;
  case MV__K_RMA_REQUEST_LOCK: case MV__K_RMA_RELEASE_LOCK: case MV__K_RMA_SYNC:
    kind = MV_MVT_OP_SYNC;
    break;
  case MV__K_RMA_PUT: kind = MV_MVT_OP_PUT; break;
  case MV__K_RMA_GET: kind = MV_MVT_OP_GET; break;
  case MV__K_RMA_ATOMIC: kind = MV_MVT_OP_ACC; break;
  default:
    return 0;
  }
  if (!(f = add(arg, (uint64_t)kind)))
    return -ENOMEM;
  f[1] = mv__ct_comm_sym(in, comm), f[2] = w;
  if (kind == MV_MVT_OP_SYNC)
    return sync_op(in, r, comm, region, f);
  if (kind == MV_MVT_OP_PUT || kind == MV_MVT_OP_GET)
    f[3] = mv__ct_peer(in, comm, r->a), f[4] = r->x, f[5] = r->c & 0xff;
  else if (kind == MV_MVT_OP_ACC)
    f[3] = mv__ct_peer(in, comm, r->a), f[4] = r->x, f[5] = r->c, f[6] = r->z & 0xff,
    f[7] = r->z >> 8 & 0xff;
  return 1;
}
