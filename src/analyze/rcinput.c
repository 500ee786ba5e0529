/* Input of the root-cause and critical-path passes: the recorded wait states ordered for the
 * backward passes and indexed per waiting location, each location's synchronization points
 * (both sides of every wait state, every member of a synchronizing collective) and time per
 * call path over an interval of a location's timeline. */
#include <stdlib.h>
#include <string.h>

#include "rootcause.h"
#include "mpivet/error.h"

static const struct mv__wait *sort_w;

static uint64_t wait_end(const struct mv__wait *w)
{
  return w->wenter + w->amount;
}

/* Latest end of waiting first; ties in a fixed order. */
static int by_end_desc(const void *x, const void *y)
{
  const struct mv__wait *a = &sort_w[*(const size_t *)x], *b = &sort_w[*(const size_t *)y];
  if (wait_end(a) != wait_end(b))
    return wait_end(a) > wait_end(b) ? -1 : 1;
  if (a->wloc != b->wloc)
    return a->wloc > b->wloc ? -1 : 1;
  if (a->wenter != b->wenter)
    return a->wenter > b->wenter ? -1 : 1;
  if (a->metric != b->metric)
    return a->metric > b->metric ? -1 : 1;
  if (a->dloc != b->dloc)
    return a->dloc > b->dloc ? -1 : 1;
  return (a->denter < b->denter) - (a->denter > b->denter);
}

static int by_enter(const void *x, const void *y)
{
  const struct mv__wait *a = &sort_w[*(const size_t *)x], *b = &sort_w[*(const size_t *)y];
  if (a->wenter != b->wenter)
    return a->wenter < b->wenter ? -1 : 1;
  return (*(const size_t *)x > *(const size_t *)y) - (*(const size_t *)x < *(const size_t *)y);
}

static int by_leave(const void *x, const void *y)
{
  const struct mv__sp *a = x, *b = y;
  if (a->leave != b->leave)
    return a->leave < b->leave ? -1 : 1;
  if (a->partner != b->partner)
    return a->partner < b->partner ? -1 : 1;
  return (a->comm > b->comm) - (a->comm < b->comm);
}

static int index_waits(struct mv__rc_input *in)
{
  size_t n = in->nw, nl = in->nloc;
  in->order = malloc((n + 1) * sizeof *in->order);
  in->wl = malloc((n + 1) * sizeof *in->wl);
  in->wl_off = calloc(nl + 2, sizeof *in->wl_off);
  if (!in->order || !in->wl || !in->wl_off)
    return MV_ENOMEM;
  for (size_t i = 0; i < n; i++) {
    in->order[i] = i;
    in->wl_off[in->w[i].wloc + 2]++;
  }
  for (size_t l = 0; l < nl; l++)
    in->wl_off[l + 2] += in->wl_off[l + 1];
  for (size_t i = 0; i < n; i++)
    in->wl[in->wl_off[in->w[i].wloc + 1]++] = i;
  sort_w = in->w;
  qsort(in->order, n, sizeof *in->order, by_end_desc);
  for (size_t l = 0; l < nl; l++)
    qsort(in->wl + in->wl_off[l], in->wl_off[l + 1] - in->wl_off[l], sizeof *in->wl, by_enter);
  return 0;
}

/* When a call [enter, leave] synchronizing with a partner that left at pl could end: the earlier
 * leave, within the call (Scalasca's completion time is leave minus this). */
static uint64_t pair_done(uint64_t enter, uint64_t leave, uint64_t pl)
{
  uint64_t t = pl < leave ? pl : leave;
  return t > enter ? t : enter;
}

static int index_syncs(struct mv__rc_input *in, const struct mv__causes *causes)
{
  size_t nl = in->nloc, ncs = causes->csyncs.len, n = 2 * in->nw + ncs;
  in->sp = malloc((n + 1) * sizeof *in->sp);
  in->sp_off = calloc(nl + 2, sizeof *in->sp_off);
  if (!in->sp || !in->sp_off)
    return MV_ENOMEM;
  const struct mv__csync *cs = causes->csyncs.data;
  for (size_t i = 0; i < in->nw; i++)
    in->sp_off[in->w[i].wloc + 2]++, in->sp_off[in->w[i].dloc + 2]++;
  for (size_t i = 0; i < ncs; i++)
    in->sp_off[cs[i].loc + 2]++;
  for (size_t l = 0; l < nl; l++)
    in->sp_off[l + 2] += in->sp_off[l + 1];
  for (size_t i = 0; i < in->nw; i++) {
    const struct mv__wait *w = &in->w[i];
    in->sp[in->sp_off[w->wloc + 1]++] =
        (struct mv__sp){w->wenter, pair_done(w->wenter, w->wleave, w->dleave), w->wleave, w->dloc, 0};
    in->sp[in->sp_off[w->dloc + 1]++] =
        (struct mv__sp){w->denter, pair_done(w->denter, w->dleave, w->wleave), w->dleave, w->wloc, 0};
  }
  for (size_t i = 0; i < ncs; i++)
    in->sp[in->sp_off[cs[i].loc + 1]++] =
        (struct mv__sp){cs[i].enter, cs[i].done, cs[i].leave, MV__NONE, cs[i].comm};
  for (size_t l = 0; l < nl; l++)
    qsort(in->sp + in->sp_off[l], in->sp_off[l + 1] - in->sp_off[l], sizeof *in->sp, by_leave);
  return 0;
}

int mv__rc_input_build(struct mv__rc_input *in, struct mv__defs *d, struct mv__tlset *tls,
                       const struct mv__causes *causes)
{
  const struct mv__tl *tl = tls ? tls->loc : NULL;
  memset(in, 0, sizeof *in);
  in->d = d, in->tls = tls, in->tl = tl, in->nloc = d->nloc;
  in->w = causes->waits.data, in->nw = causes->waits.len;
  for (size_t i = 0; i < in->nw; i++)
    if (in->w[i].wloc >= d->nloc || in->w[i].dloc >= d->nloc)
      return MV_EPARSE;
  for (size_t i = 0; i < causes->csyncs.len; i++)
    if (((const struct mv__csync *)causes->csyncs.data)[i].loc >= d->nloc)
      return MV_EPARSE;
  in->init_done = UINT64_MAX;
  for (uint32_t l = 0; tl && l < in->nloc; l++)
    if (tl[l].init_end > tl[l].first && tl[l].init_end < in->init_done)
      in->init_done = tl[l].init_end;
  int err = index_waits(in);
  return err ? err : index_syncs(in, causes);
}

void mv__rc_input_release(struct mv__rc_input *in)
{
  free(in->order), free(in->wl), free(in->wl_off), free(in->sp), free(in->sp_off);
  memset(in, 0, sizeof *in);
}

static int in_comm(struct mv__defs *d, uint32_t comm, uint32_t loc, uint32_t self)
{
  uint32_t n = mv__comm_size(d, comm);
  if (n == d->nloc && n)
    return 1;
  for (uint32_t i = 0; i < n; i++)
    if (mv__comm_loc(d, comm, i, self) == loc)
      return 1;
  return 0;
}

uint64_t mv__rc_prev_sync(const struct mv__rc_input *in, uint32_t loc, uint32_t other, uint64_t t, uint64_t tl,
                          uint64_t *done)
{
  size_t lo = in->sp_off[loc], hi = in->sp_off[loc + 1];
  while (lo < hi) {   /* first point with leave > t */
    size_t mid = (lo + hi) / 2;
    if (in->sp[mid].leave <= t)
      lo = mid + 1;
    else
      hi = mid;
  }
  for (size_t k = lo; k-- > in->sp_off[loc];) {
    const struct mv__sp *p = &in->sp[k];
    if (p->enter == t && p->leave == tl)
      continue;   /* the synchronizing call itself (it may take no time: SMPI's last entrant) */
    if (p->partner == other || (p->partner == MV__NONE && in_comm(in->d, p->comm, other, loc))) {
      *done = p->done;
      return p->leave;
    }
  }
  const struct mv__tl *x = in->tl ? &in->tl[loc] : NULL;
  if (x && x->init_end > x->first && x->init_end <= t) {   /* MPI_Init: could end at its earliest leave */
    *done = in->init_done > x->first ? in->init_done : x->first;
    return x->init_end;
  }
  *done = x ? x->first : 0;
  return *done;
}

size_t mv__rc_waits_from(const struct mv__rc_input *in, uint32_t loc, uint64_t from)
{
  size_t lo = in->wl_off[loc], hi = in->wl_off[loc + 1];
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    if (in->w[in->wl[mid]].wenter < from)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

void mv__rc_times(const struct mv__rc_input *in, uint32_t loc, uint64_t a, uint64_t b,
                  void (*fn)(void *arg, uint32_t cp, uint64_t dt), void *arg)
{
  if (!in->tls || !in->tl[loc].n || b <= a)
    return;
  struct mv__tlcur c;
  uint64_t s, e;
  uint32_t cp;
  for (mv__tl_seek(&c, in->tls, loc, a); mv__tl_next(&c, &s, &e, &cp) && s < b;) {
    s = s > a ? s : a;
    e = e < b ? e : b;
    if (e > s && cp < MV__TL_PENDING && cp)
      fn(arg, cp, e - s);
  }
}
