/* Entry point of the analysis: read definitions, replay the events of this process's
 * locations through the engine (serially, or in parallel, routing every record to the processes
 * that need it in rounds of STEP_EVENTS), then merge the parts on process 0. Also the queries. */
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <otf2/otf2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "result.h"
#include "mpivet/error.h"

struct serial_sink {
  struct mv__engine *e;
};

static int feed_engine(void *arg, const struct mv__rec *r)
{
  return mv__engine_feed(((struct serial_sink *)arg)->e, r);
}

/* Parallel mode: records are routed to every process that computes an instance with them. */
struct router {
  struct mv__defs *d;
  int size;
  struct mv__vec *out;    /* per process: struct mv__rec */
  uint8_t *mark;
};

static int route_to(struct router *rt, uint32_t loc)
{
  if (loc >= rt->d->nloc)
    return 0;
  rt->mark[mv__owner(loc, rt->d->nloc, rt->size)] = 1;
  return 0;
}

static void route_comm(struct router *rt, uint32_t comm, uint32_t self)
{
  uint32_t n = mv__comm_size(rt->d, comm);
  for (uint32_t i = 0; i < n; i++)
    route_to(rt, mv__comm_loc(rt->d, comm, i, self));
}

static int route(void *arg, const struct mv__rec *r)
{
  struct router *rt = arg;
  memset(rt->mark, 0, (size_t)rt->size);
  route_to(rt, r->loc);
  switch (r->kind) {
  case MV__R_SEND: case MV__R_ISEND: case MV__R_RECV: case MV__R_RMAOP:
  case MV__R_LOCK: case MV__R_UNLOCK:
    route_to(rt, r->b);
    break;
  case MV__R_COLL:
    route_comm(rt, r->a, r->loc);
    break;
  case MV__R_RCOLL:
    if (r->a < rt->d->nwins)
      route_comm(rt, rt->d->win_comm[r->a], r->loc);
    break;
  case MV__R_GSYNC: {
    uint32_t n;
    const uint64_t *m = mv__group_members(rt->d, r->c, &n);
    for (uint32_t i = 0; i < n; i++)
      if (m[i] < rt->d->nranks)
        route_to(rt, rt->d->rank_loc[m[i]]);
    break;
  }
  default:
    break;
  }
  for (int p = 0; p < rt->size; p++) {
    struct mv__rec *slot = rt->mark[p] ? mv__vec_push(&rt->out[p]) : NULL;
    if (rt->mark[p] && !slot)
      return MV_ENOMEM;
    if (slot)
      *slot = *r;
  }
  return 0;
}

struct run {
  const char *anchor;
  OTF2_Reader *reader;
  struct mv__defs defs;
  struct mv__tree tree;
  struct mv__store store;
  struct mv__read_result rr;
  uint8_t *local;
  struct mv__engine *engine;
  struct mv__tlset *tls;       /* timelines of this process's locations */
  struct mv__causes causes;    /* wait states with their causes, synchronization points */
  struct mv__causes merged;    /* --np, process 0: those of every process */
};

/* Events each process reads between two exchanges: bounds the records held in memory.
 * MPIVET_ANALYZE_STEP overrides it (the tests use tiny steps to exercise many rounds). */
#define STEP_EVENTS (1u << 20)

static uint64_t step_events(void)
{
  const char *s = getenv("MPIVET_ANALYZE_STEP");
  long long n = s ? atoll(s) : 0;
  return n > 0 ? (uint64_t)n : STEP_EVENTS;
}

struct hdr {
  uint64_t now, count;
};
struct run_head {
  const struct mv__rec *p, *end;
};

/* Send every process its routed records, prefixed by this process's watermark. */
static int send_round(const struct mv_analyze_exchange *ex, struct router *rt, uint64_t now, void **recv,
                      size_t *rlen)
{
  void **send = calloc((size_t)ex->size, sizeof *send);
  size_t *lens = calloc((size_t)ex->size, sizeof *lens);
  int err = !send || !lens ? MV_ENOMEM : 0;
  for (int p = 0; p < ex->size && !err; p++) {
    struct hdr h = {now, rt->out[p].len};
    lens[p] = sizeof h + rt->out[p].len * sizeof(struct mv__rec);
    if (!(send[p] = malloc(lens[p]))) {
      err = MV_ENOMEM;
      break;
    }
    memcpy(send[p], &h, sizeof h);
    if (rt->out[p].len)
      memcpy((char *)send[p] + sizeof h, rt->out[p].data, rt->out[p].len * sizeof(struct mv__rec));
    rt->out[p].len = 0;
  }
  if (err && lens)   /* still take part, with nothing to send */
    memset(lens, 0, (size_t)ex->size * sizeof *lens);
  int xerr = ex->alltoallv(ex->ctx, send, lens, recv, rlen);
  for (int p = 0; send && p < ex->size; p++)
    free(send[p]);
  free(send);
  free(lens);
  return err ? err : xerr;
}

/* Merge the sorted runs received (each process releases records in order) with the records kept
 * from earlier rounds; feed the engine every record with leave below the lowest watermark (no
 * process can still produce an earlier one) and keep the rest. */
static int merge_feed(struct mv__engine *e, const char *buf, size_t len, int nproc, struct mv__vec *pending,
                      int *all_done)
{
  struct run_head *runs = malloc(((size_t)nproc + 1) * sizeof *runs);
  struct mv__vec merged;
  uint64_t w = len ? UINT64_MAX : 0;
  size_t off = 0, total = pending->len;
  int nruns = 0, err = runs ? 0 : MV_ENOMEM;
  for (int p = 0; runs && p < nproc && len - off >= sizeof(struct hdr); p++) {
    struct hdr h;
    memcpy(&h, buf + off, sizeof h);
    off += sizeof h;
    size_t n = h.count <= (len - off) / sizeof(struct mv__rec) ? (size_t)h.count : 0;
    const struct mv__rec *first = (const struct mv__rec *)(const void *)(buf + off);
    w = h.now < w ? h.now : w;
    runs[nruns++] = (struct run_head){first, first + n};
    off += n * sizeof(struct mv__rec);
    total += n;
  }
  if (runs)
    runs[nruns++] = (struct run_head){pending->data, (const struct mv__rec *)pending->data + pending->len};
  mv__vec_init(&merged, sizeof(struct mv__rec));
  for (size_t i = 0; i < total && !err; i++) {
    int best = -1;
    for (int k = 0; k < nruns; k++)
      if (runs[k].p < runs[k].end && (best < 0 || mv__rec_cmp(runs[k].p, runs[best].p) < 0))
        best = k;
    if (runs[best].p->leave < w) {
      err = mv__engine_feed(e, runs[best].p++);
    } else {
      struct mv__rec *slot = mv__vec_push(&merged);
      err = slot ? (*slot = *runs[best].p++, 0) : MV_ENOMEM;
    }
  }
  free(runs);
  mv__vec_release(pending);
  *pending = merged;
  *all_done = w == UINT64_MAX;
  return err;
}

static int replay_parallel(struct run *r, const struct mv_analyze_exchange *ex)
{
  struct router rt = {&r->defs, ex->size, calloc((size_t)ex->size, sizeof(struct mv__vec)),
                      calloc((size_t)ex->size, 1)};
  struct mv__vec pending;
  struct mv__reader *m = NULL;
  mv__vec_init(&pending, sizeof(struct mv__rec));
  int err = !rt.out || !rt.mark ? MV_ENOMEM : 0, all_done = 0;
  for (int p = 0; p < ex->size && !err; p++)
    mv__vec_init(&rt.out[p], sizeof(struct mv__rec));
  if (!err)
    err = mv__reader_open(r->reader, &r->defs, r->local, &r->tree, &r->store, route, &rt, &m);
  if (m)
    mv__reader_keep_timelines(m, r->tls);
  uint64_t step = step_events();
  /* every process takes part in every round until all are done, even after a local failure */
  while (!all_done) {
    int done = 1;
    uint64_t now = UINT64_MAX;
    if (!err && m)
      err = mv__reader_step(m, step, &done, &now);
    if (err)
      now = UINT64_MAX;
    void *recv = NULL;
    size_t rlen = 0;
    int xerr = rt.out ? send_round(ex, &rt, now, &recv, &rlen) : MV_ENOMEM;
    int ferr = xerr ? 0 : merge_feed(r->engine, recv, rlen, ex->size, &pending, &all_done);
    free(recv);
    err = err ? err : (xerr ? xerr : ferr);
    if (xerr)
      break;   /* the exchange itself failed: no agreement is possible any more */
  }
  int cerr = m ? mv__reader_close(m, &r->rr) : 0;
  for (int p = 0; rt.out && p < ex->size; p++)
    mv__vec_release(&rt.out[p]);
  free(rt.out);
  free(rt.mark);
  mv__vec_release(&pending);
  return err ? err : cerr;
}

static int replay(struct run *r, const struct mv_analyze_exchange *ex)
{
  int size = ex ? ex->size : 1, rank = ex ? ex->rank : 0;
  for (uint32_t i = 0; i < r->defs.nloc; i++)
    r->local[i] = mv__owner(i, r->defs.nloc, size) == (uint32_t)rank;
  if (ex)
    return replay_parallel(r, ex);
  struct serial_sink s = {r->engine};
  struct mv__reader *m = NULL;
  int done = 0, err = mv__reader_open(r->reader, &r->defs, NULL, &r->tree, &r->store, feed_engine, &s, &m);
  if (m)
    mv__reader_keep_timelines(m, r->tls);
  uint64_t now;
  while (!err && !done)
    err = mv__reader_step(m, UINT64_MAX, &done, &now);
  int cerr = m ? mv__reader_close(m, &r->rr) : 0;
  return err ? err : cerr;
}

/* mpivet's tracer marks archives of crashed runs; the events then end early on some ranks. */
static void check_marker(struct run *r)
{
  bool truncated = false;
  if (OTF2_Reader_GetBoolProperty(r->reader, "MPIVET::TRUNCATED", &truncated) == OTF2_SUCCESS && truncated) {
    r->rr.truncated = 1;
    if (!r->rr.note[0])
      snprintf(r->rr.note, sizeof r->rr.note, "the tracer marked the archive truncated (see TRUNCATED)");
  }
}

/* Every process's value of mine, in process order, into *all (malloc'ed, ex->size values). */
static int every_value(const struct mv_analyze_exchange *ex, uint64_t mine, uint64_t **all)
{
  void **send = calloc((size_t)ex->size, sizeof *send), *recv = NULL;
  size_t *lens = calloc((size_t)ex->size, sizeof *lens), rlen = 0;
  for (int p = 0; send && lens && p < ex->size; p++)
    send[p] = &mine, lens[p] = sizeof mine;
  int err = send && lens ? ex->alltoallv(ex->ctx, send, lens, &recv, &rlen) : MV_ENOMEM;
  free(send), free(lens);
  if (!err && rlen != (size_t)ex->size * sizeof mine)
    err = MV_EPARSE;
  if (err)
    free(recv), recv = NULL;
  *all = recv;
  return err;
}

/* Every process sends its timelines to process 0 in rounds of at most a quarter of a round of
 * events' worth of points (so process 0 holds a few blocks of each, never all): the processes
 * first agree on the number of rounds, then take part in every one, also after a failure.
 * Process 0's set is replaced by one with all locations; the others' are released. */
static int send_timelines(struct run *r, const struct mv_analyze_exchange *ex)
{
  uint64_t max = step_events() / 4 ? step_events() / 4 : 1, pts = 0, rounds = 0;
  for (uint32_t l = 0; r->tls && l < r->defs.nloc; l++)
    pts += r->tls->loc[l].n;
  uint64_t *all_rounds = NULL;
  int err = 0, xerr = every_value(ex, pts / max + 1, &all_rounds);
  for (int p = 0; !xerr && p < ex->size; p++)
    rounds = all_rounds[p] > rounds ? all_rounds[p] : rounds;
  free(all_rounds);
  if (xerr)
    return xerr;
  struct mv__tlset *all = ex->rank == 0 ? calloc(1, sizeof *all) : NULL;
  if (ex->rank == 0)
    err = !all ? MV_ENOMEM : mv__tlset_init(all, r->defs.nloc);
  struct mv__tlsend q = {0};
  for (uint64_t k = 0; k < rounds; k++) {
    void *buf = NULL, *got = NULL;
    size_t len = 0, glen = 0;
    int perr = r->tls ? mv__tl_pack(r->tls, &q, max, &buf, &len) : MV_ENOMEM;
    err = err ? err : perr;
    int gerr = ex->gather(ex->ctx, buf ? buf : "", buf ? len : 0, &got, &glen);
    free(buf);
    if (!gerr && all && !err)
      err = mv__tl_unpack(all, got, glen);
    free(got);
    if (gerr) {   /* the exchange itself failed: no agreement is possible any more */
      err = err ? err : gerr;
      break;
    }
  }
  err = err ? err : all ? mv__tlset_finish(all) : 0;
  if (r->tls)
    mv__tlset_release(r->tls);
  free(r->tls);
  r->tls = all;
  return err;
}

/* Bytes of wait states and synchronization points process 0 holds per round of send_causes;
 * MPIVET_ANALYZE_ROUND overrides it (the tests use tiny rounds to exercise many). */
static uint64_t round_bytes(void)
{
  const char *s = getenv("MPIVET_ANALYZE_ROUND");
  long long n = s ? atoll(s) : 0;
  return n > 0 ? (uint64_t)n : MV__CAUSES_ROUND_BYTES;
}

/* The round's bound: the least of the processes' (0: that process failed, the round is the last). */
static uint64_t least_bound(const uint64_t *all, int n, int *last)
{
  uint64_t t = UINT64_MAX;
  for (int p = 0; p < n; p++) {
    *last |= all[p] == 0;
    t = all[p] && all[p] < t ? all[p] : t;
  }
  return t;
}

/* Every process sends its wait states and synchronization points to process 0 in rounds by time
 * (process 0 holds about round_bytes() of them at a time, whatever the trace's length): the
 * processes agree on the round's bound, the least of theirs for a share of round_bytes(), and
 * send everything below it; process 0 merges them location by location into r->merged, as the
 * serial analysis has them. The rounds end when every item is sent or a process failed (its
 * last piece then fails process 0's merging). */
static int send_causes(struct run *r, const struct mv_analyze_exchange *ex)
{
  uint32_t nloc = r->defs.nloc;
  uint64_t share = round_bytes() / (uint64_t)ex->size, *at = calloc(2 * (size_t)nloc + 1, sizeof *at);
  int err = at ? 0 : MV_ENOMEM, last = 0;
  if (ex->rank == 0) {
    int ierr = mv__causes_init(&r->merged, nloc);
    err = err ? err : ierr;
  }
  for (int k = 0; !last; k++) {
    uint64_t mine = 0, bound, *all = NULL;
    if (!err && (err = mv__causes_bound(&r->causes, at, share ? share : 1, &mine)) != 0)
      mine = 0;
    int gerr = every_value(ex, err ? 0 : mine, &all);
    if (gerr) {   /* the exchange itself failed: no agreement is possible any more */
      err = err ? err : gerr;
      break;
    }
    bound = least_bound(all, ex->size, &last);
    free(all);
    last |= bound == UINT64_MAX;
    void *buf = NULL, *got = NULL;
    size_t len = 0, glen = 0;
    int perr = mv__causes_pack(&r->causes, err ? NULL : at, bound, k == 0, &buf, &len);
    err = err ? err : perr;
    gerr = ex->gather(ex->ctx, buf ? buf : "", buf ? len : 0, &got, &glen);
    free(buf);
    if (!gerr && ex->rank == 0 && !err)
      err = mv__causes_merge(got, glen, ex->size, &r->merged);
    free(got);
    if (gerr) {
      err = err ? err : gerr;
      break;
    }
  }
  free(at);
  return err ? err : ex->rank == 0 ? mv__causes_finish(&r->merged) : 0;
}

static int collect(struct run *r, const struct mv_analyze_exchange *ex, struct mv_analysis **out)
{
  uint64_t unmatched = 0;
  int err = mv__engine_finish(r->engine, &unmatched), ferr = mv__causes_finish(&r->causes);
  err = err ? err : ferr;
  check_marker(r);
  void *part = NULL, *all = NULL;
  size_t len = 0, alllen = 0;
  struct mv__rc_direct direct = {&r->tls, ex ? &r->merged : &r->causes};
  if (ex) {   /* serial: the root-cause passes take the timelines and causes as they are */
    int serr = send_timelines(r, ex), cerr = send_causes(r, ex);
    err = err ? err : serr ? serr : cerr;
  }
  if (!err)
    err = mv__part_pack(&r->tree, &r->store, &r->rr, unmatched, &part, &len);
  if (!ex) {
    if (!err)
      err = mv__result_build(&r->defs, part, len, 1, mv__owner, &direct, out);
    if (!err && (err = mv__result_load_sites(*out, r->anchor)) != 0) {
      mv_analysis_free(*out);
      *out = NULL;
    }
    free(part);
    return err;
  }
  int gerr = ex->gather(ex->ctx, part ? part : "", part ? len : 0, &all, &alllen);
  free(part);
  if (!err && !gerr && ex->rank == 0)
    err = mv__result_build(&r->defs, all, alllen, ex->size, mv__owner, &direct, out);
  if (!err && !gerr && ex->rank == 0 && (err = mv__result_load_sites(*out, r->anchor)) != 0) {
    mv_analysis_free(*out);
    *out = NULL;
  }
  free(all);
  return err ? err : gerr;
}

/* OTF2 reports errors on stderr by default; the library stays silent and returns values. */
static OTF2_ErrorCode quiet(void *u, const char *file, uint64_t line, const char *func, OTF2_ErrorCode code,
                            const char *msg, va_list args)
{
  (void)u, (void)file, (void)line, (void)func, (void)msg, (void)args;
  return code;
}

/* OTF2 anchor files start with a byte-order byte, 'B' or 'L', and "OTF2". */
static int anchor_ok(const char *path)
{
  unsigned char head[6] = {0};
  FILE *f = fopen(path, "rb");
  size_t n = f ? fread(head, 1, sizeof head, f) : 0;
  if (f)
    fclose(f);
  return n == sizeof head && (head[1] == 'B' || head[1] == 'L') && !memcmp(head + 2, "OTF2", 4);
}

int mv_analyze_trace(const char *anchor, const struct mv_analyze_exchange *ex, struct mv_analysis **out,
                     struct mv_error *e)
{
  struct run r = {.anchor = anchor};
  *out = NULL;
  mv_error_clear(e);
  OTF2_Error_RegisterCallback(quiet, NULL);
  if (!anchor_ok(anchor))
    return mv_error_set(e, MV_EPARSE, anchor, 0, 0, "not an OTF2 anchor file (traces.otf2)");
  r.reader = OTF2_Reader_Open(anchor);
  if (!r.reader)
    return mv_error_set(e, MV_EIO, anchor, 0, 0, "cannot open as an OTF2 archive");
  OTF2_Reader_SetSerialCollectiveCallbacks(r.reader);
  int err = mv__otf2_defs_read(&r.defs, r.reader);
  if (err)
    mv_error_set(e, err, anchor, 0, 0, "%s in the global definitions",
                 err == MV_ENOMEM ? "out of memory" : "malformed or unreadable data");
  if (!err && (!(r.local = calloc(r.defs.nloc ? r.defs.nloc : 1, 1)) || !(r.tls = calloc(1, sizeof *r.tls))))
    err = MV_ENOMEM;
  if (!err)
    err = mv__tlset_init(r.tls, r.defs.nloc);
  int cerr = mv__causes_init(&r.causes, err ? 0 : r.defs.nloc);
  err = err ? err : cerr;
  if (!err && (err = mv__tree_init(&r.tree)) == 0 &&
      !(r.engine = mv__engine_new(&r.defs, r.local, &r.store)))
    err = MV_ENOMEM;
  if (r.engine)
    mv__engine_causes(r.engine, &r.causes);
  if (!err || ex) {   /* in parallel every process must reach the collective calls */
    double t0 = mv__now();
    int e2 = r.engine ? replay(&r, ex) : 0;
    err = err ? err : e2;
    double t1 = mv__now();
    int e3 = r.engine ? collect(&r, ex, out) : 0;
    if (*out) {   /* merging: collecting the parts, building the result, without the two passes */
      double *sec = (*out)->pass_sec;
      sec[MV__PASS_REPLAY] = t1 - t0;
      sec[MV__PASS_MERGE] = mv__now() - t1 - sec[MV__PASS_ROOTCAUSE] - sec[MV__PASS_CRITPATH];
    }
    err = err ? err : e3;
  }
  const char *why = NULL;
  if (err && r.tls && r.tls->err)   /* the temporary files of the timelines, waits, sync points */
    why = r.tls->why;
  else if (err && !mv__causes_why(&r.causes, &why))
    mv__causes_why(&r.merged, &why);
  if (why && (!e || !e->code))
    mv_error_set(e, err, NULL, 0, 0, "%s", why);
  mv_error_ensure(e, err, anchor);
  mv__engine_free(r.engine);
  if (r.tls)
    mv__tlset_release(r.tls);
  free(r.tls);
  mv__causes_release(&r.causes);
  mv__causes_release(&r.merged);
  mv__tree_release(&r.tree);
  mv__map_release(&r.store.map);
  free(r.local);
  mv__otf2_defs_release(&r.defs);
  OTF2_Reader_Close(r.reader);
  return err;
}

static int metric_of(const char *key)
{
  for (int m = 0; m < MV__M_COUNT; m++)
    if (!strcmp(mv__metric_table[m].key, key))
      return m;
  return MV__M_NONE;
}

int64_t mv_analysis_ticks(const struct mv_analysis *a, const char *key, int rank, const char *region)
{
  int root = metric_of(key);
  mv__xsum sum = 0;
  if (root == MV__M_NONE)
    return 0;
  MV__MAP_FOREACH(&a->values.map, s) {
    int m = (int)(s->k1 >> 32);
    uint32_t loc = (uint32_t)s->k1, cp = (uint32_t)s->k2;
    if (!mv__metric_within(m, root) || (rank >= 0 && a->loc_rank[loc] != (uint32_t)rank))
      continue;
    uint32_t reg = a->tree.region[cp];
    if (region && (reg >= a->nregions || strcmp(a->names[reg], region)))
      continue;
    sum += mv__xsum_of(mv__slot_val(s));
  }
  return llround(mv__xsum_value(sum));
}

double mv_analysis_value(const struct mv_analysis *a, const char *key, int rank, const char *region)
{
  int m = metric_of(key);
  if (m == MV__M_NONE)
    return NAN;
  double v = (double)mv_analysis_ticks(a, key, rank, region);
  return strcmp(mv__metric_table[m].unit, "sec") ? v : v / (double)a->resolution;
}

int mv_analysis_partial(const struct mv_analysis *a, const char **note)
{
  if (note)
    *note = a->note;
  return a->partial;
}

uint64_t mv_analysis_events(const struct mv_analysis *a)
{
  return a->events;
}

int mv_analysis_has_rank(const struct mv_analysis *a, int rank)
{
  for (uint32_t loc = 0; loc < a->nloc; loc++)
    if (rank >= 0 && a->loc_rank[loc] == (uint32_t)rank)
      return 1;
  return 0;
}

int mv_analysis_has_region(const struct mv_analysis *a, const char *region)
{
  for (uint32_t r = 0; r < a->nregions; r++)
    if (a->names[r] && strcmp(a->names[r], region) == 0)
      return 1;
  return 0;
}

const char *const mv__pass_names[MV__PASS_COUNT] = {
  [MV__PASS_REPLAY] = "read and replay (wait states)", [MV__PASS_MERGE] = "merge parts",
  [MV__PASS_ROOTCAUSE] = "root causes (delay costs)", [MV__PASS_CRITPATH] = "critical path",
};

double mv__now(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

double mv_analysis_pass_time(const struct mv_analysis *a, int i, const char **name)
{
  if (i < 0 || i >= MV__PASS_COUNT)
    return -1;
  if (name)
    *name = mv__pass_names[i];
  return a->pass_sec[i];
}

double mv_analysis_explained(const struct mv_analysis *a)
{
  return a->explained / (double)a->resolution;
}

uint64_t mv_analysis_kept(const struct mv_analysis *a, uint64_t n[4], uint64_t bytes[4])
{
  const struct mv__tlset *set[3] = {a->tls, a->causes.waits, a->causes.syncs};
  for (int k = 0; k < 3; k++) {
    n[k] = 0;
    for (uint32_t loc = 0; set[k] && loc < a->nloc; loc++)
      n[k] += set[k]->loc[loc].n;
  }
  n[3] = a->causes.msgs.len;
  const size_t size[4] = {MV__TL_POINT_BYTES, sizeof(struct mv__wait), sizeof(struct mv__sp), sizeof(struct mv__msg)};
  uint64_t all = 0;
  for (int i = 0; i < 4; i++)
    all += bytes[i] = n[i] * size[i];
  return all;
}

const char *mv_analysis_spill(const struct mv_analysis *a, int kind, uint64_t v[6])
{
  const struct mv__tlset *set[3] = {a->tls, a->causes.waits, a->causes.syncs}, *s = kind >= 0 && kind < 3 ? set[kind] : NULL;
  memset(v, 0, 6 * sizeof *v);
  if (!s)
    return NULL;
  v[0] = s->bytes, v[1] = s->nblocks, v[2] = s->block, v[3] = s->loads;
  v[4] = (uint64_t)s->nslot * s->block * s->k->isz, v[5] = s->nlate;
  return s->fd >= 0 ? s->dir : "";
}
