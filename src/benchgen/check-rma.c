/* The matching check through one-sided synchronisation (check.c runs it; fences, window
 * creation and free are collectives there). As for sends, every call that MPI allows to block
 * is taken to block, so a trace whose replay could hang is reported:
 *  - post/start/complete/wait: the k-th start of origin o naming target t waits for the k-th
 *    post of t naming o (MPI lets MPI_Win_start block until then); the k-th wait (or the
 *    MPI_Win_test that found the epoch over) of t waits for the k-th complete of every origin
 *    of its post group; post and complete never block;
 *  - passive target: MPI_Win_lock waits until no other rank holds the target's window lock
 *    exclusively (and, for an exclusive lock, until no one holds it shared); MPI_Win_lock_all
 *    takes shared locks on every member at once; unlock releases; flushes and Win_sync never
 *    block (they complete the caller's own operations).
 * Windows are told apart by their symbol (its creation number agreed over its communicator). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "mpivet/error.h"

enum { EXPOSE, ACCESS };   /* counters of a (window, origin, target): post/start, complete/wait */

static uint64_t epoch_key(uint32_t w, uint32_t origin, uint32_t target, int which)
{
  return mv__bg_hkey(-4, origin, target, (uint64_t)w << 1 | (uint64_t)which);
}

/* Send counter: the exclusive holder's rank + 1 (0 none); receive counter: shared holders. */
static uint64_t lock_key(uint32_t w, uint32_t target)
{
  return mv__bg_hkey(-5, w, target, 0);
}

static struct wgroups *groups_of(struct rank *R, uint32_t w)
{
  for (size_t i = 0; i < R->nwg; i++)
    if (R->wg[i].w == w)
      return &R->wg[i];
  struct wgroups *p = realloc(R->wg, (R->nwg + 1) * sizeof *p);
  if (!p)
    return NULL;
  R->wg = p;
  p[R->nwg] = (struct wgroups){w, {NULL, NULL}, {0, 0}};
  return &p[R->nwg++];
}

static int wait_for(struct rank *R, uint64_t key, uint64_t ord)
{
  if (R->nwait == R->capwait) {
    size_t cap = R->capwait ? R->capwait * 2 : 8;
    struct pend *p = realloc(R->wait, cap * sizeof *p);
    if (!p)
      return MV_ENOMEM;
    R->wait = p, R->capwait = cap;
  }
  R->wait[R->nwait++] = (struct pend){key, ord, 1, 1};
  return 0;
}

/* The signalling side of key h counts once (post, complete; wait 0), or the waiting side takes
 * its turn and R waits until the signals pass it (start, wait; wait 1). */
static int count_turn(struct sim *s, struct rank *R, uint64_t h, int wait)
{
  long k = mv__bg_key(s, h);
  if (k < 0)
    return MV_ENOMEM;
  if (!wait)
    return s->sends[k]++, 0;
  return wait_for(R, h, s->recvs[k]++);
}

/* The world rank of member peer (relative to r) of communicator sym; -1 when r has none. */
static long member(const struct sim *s, uint32_t r, uint32_t sym, int64_t peer)
{
  const struct view *v = mv__bg_view(s, r, sym);
  if (!v)
    return -1;
  if (!v->m)
    return r;
  return v->m[((int64_t)v->me + peer % (int64_t)v->n + (int64_t)v->n) % (int64_t)v->n];
}

/* Post (which 0) or start (1): keeps the group; a start waits for the targets' posts. */
static int group(struct sim *s, uint32_t r, const struct mv_mvt_sig *g, int which)
{
  struct rank *R = &s->ranks[r];
  struct wgroups *wg = groups_of(R, g->ops[0].win);
  uint32_t *m = wg ? realloc(wg->grp[which], g->nops * sizeof *m) : NULL;
  if (!m)
    return MV_ENOMEM;
  wg->grp[which] = m, wg->n[which] = g->nops;
  for (size_t i = 0; i < g->nops; i++) {
    long x = member(s, r, g->ops[i].comm, g->ops[i].peer);
    if (x < 0)
      return snprintf(s->msg, s->msgsize, "rank %" PRIu32 " names a group member in communicator %" PRIu32
                      " but belongs to none with that number", r, g->ops[i].comm), MV_EPARSE;
    m[i] = (uint32_t)x;
    int rc = which == 0 ? count_turn(s, R, epoch_key(wg->w, m[i], r, EXPOSE), 0)
                        : count_turn(s, R, epoch_key(wg->w, r, m[i], EXPOSE), 1);
    if (rc)
      return rc;
  }
  return 0;
}

/* Complete (which 1: counts for the start group) or wait (0: waits for the post group). */
static int epoch_end(struct sim *s, uint32_t r, uint32_t w, int which)
{
  struct rank *R = &s->ranks[r];
  struct wgroups *wg = groups_of(R, w);
  if (!wg)
    return MV_ENOMEM;
  for (size_t i = 0; i < wg->n[which]; i++) {
    uint32_t x = wg->grp[which][i];
    int rc = which == 1 ? count_turn(s, R, epoch_key(w, r, x, ACCESS), 0) : count_turn(s, R, epoch_key(w, x, r, ACCESS), 1);
    if (rc)
      return rc;
  }
  wg->n[which] = 0;
  return 0;
}

/* Lock (excl 1 exclusive, 0 shared) of target x, or with all set every member of the window's
 * communicator: 1 taken, 0 not free, < 0 an error. */
static int lock(struct sim *s, uint32_t r, const struct mv_mvt_opv *o, int excl, int all)
{
  const struct view *v = mv__bg_view(s, r, o->comm);
  size_t n = all && v && v->m ? v->n : 1;
  for (int take = 0; take < 2; take++)
    for (size_t i = 0; i < n; i++) {
      long x = all && v && v->m ? (long)v->m[i] : member(s, r, o->comm, o->peer);
      if (x < 0)
        return snprintf(s->msg, s->msgsize, "rank %" PRIu32 " locks a window of communicator %" PRIu32
                        " but belongs to none with that number", r, o->comm), MV_EPARSE;
      long k = mv__bg_key(s, lock_key(o->win, (uint32_t)x));
      if (k < 0)
        return MV_ENOMEM;
      if (!take && (s->sends[k] || (excl && s->recvs[k])))
        return 0;
      if (take && excl)
        s->sends[k] = (uint64_t)r + 1;
      else if (take)
        s->recvs[k]++;
    }
  return 1;
}

static int unlock(struct sim *s, uint32_t r, const struct mv_mvt_opv *o, int all)
{
  const struct view *v = mv__bg_view(s, r, o->comm);
  size_t n = all && v && v->m ? v->n : 1;
  for (size_t i = 0; i < n; i++) {
    long x = all && v && v->m ? (long)v->m[i] : member(s, r, o->comm, o->peer);
    long k = x < 0 ? -1 : mv__bg_key(s, lock_key(o->win, (uint32_t)x));
    if (k < 0)
      return x < 0 ? 0 : MV_ENOMEM;  /* an unknown target was refused at its lock */
    if (s->sends[k] == (uint64_t)r + 1)
      s->sends[k] = 0;
    else if (s->recvs[k])
      s->recvs[k]--;
  }
  return 0;
}

static int sync_call(struct sim *s, uint32_t r, const struct mv_mvt_sig *g)
{
  const struct mv_mvt_opv *o = &g->ops[0];
  int all = (o->flags & MV_MVT_ALL_TARGETS) != 0;
  if (!strcmp(g->func, "MPI_Win_lock") || !strcmp(g->func, "MPI_Win_lock_all"))
    return lock(s, r, o, (o->flags & MV_MVT_EXCLUSIVE) != 0, all);
  int rc = 0;
  if (!strcmp(g->func, "MPI_Win_unlock") || !strcmp(g->func, "MPI_Win_unlock_all"))
    rc = unlock(s, r, o, all);
  return rc ? rc : 1;   /* flushes and Win_sync: the caller's own operations */
}

int mv__bg_check_rma(struct sim *s, uint32_t r, const struct mv_mvt_sig *g)
{
  struct rank *R = &s->ranks[r];
  if (R->stage == 0) {
    int rc = 0;
    R->nwait = 0;
    if (!strcmp(g->func, "MPI_Win_post") || !strcmp(g->func, "MPI_Win_start"))
      rc = group(s, r, g, !strcmp(g->func, "MPI_Win_start"));
    else if (!strcmp(g->func, "MPI_Win_complete"))
      rc = epoch_end(s, r, g->ops[0].win, 1);
    else if (!strcmp(g->func, "MPI_Win_wait") || !strcmp(g->func, "MPI_Win_test"))
      rc = epoch_end(s, r, g->ops[0].win, 0);
    else
      return sync_call(s, r, g);
    if (rc)
      return rc;
    R->stage = 1;
  }
  for (size_t i = 0; i < R->nwait; i++)
    if (!mv__bg_matched(s, &R->wait[i]))
      return 0;
  return 1;
}

void mv__bg_check_rma_release(struct rank *R)
{
  for (size_t i = 0; i < R->nwg; i++)
    free(R->wg[i].grp[0]), free(R->wg[i].grp[1]);
  free(R->wg), free(R->wait);
  R->wg = NULL, R->wait = NULL;
}
