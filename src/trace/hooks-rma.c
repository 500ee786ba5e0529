/* RMA hooks after the thesis's OTF2 model for MPI (chapter 3.1.1): window create/free and
 * fence as RMA collectives, post/start/complete/wait as group syncs, lock requests and
 * releases, RmaPut/Get/Atomic at the start of an operation and its completions at the call
 * that guarantees them: fence and complete record local completion (and remote for gets),
 * unlock and flush local and remote, flush_local and Wait/Test of R* requests local only. */
#include <otf2/OTF2_Events.h>
#include <stdio.h>
#include <stdlib.h>

#include "emit.h"
#include "hooks.h"
#include "state.h"
#include "tables.h"

#define LEVEL_ALL (OTF2_RMA_SYNC_LEVEL_PROCESS | OTF2_RMA_SYNC_LEVEL_MEMORY)

static uint32_t win_id(MPI_Win win)
{
  struct mv__win_ent *w = mv__win(win);
  return w ? w->id : MV__NONE;
}

void mv__pre_rma_coll_begin(struct mv__call *c)
{
  if (c->on)
    mv__emit_at(c->t, MV__K_RMA_COLL_BEGIN, 0, 0, 0, 0, 0, 0);
}

void mv__post_win_new(struct mv__call *c, int ret, MPI_Win win, MPI_Comm comm, int op)
{
  if (ret != MPI_SUCCESS)
    return;
  uint32_t id = mv__new_id(comm, &G.next_win);
  if (G.nwins == G.capwins) {
    void *p = mv__grow(G.wins, &G.capwins, sizeof *G.wins);
    if (!p)
      return;
    G.wins = p;
  }
  struct mv__win_ent *w = &G.wins[G.nwins++];
  w->win = win, w->id = id, w->alloc = op != OTF2_COLLECTIVE_OP_CREATE_HANDLE;
  w->post_group = w->start_group = MV__NONE;
  int rank;
  PMPI_Comm_rank(comm, &rank);
  if (rank == 0)
    mv__def("win %u %u", id, mv__comm_id(comm));
  if (c->on) {
    mv__emit(MV__K_RMA_WIN_CREATE, 0, mv__comm_id(comm), id, 0, 0, 0);
    mv__emit(MV__K_RMA_COLL_END, op, MV__NONE, id, OTF2_RMA_SYNC_LEVEL_PROCESS, 0, 0);
  }
}

static void drop_ops(uint32_t win)
{
  size_t k = 0;
  for (size_t i = 0; i < G.nops; i++)
    if (G.ops[i].win != win)
      G.ops[k++] = G.ops[i];
  G.nops = k;
}

void mv__pre_win_free(struct mv__call *c, MPI_Win win)
{
  struct mv__win_ent *w = mv__win(win);
  c->win = w ? w->id : MV__NONE;
  c->match = w && w->alloc;
  if (w)
    *w = G.wins[--G.nwins];
  drop_ops(c->win);
  if (c->on)
    mv__emit_at(c->t, MV__K_RMA_COLL_BEGIN, 0, 0, 0, 0, 0, 0);
}

void mv__post_win_freed(struct mv__call *c, int ret)
{
  if (!c->on || ret != MPI_SUCCESS)
    return;
  mv__emit(MV__K_RMA_WIN_DESTROY, 0, 0, c->win, 0, 0, 0);
  mv__emit(MV__K_RMA_COLL_END, c->match ? OTF2_COLLECTIVE_OP_DESTROY_HANDLE_AND_DEALLOCATE
                                        : OTF2_COLLECTIVE_OP_DESTROY_HANDLE,
           MV__NONE, c->win, OTF2_RMA_SYNC_LEVEL_PROCESS, 0, 0);
}

/* Completion records for the pending operations of win to target (-1: all targets).
 * remote: also record remote completion (and forget the operation); otherwise record remote
 * completion of gets only, per the thesis, and forget them unless keep_local. */
static void complete_ops(uint32_t win, int target, int remote, int keep_local)
{
  size_t k = 0;
  for (size_t i = 0; i < G.nops; i++) {
    struct mv__rma_op *op = &G.ops[i];
    if (op->win != win || (target >= 0 && op->target != target)) {
      G.ops[k++] = *op;
      continue;
    }
    if (!op->local_done)
      mv__emit(MV__K_RMA_COMPLETE_NB, 0, 0, win, 0, 0, op->match);
    op->local_done = 1;
    if (remote || op->get)
      mv__emit(MV__K_RMA_COMPLETE_REMOTE, 0, 0, win, 0, 0, op->match);
    else if (keep_local)
      G.ops[k++] = *op;
  }
  G.nops = k;
}

void mv__post_fence(struct mv__call *c, int ret, MPI_Win win)
{
  if (!c->on || ret != MPI_SUCCESS)
    return;
  uint32_t id = win_id(win);
  complete_ops(id, -1, 0, 0);
  mv__emit(MV__K_RMA_COLL_END, OTF2_COLLECTIVE_OP_BARRIER, MV__NONE, id, LEVEL_ALL, 0, 0);
}

static uint32_t group_id(MPI_Group group)
{
  int n = 0;
  PMPI_Group_size(group, &n);
  MPI_Group world;
  PMPI_Comm_group(MPI_COMM_WORLD, &world);
  int *in = malloc((size_t)n * sizeof *in), *out = malloc((size_t)n * sizeof *out);
  uint64_t h = 14695981039346656037u ^ (uint64_t)n;
  for (int i = 0; in && out && i < n; i++)
    in[i] = i;
  if (in && out)
    PMPI_Group_translate_ranks(group, n, in, world, out);
  for (int i = 0; in && out && i < n; i++)
    h = (h ^ (uint64_t)(uint32_t)out[i]) * 1099511628211u;
  PMPI_Group_free(&world);
  uint32_t id = MV__NONE;
  for (size_t i = 0; i < G.ngrps && id == MV__NONE; i++)
    if (G.grps[i].hash == h)
      id = G.grps[i].id;
  if (id == MV__NONE && in && out) {
    id = G.next_group++ * (uint32_t)G.size + (uint32_t)G.rank;
    char line[4096];
    size_t used = 0;
    mv__def("group %u %d", id, n);
    for (int i = 0; i < n; i++) {
      used += (size_t)snprintf(line + used, sizeof line - used, " %d", out[i]);
      if (i % 256 == 255 || i == n - 1)
        mv__def("group-members %u%s", id, line), used = 0;
    }
    if (G.ngrps == G.capgrps) {
      void *p = mv__grow(G.grps, &G.capgrps, sizeof *G.grps);
      if (p)
        G.grps = p;
    }
    if (G.ngrps < G.capgrps)
      G.grps[G.ngrps].hash = h, G.grps[G.ngrps++].id = id;
  }
  free(in);
  free(out);
  return id;
}

void mv__post_group_sync(struct mv__call *c, int ret, MPI_Win win, MPI_Group group)
{
  if (!c->on || ret != MPI_SUCCESS)
    return;
  struct mv__win_ent *w = mv__win(win);
  uint32_t g = group_id(group);
  if (w && c->region == MV__R_MPI_Win_post)
    w->post_group = g;
  else if (w)
    w->start_group = g;
  mv__emit(MV__K_RMA_GROUP_SYNC, OTF2_RMA_SYNC_LEVEL_PROCESS, 0, w ? w->id : MV__NONE, g, 0, 0);
}

void mv__post_win_complete(struct mv__call *c, int ret, MPI_Win win)
{
  struct mv__win_ent *w = mv__win(win);
  if (!c->on || ret != MPI_SUCCESS || !w)
    return;
  complete_ops(w->id, -1, 0, 0);
  mv__emit(MV__K_RMA_GROUP_SYNC, LEVEL_ALL, 0, w->id, w->start_group, 0, 0);
}

void mv__post_win_wait(struct mv__call *c, int ret, MPI_Win win, int done)
{
  struct mv__win_ent *w = mv__win(win);
  if (c->on && ret == MPI_SUCCESS && w && done)
    mv__emit(MV__K_RMA_GROUP_SYNC, LEVEL_ALL, 0, w->id, w->post_group, 0, 0);
}

/* A lock is named by its window and target, so all origins contending for it share the id. */
static uint64_t lock_id(uint32_t win, int rank)
{
  return (uint64_t)win << 32 | (uint32_t)rank;
}

void mv__pre_lock(struct mv__call *c, int type, int rank, MPI_Win win)
{
  if (!c->on)
    return;
  uint32_t id = win_id(win);
  mv__emit_at(c->t, MV__K_RMA_REQUEST_LOCK, type == MPI_LOCK_EXCLUSIVE ? OTF2_LOCK_EXCLUSIVE
              : OTF2_LOCK_SHARED, rank < 0 ? MV__NONE : (uint32_t)rank, id, 0, lock_id(id, rank), 0);
}

void mv__post_unlock(struct mv__call *c, int ret, int rank, MPI_Win win)
{
  if (!c->on || ret != MPI_SUCCESS)
    return;
  uint32_t id = win_id(win);
  complete_ops(id, rank, 1, 0);
  mv__emit(MV__K_RMA_RELEASE_LOCK, 0, rank < 0 ? MV__NONE : (uint32_t)rank, id, 0,
           lock_id(id, rank), 0);
}

void mv__post_flush(struct mv__call *c, int ret, int rank, MPI_Win win, int remote)
{
  if (!c->on || ret != MPI_SUCCESS)
    return;
  uint32_t id = win_id(win);
  mv__emit(MV__K_RMA_SYNC, OTF2_RMA_SYNC_TYPE_MEMORY, rank < 0 ? MV__NONE : (uint32_t)rank, id,
           0, 0, 0);
  complete_ops(id, rank, remote, 1);
}

void mv__post_win_sync(struct mv__call *c, int ret, MPI_Win win)
{
  if (c->on && ret == MPI_SUCCESS)
    mv__emit(MV__K_RMA_SYNC, OTF2_RMA_SYNC_TYPE_MEMORY, (uint32_t)G.rank, win_id(win), 0, 0, 0);
}

static const int atomic_type[] = {
  [MV_RMA_ACC] = OTF2_RMA_ATOMIC_TYPE_ACCUMULATE,
  [MV_RMA_GET_ACC] = OTF2_RMA_ATOMIC_TYPE_FETCH_AND_ACCUMULATE,
  [MV_RMA_FETCH_OP] = OTF2_RMA_ATOMIC_TYPE_FETCH_AND_ACCUMULATE,
  [MV_RMA_CAS] = OTF2_RMA_ATOMIC_TYPE_COMPARE_AND_SWAP,
};

void mv__pre_rma_op(struct mv__call *c, int kind, int target, uint64_t sent, uint64_t received,
                    uint32_t how, MPI_Win win)
{
  if (!c->on)
    return;
  c->win = win_id(win);
  c->match = ++G.next_match;
  if (kind == MV_RMA_PUT || kind == MV_RMA_GET)
    mv__emit_at(c->t, kind == MV_RMA_PUT ? MV__K_RMA_PUT : MV__K_RMA_GET, 0, (uint32_t)target,
                c->win, how, kind == MV_RMA_PUT ? sent : received, c->match);
  else
    mv__emit_z(c->t, MV__K_RMA_ATOMIC, atomic_type[kind], (uint32_t)target, c->win,
               (uint32_t)received, sent, c->match, how);
  if (G.nops == G.capops) {
    void *p = mv__grow(G.ops, &G.capops, sizeof *G.ops);
    if (!p)
      return;
    G.ops = p;
  }
  G.ops[G.nops++] = (struct mv__rma_op){c->win, target, kind == MV_RMA_GET, 0, c->match};
}

void mv__rma_local_done(uint32_t win, uint64_t match)
{
  mv__emit(MV__K_RMA_COMPLETE_NB, 0, 0, win, 0, 0, match);
  for (size_t i = 0; i < G.nops; i++)
    if (G.ops[i].match == match)
      G.ops[i].local_done = 1;
}
