/* Reads the events of an OTF2 archive through each location's own event reader, always
 * advancing the location that is furthest behind in time by a batch of events: keeps each
 * location's call stack (exclusive time per call path) and turns the MPI payload events of every
 * MPI call into sync records, released to the sink in (leave, location, seq) order through a
 * small reorder heap once every location has read past them, so memory holds only open calls
 * and records not yet final. A location whose events are cut ends alone: the others are read to
 * their end, whichever locations a process reads (the serial and the parallel analysis agree). */
#include <otf2/otf2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reader.h"
#include "mpivet/error.h"
#include "mpivet/grow.h"

static int special(const struct rd *r, uint32_t region)
{
  return region < r->d->nregions ? r->d->regions[region].special : MV__RS_NONE;
}

static void charge(struct rd *r, struct locstate *s, uint64_t t);


static void tl_push(struct rd *r, uint32_t idx, uint64_t t, uint32_t cp)
{
  if (!r->tls)
    return;
  mv__tl_push(r->tls, idx, t, cp);
  if (r->tls->err)
    r->err = r->tls->err;
}

/* Time between a top-level Leave and the next Enter is computation, named after the call site
 * of that Enter (the code that ran there calls it). */
static void charge_gap(struct rd *r, struct locstate *s, uint32_t idx, uint64_t t, uint64_t site)
{
  uint32_t cp = mv__tree_child(r->tree, 0, r->d->comp_region, site);
  if (cp == MV__NONE) {
    r->err = MV_ENOMEM;
    return;
  }
  struct frame f = {cp, r->d->comp_region, s->last};
  struct mv__vec tmp = {&f, 1, 1, sizeof f};
  struct mv__vec saved = s->stack;
  s->stack = tmp;
  charge(r, s, t);     /* charges the top frame: the gap's call path */
  s->stack = saved;
  uint32_t *last = r->tls ? mv__tl_last_cp(r->tls, idx) : NULL;
  if (last && *last == MV__TL_PENDING)
    *last = cp;
}

static void heap_push(struct rd *r, const struct mv__rec *x)
{
  if (mv_grow(&r->heap, &r->capheap, r->nheap + 1, sizeof *r->heap, 256)) {
    r->err = MV_ENOMEM;
    return;
  }
  size_t i = r->nheap++;
  while (i && mv__rec_cmp(x, &r->heap[(i - 1) / 2]) < 0) {
    r->heap[i] = r->heap[(i - 1) / 2];
    i = (i - 1) / 2;
  }
  r->heap[i] = *x;
}

static void heap_pop(struct rd *r, struct mv__rec *out)
{
  *out = r->heap[0];
  struct mv__rec last = r->heap[--r->nheap];
  size_t i = 0;
  for (;;) {
    size_t c = 2 * i + 1;
    if (c >= r->nheap)
      break;
    if (c + 1 < r->nheap && mv__rec_cmp(&r->heap[c + 1], &r->heap[c]) < 0)
      c++;
    if (mv__rec_cmp(&r->heap[c], &last) >= 0)
      break;
    r->heap[i] = r->heap[c];
    i = c;
  }
  if (r->nheap)
    r->heap[i] = last;
}

/* Records with leave < t are final: no location can still produce an earlier one. */
static void release(struct rd *r, uint64_t t, int all)
{
  while (r->nheap && !r->err && (all || r->heap[0].leave < t)) {
    struct mv__rec x;
    heap_pop(r, &x);
    int e = r->sink(r->arg, &x);
    if (e)
      r->err = e;
  }
}

struct locstate *mv__rd_loc(struct rd *r, OTF2_LocationRef ref, uint64_t t, uint32_t *idx)
{
  if (ref != r->last_ref || r->last_idx == MV__NONE) {
    uint64_t *i = mv__map_get(&r->d->loc_index, ref, 0);
    if (!i)
      return NULL;
    r->last_ref = ref;
    r->last_idx = (uint32_t)*i;
  }
  *idx = r->last_idx;
  struct locstate *s = &r->ls[r->last_idx];
  s->pos = t > s->pos ? t : s->pos;
  if (r->tls) {
    struct mv__tl *tl = &r->tls->loc[r->last_idx];
    if (!tl->started)
      tl->first = t, tl->started = 1;
    tl->last = t > tl->last ? t : tl->last;
  }
  s->events++;
  r->events++;
  return s;
}

static void charge(struct rd *r, struct locstate *s, uint64_t t)
{
  if (!s->stack.len)
    return;
  struct frame *top = &MV__VEC_AT(&s->stack, struct frame, s->stack.len - 1);
  if (top->cp >= s->ntime) {
    uint32_t n = r->tree->n > top->cp + 1 ? r->tree->n : top->cp + 1;
    int64_t *nt = realloc(s->time, n * sizeof *nt);
    if (!nt) {
      r->err = MV_ENOMEM;
      return;
    }
    memset(nt + s->ntime, 0, (n - s->ntime) * sizeof *nt);
    s->time = nt;
    s->ntime = n;
  }
  if (t > s->last)
    s->time[top->cp] += (int64_t)(t - s->last);
  s->last = t > s->last ? t : s->last;
}

OTF2_CallbackCode mv__rd_enter(OTF2_LocationRef l, OTF2_TimeStamp t, uint64_t pos, void *u,
                               OTF2_AttributeList *al, OTF2_RegionRef region)
{
  struct rd *r = u;
  (void)pos;
  uint32_t idx;
  struct locstate *s = mv__rd_loc(r, l, t, &idx);
  if (!s)
    return OTF2_CALLBACK_SUCCESS;
  uint64_t site = 0;
  if (al && r->d->callsite_attr != MV__NONE)
    OTF2_AttributeList_GetUint64(al, r->d->callsite_attr, &site);
  if (!s->stack.len && s->started && t > s->last)
    charge_gap(r, s, idx, t, site);
  charge(r, s, t);
  s->last = t;
  s->started = 1;
  uint32_t parent = s->stack.len ? MV__VEC_AT(&s->stack, struct frame, s->stack.len - 1).cp : 0;
  uint32_t cp = mv__tree_child(r->tree, parent, region, site);
  tl_push(r, idx, t, cp);
  if (r->tls && special(r, region) == MV__RS_FINALIZE)
    r->tls->loc[idx].fin_enter = t;
  struct frame *f = mv__vec_push(&s->stack);
  if (cp == MV__NONE || !f) {
    r->err = MV_ENOMEM;
    return OTF2_CALLBACK_INTERRUPT;
  }
  *f = (struct frame){cp, region, t};
  if (region < r->d->nregions && r->d->regions[region].cls != MV__RC_USER) {
    s->mpi_depth = (uint32_t)s->stack.len;
    s->pay.len = 0;
  }
  return r->err ? OTF2_CALLBACK_INTERRUPT : OTF2_CALLBACK_SUCCESS;
}

static void emit(struct rd *r, struct locstate *s, uint32_t idx, const struct frame *f, uint64_t t)
{
  uint16_t nrecv = 0;
  for (size_t i = 0; i < s->pay.len; i++)
    nrecv += MV__VEC_AT(&s->pay, struct payload, i).kind == MV__R_RECV;
  for (size_t i = 0; i < s->pay.len; i++) {
    struct payload *p = &MV__VEC_AT(&s->pay, struct payload, i);
    uint8_t kind = p->kind == MV__R_SEND && special(r, f->region) != MV__RS_BLOCK_SEND ? MV__R_ISEND : p->kind;
    struct mv__rec x = {f->enter, t, idx, s->seq++, f->cp, p->a, p->b, p->c, nrecv, kind, p->sub};
    heap_push(r, &x);
  }
  if (r->emit_mpi) {
    struct mv__rec x = {f->enter, t, idx, s->seq++, f->cp, 0, 0, 0, 0, MV__R_MPI, 0};
    heap_push(r, &x);
  }
  s->pay.len = 0;
}

OTF2_CallbackCode mv__rd_leave(OTF2_LocationRef l, OTF2_TimeStamp t, uint64_t pos, void *u,
                               OTF2_AttributeList *al, OTF2_RegionRef region)
{
  struct rd *r = u;
  uint32_t idx;
  (void)al, (void)region, (void)pos;
  struct locstate *s = mv__rd_loc(r, l, t, &idx);
  if (!s || !s->stack.len)
    return OTF2_CALLBACK_SUCCESS;   /* unbalanced leave: ignored (reported as truncation) */
  charge(r, s, t);
  struct frame f = MV__VEC_AT(&s->stack, struct frame, s->stack.len - 1);
  if (s->mpi_depth == s->stack.len) {
    emit(r, s, idx, &f, t);
    s->mpi_depth = 0;
  }
  if (r->tls && special(r, f.region) == MV__RS_INIT)
    r->tls->loc[idx].init_end = t;
  s->stack.len--;
  s->started = 1;
  tl_push(r, idx, t, s->stack.len ? MV__VEC_AT(&s->stack, struct frame, s->stack.len - 1).cp : MV__TL_PENDING);
  return r->err ? OTF2_CALLBACK_INTERRUPT : OTF2_CALLBACK_SUCCESS;
}

/* Events read from one location at a time: large enough that the reader's call costs nothing,
 * small enough that a location running ahead holds few records in the reorder heap. */
#define BATCH 256

struct mv__reader {
  struct rd r;
  OTF2_Reader *rdr;
  const uint8_t *sel;
  struct mv__store *profile;
  struct mv__read_result res;
  uint32_t *q;          /* min-heap of the locations still being read, by (pos, index) */
  uint32_t nq;
  int done;
};

static int q_less(const struct mv__reader *m, uint32_t a, uint32_t b)
{
  uint64_t pa = m->r.ls[a].pos, pb = m->r.ls[b].pos;
  return pa < pb || (pa == pb && a < b);
}

/* Restore the heap below slot i after its location moved forward in time. */
static void q_down(struct mv__reader *m, uint32_t i)
{
  uint32_t x = m->q[i];
  for (;;) {
    uint32_t c = 2 * i + 1;
    if (c >= m->nq)
      break;
    if (c + 1 < m->nq && q_less(m, m->q[c + 1], m->q[c]))
      c++;
    if (!q_less(m, m->q[c], x))
      break;
    m->q[i] = m->q[c];
    i = c;
  }
  m->q[i] = x;
}

/* Open the selected locations' definitions and event readers; an unreadable one is cut at 0. */
static void open_locations(struct mv__reader *m, OTF2_EvtReaderCallbacks *cb)
{
  struct mv__defs *d = m->r.d;
  for (uint32_t i = 0; i < d->nloc; i++)
    if (!m->sel || m->sel[i])
      OTF2_Reader_SelectLocation(m->rdr, d->loc_ref[i]);
  int have_defs = OTF2_Reader_OpenDefFiles(m->rdr) == OTF2_SUCCESS;
  OTF2_Reader_OpenEvtFiles(m->rdr);
  for (uint32_t i = 0; i < d->nloc; i++) {
    struct locstate *s = &m->r.ls[i];
    if (m->sel && !m->sel[i])
      continue;
    if (have_defs) {
      OTF2_DefReader *dr = OTF2_Reader_GetDefReader(m->rdr, d->loc_ref[i]);
      uint64_t n;
      if (dr && OTF2_Reader_ReadAllLocalDefinitions(m->rdr, dr, &n) != OTF2_SUCCESS)
        s->cut = 1;
      if (dr)
        OTF2_Reader_CloseDefReader(m->rdr, dr);
    }
    s->er = OTF2_Reader_GetEvtReader(m->rdr, d->loc_ref[i]);
    if (s->er && OTF2_Reader_RegisterEvtCallbacks(m->rdr, s->er, cb, &m->r) == OTF2_SUCCESS)
      m->q[m->nq++] = i;
    else
      s->cut = 1;
  }
  if (have_defs)
    OTF2_Reader_CloseDefFiles(m->rdr);
}

int mv__reader_open(void *reader, struct mv__defs *d, const uint8_t *sel, struct mv__tree *tree,
                    struct mv__store *profile, mv__rec_sink sink, void *arg, struct mv__reader **out)
{
  struct mv__reader *m = calloc(1, sizeof *m);
  size_t n = d->nloc ? d->nloc : 1;
  struct locstate *ls = calloc(n, sizeof *ls);
  uint32_t *q = calloc(n, sizeof *q);
  if (!m || !ls || !q) {
    free(m), free(ls), free(q);
    return MV_ENOMEM;
  }
  *out = m;
  *m = (struct mv__reader){.rdr = reader, .sel = sel, .profile = profile, .q = q};
  m->r = (struct rd){.d = d, .tree = tree, .ls = ls, .sink = sink, .arg = arg, .last_idx = MV__NONE,
                     .emit_mpi = d->nwins > 0};
  uint32_t nsel = 0;
  for (uint32_t i = 0; i < d->nloc; i++) {
    mv__vec_init(&ls[i].stack, sizeof(struct frame));
    mv__vec_init(&ls[i].pay, sizeof(struct payload));
    nsel += !sel || sel[i];
  }
  m->done = !nsel;   /* more analysis processes than locations: nothing to read here */
  if (m->done)
    return 0;
  OTF2_EvtReaderCallbacks *cb = mv__rd_callbacks();
  if (!cb)
    return MV_ENOMEM;
  open_locations(m, cb);
  OTF2_EvtReaderCallbacks_Delete(cb);
  for (uint32_t i = m->nq / 2; i-- > 0;)
    q_down(m, i);
  return 0;
}

/* Read one batch of the location furthest behind; it leaves the heap when it ends or is cut. */
static uint64_t read_batch(struct mv__reader *m)
{
  uint32_t i = m->q[0];
  struct locstate *s = &m->r.ls[i];
  uint64_t got = 0;
  OTF2_ErrorCode rc = OTF2_Reader_ReadLocalEvents(m->rdr, s->er, BATCH, &got);
  s->read += got;
  if (m->r.err)
    return got;
  /* OTF2 reports a chunk cut short as an error or as a plain end, depending on where the cut
   * falls and on the I/O callbacks in use: fewer events than the definitions announce is a cut */
  uint64_t announced = m->r.d->loc_events ? m->r.d->loc_events[i] : 0;
  if (rc != OTF2_SUCCESS || (got < BATCH && s->read < announced))
    s->cut = 1;
  if (rc != OTF2_SUCCESS || got < BATCH) {
    OTF2_Reader_CloseEvtReader(m->rdr, s->er);
    s->er = NULL;
    m->q[0] = m->q[--m->nq];
  }
  if (m->nq)
    q_down(m, 0);
  return got;
}

int mv__reader_step(struct mv__reader *m, uint64_t n, int *done, uint64_t *now)
{
  for (uint64_t got = 0; !m->done && got < n;) {
    if (!m->nq || m->r.err) {
      m->done = 1;
      break;
    }
    got += read_batch(m);
    /* every location still read is at or past the first one's time: earlier records are final */
    if (m->nq)
      release(&m->r, m->r.ls[m->q[0]].pos, 0);
  }
  if (m->done)
    release(&m->r, 0, 1);
  *done = m->done;
  *now = m->done ? UINT64_MAX : m->r.ls[m->q[0]].pos;
  return m->r.err;
}

void mv__reader_keep_timelines(struct mv__reader *m, struct mv__tlset *s)
{
  m->r.tls = s;
}

static void flush_profile(struct rd *r, const uint8_t *sel, struct mv__store *profile)
{
  for (uint32_t i = 0; i < r->d->nloc; i++) {
    struct locstate *s = &r->ls[i];
    if (sel && !sel[i])
      continue;
    for (uint32_t cp = 0; cp < s->ntime; cp++)
      mv__store_add(profile, MV__M_TIME, i, cp, s->time[cp]);
  }
}

/* The note on the first location (in definition order, so that every split of the locations
 * among analysis processes names the same one) whose events were cut or end inside open calls. */
static void note_cut(struct rd *r, const uint8_t *sel, struct mv__read_result *res)
{
  for (uint32_t i = 0; i < r->d->nloc; i++) {
    struct locstate *s = &r->ls[i];
    if ((sel && !sel[i]) || (!s->cut && !s->stack.len))
      continue;
    res->truncated = 1;
    char who[64];
    uint32_t rank = r->d->loc_rank ? r->d->loc_rank[i] : MV__NONE;
    if (rank != MV__NONE)
      snprintf(who, sizeof who, "rank %u (location %llu)", rank, (unsigned long long)r->d->loc_ref[i]);
    else
      snprintf(who, sizeof who, "location %llu", (unsigned long long)r->d->loc_ref[i]);
    double at = r->d->resolution && s->pos > r->d->offset ?
                (double)(s->pos - r->d->offset) / (double)r->d->resolution : 0;
    if (s->cut)
      snprintf(res->note, sizeof res->note, "events of %s cut after event %llu of %llu (%.6f s)", who,
               (unsigned long long)s->read, (unsigned long long)r->d->loc_events[i], at);
    else
      snprintf(res->note, sizeof res->note, "%s ends inside %zu open call(s) after event %llu (%.6f s)", who,
               s->stack.len, (unsigned long long)s->events, at);
    return;
  }
}

int mv__reader_close(struct mv__reader *m, struct mv__read_result *res)
{
  struct rd *r = &m->r;
  for (uint32_t k = 0; k < m->nq; k++)
    OTF2_Reader_CloseEvtReader(m->rdr, r->ls[m->q[k]].er);
  for (uint32_t k = 0; k < m->nq; k++)   /* stopped by an error: what was not read counts as cut */
    r->ls[m->q[k]].cut = 1;
  OTF2_Reader_CloseEvtFiles(m->rdr);
  release(r, 0, 1);
  note_cut(r, m->sel, &m->res);
  flush_profile(r, m->sel, m->profile);
  m->res.events = r->events;
  *res = m->res;
  if (r->tls && !r->err)   /* the timelines stay for the root-cause passes, all written */
    r->err = mv__tlset_finish(r->tls);
  for (uint32_t i = 0; i < r->d->nloc; i++) {
    mv__vec_release(&r->ls[i].stack);
    mv__vec_release(&r->ls[i].pay);
    free(r->ls[i].time);
  }
  int err = r->err ? r->err : (m->profile->nomem ? MV_ENOMEM : 0);
  free(r->ls);
  free(r->heap);
  free(m->q);
  free(m);
  return err;
}
