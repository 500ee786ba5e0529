/* Input of the root-cause and critical-path passes: the recorded wait states per waiting
 * location (by enter), each location's synchronization points (both sides of every wait state,
 * every member of a synchronizing collective; by leave), read back from their streams
 * (causes.c), and time per call path over an interval of a location's timeline. */
#include <stdlib.h>
#include <string.h>

#include "rootcause.h"
#include "mpivet/error.h"

void mv__rc_input_build(struct mv__rc_input *in, struct mv__defs *d, struct mv__tlset *tls,
                        const struct mv__causes *causes)
{
  const struct mv__tl *tl = tls ? tls->loc : NULL;
  memset(in, 0, sizeof *in);
  in->d = d, in->tls = tls, in->tl = tl, in->nloc = d->nloc;
  in->waits = causes->waits, in->syncs = causes->syncs;
  for (uint32_t l = 0; l < in->nloc; l++)
    in->nw += in->waits->loc[l].n;
  in->init_done = UINT64_MAX;
  for (uint32_t l = 0; tl && l < in->nloc; l++)
    if (tl[l].init_end > tl[l].first && tl[l].init_end < in->init_done)
      in->init_done = tl[l].init_end;
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

uint64_t mv__rc_prev_sync(struct mv__rc_input *in, uint32_t loc, uint32_t other, uint64_t t, uint64_t tl,
                          uint64_t *done)
{
  uint64_t k = t == UINT64_MAX ? in->syncs->loc[loc].n : mv__tl_find(&in->scur, in->syncs, loc, t + 1);
  while (k-- > 0) {   /* from the last point with leave <= t backwards */
    const void *item = mv__tl_item(&in->scur, in->syncs, loc, k);
    struct mv__sp p;
    if (!item)
      break;
    memcpy(&p, item, sizeof p);
    if (p.enter == t && p.leave == tl)
      continue;   /* the synchronizing call itself (it may take no time: SMPI's last entrant) */
    if (p.partner == other || (p.partner == MV__NONE && in_comm(in->d, p.comm, other, loc))) {
      *done = p.done;
      return p.leave;
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

int mv__rc_wait(struct mv__rc_input *in, struct mv__tlcur *c, uint32_t loc, uint64_t k, struct mv__wait *w)
{
  const void *item = mv__tl_item(c, in->waits, loc, k);
  if (item)
    memcpy(w, item, sizeof *w);
  return item != NULL;
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
