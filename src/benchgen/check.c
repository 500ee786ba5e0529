/* The generator's matching check (the paper's collective alignment and deadlock detection, done
 * by running the benchmark symbolically): every rank's calls are expanded from its class's
 * grammar and advanced as far as they can go; point-to-point operations match in order per
 * (communicator, sender, receiver, tag), the i-th send with the i-th receive (wildcards were
 * already replaced by the recorded senders); a blocking send waits for its receive (as MPI
 * allows: a potential deadlock is reported even where buffering would hide it); the k-th
 * collective of a communicator completes when all members reached their k-th, and they must
 * be the same function with the same root whatever their call sites (window creation, free and
 * fences count as collectives of the window's communicator); a non-blocking collective takes its
 * place in that order when it starts and its request completes when all members started it.
 * One-sided epochs and locks are followed in check-rma.c. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "mpivet/error.h"

static void views(struct sim *s)
{
  const struct mv_mvt *t = s->t;
  for (uint32_t r = 0; r < t->nranks; r++)
    for (uint32_t k = 0; k < s->nsyms; k++) {
      struct view *v = &s->views[(size_t)r * s->nsyms + k];
      *v = (struct view){-1, 0, 0, NULL};
      if (k == 1) {
        *v = (struct view){-2, 1, 0, NULL};
        continue;
      }
      for (size_t i = 0; i < t->ncomms && v->inst == -1; i++)
        for (size_t j = 0; t->comms[i].sym == k && j < t->comms[i].n; j++)
          if (t->comms[i].members[j] == r) {
            *v = (struct view){(long)i, t->comms[i].n, j, t->comms[i].members};
            break;
          }
    }
}

const struct view *mv__bg_view(const struct sim *s, uint32_t r, uint32_t sym)
{
  const struct view *v = sym < s->nsyms ? &s->views[(size_t)r * s->nsyms + sym] : NULL;
  return v && v->inst != -1 ? v : NULL;
}

uint64_t mv__bg_hkey(long inst, uint32_t src, uint32_t dst, uint64_t tag)
{
  uint64_t h = (uint64_t)(inst + 3) * 0x9E3779B97F4A7C15u ^ ((uint64_t)src << 32 | dst);
  return (h ^ tag * 0xC2B2AE3D27D4EB4Fu) | 1;   /* never 0: 0 marks an empty slot */
}

/* The counter index of a key; -1 when out of memory. Keys are hashes of the 4 fields: a
 * collision would merge two queues (64 bits: not expected at these sizes). */
long mv__bg_key(struct sim *s, uint64_t h)
{
  if ((s->nkeys + 1) * 2 > s->capkeys) {
    size_t cap = s->capkeys ? s->capkeys * 2 : 1024;
    uint64_t *k = calloc(cap, sizeof *k), *a = calloc(cap, sizeof *a), *b = calloc(cap, sizeof *b);
    if (!k || !a || !b)
      return free(k), free(a), free(b), -1;
    for (size_t i = 0; i < s->capkeys; i++)
      if (s->keys[i]) {
        size_t j = s->keys[i] & (cap - 1);
        while (k[j])
          j = (j + 1) & (cap - 1);
        k[j] = s->keys[i], a[j] = s->sends[i], b[j] = s->recvs[i];
      }
    free(s->keys), free(s->sends), free(s->recvs);
    s->keys = k, s->sends = a, s->recvs = b, s->capkeys = cap;
  }
  size_t j = h & (s->capkeys - 1);
  while (s->keys[j] && s->keys[j] != h)
    j = (j + 1) & (s->capkeys - 1);
  if (!s->keys[j])
    s->keys[j] = h, s->nkeys++;
  return (long)j;
}

static int post(struct sim *s, uint32_t r, const struct mv_mvt_opv *o, struct pend *p)
{
  const struct view *v = mv__bg_view(s, r, o->comm);
  if (!v) {
    snprintf(s->msg, s->msgsize, "rank %" PRIu32 " uses communicator %" PRIu32 " but belongs to none "
             "with that number", r, o->comm);
    return MV_EPARSE;
  }
  int64_t i = (((int64_t)v->me + o->peer) % (int64_t)v->n + (int64_t)v->n) % (int64_t)v->n;
  uint32_t peer = v->m ? v->m[i] : r;
  int recv = o->kind == MV_MVT_OP_RECV || o->kind == MV_MVT_OP_IRECV;
  uint64_t h = mv__bg_hkey(v->inst, recv ? peer : r, recv ? r : peer, o->tag);
  long k = mv__bg_key(s, h);
  if (k < 0)
    return MV_ENOMEM;
  *p = (struct pend){h, recv ? s->recvs[k]++ : s->sends[k]++, recv, 1};
  return 0;
}

/* The counter index of hash h, which key_of made (indices move when the table grows). */
size_t mv__bg_find(const struct sim *s, uint64_t h)
{
  size_t j = h & (s->capkeys - 1);
  while (s->keys[j] != h)
    j = (j + 1) & (s->capkeys - 1);
  return j;
}

/* recv 2: a collective, complete when its ord members arrived */
int mv__bg_matched(const struct sim *s, const struct pend *p)
{
  if (!p->live)
    return 1;  /* a completion of a request that was never started: nothing to wait for */
  size_t k = mv__bg_find(s, p->key);
  if (p->recv == 2)
    return s->sends[k] >= p->ord;
  return p->recv ? s->sends[k] > p->ord : s->recvs[k] > p->ord;
}

/* Arrives at the rank's next collective of o's communicator (blocking or not): its counter of
 * arrivals, where the first arrival's signature is kept to check the others against; 1 the
 * counter in *p, 0 MPI_COMM_SELF (nothing to wait for), -1 misaligned, < -1 an error. */
static int arrive(struct sim *s, uint32_t r, long sig, struct pend *p)
{
  struct rank *R = &s->ranks[r];
  const struct mv_mvt_sig *g = &s->t->sigs[sig];
  const struct mv_mvt_opv *o = g->nops ? &g->ops[0] : NULL;
  const struct view *v = o ? mv__bg_view(s, r, o->comm) : NULL;
  if (!o || (v && v->inst == -2))
    return 0;  /* MPI_COMM_SELF */
  if (!v)
    return snprintf(s->msg, s->msgsize, "rank %" PRIu32 " calls %s on communicator %" PRIu32
                    " but belongs to none with that number", r, g->func, o->comm), -1;
  uint64_t k = R->ncoll[v->inst]++;
  uint64_t h = mv__bg_hkey(v->inst, UINT32_MAX, UINT32_MAX, k);
  long key = mv__bg_key(s, h);
  if (key < 0)
    return MV_ENOMEM;
  if (s->sends[key]++ == 0)
    s->recvs[key] = (uint64_t)sig;   /* the first arrival: the others must be the same */
  const struct mv_mvt_sig *f = &s->t->sigs[s->recvs[key]];
  int64_t root = f->nops ? f->ops[0].root : -1;
  if (strcmp(f->func, g->func) || root != o->root)
    return snprintf(s->msg, s->msgsize, "collectives do not align: collective %" PRIu64 " of "
                    "communicator %" PRIu32 " is %s (root %" PRId64 ") on one rank and %s (root %"
                    PRId64 ") on rank %" PRIu32 " (its call %" PRIu64 ")", k + 1, o->comm, f->func,
                    root, g->func, o->root, r, R->calls), -1;
  *p = (struct pend){h, v->n, 2, 1};
  return 1;
}

/* Arrives at (stage 0) or waits in the rank's next collective; 1 done, 0 waiting, -1 misaligned. */
static int collective(struct sim *s, uint32_t r, long sig)
{
  struct rank *R = &s->ranks[r];
  if (R->stage == 0) {
    int rc = arrive(s, r, sig, &R->tmp[0]);
    if (rc <= 0)
      return rc == 0 ? 1 : rc;
    R->stage = 1;
  }
  return mv__bg_matched(s, &R->tmp[0]);
}

/* One call of rank r: 1 done, 0 blocked, 2 the rank finished, < 0 an error (msg set), -1 also
 * the verdict "misaligned" (msg set). */
static int step(struct sim *s, uint32_t r, uint64_t limit)
{
  struct rank *R = &s->ranks[r];
  if (R->sig < 0) {
    if ((R->sig = mv__bg_next(&R->it)) < 0)
      return R->done = 1, 2;
    R->stage = 0;
    if (++R->calls > limit)
      return snprintf(s->msg, s->msgsize, "over %" PRIu64 " calls on rank %" PRIu32, limit, r), MV_ERANGE;
  }
  const struct mv_mvt_sig *g = &s->t->sigs[R->sig];
  int cls = mv__bg_call_of(g->func)->cls, rc = 0;
  for (size_t i = 0; i < g->nops && !rc; i++) {
    const struct mv_mvt_opv *o = &g->ops[i];
    if ((cls == MV__BG_ISEND || cls == MV__BG_IRECV || cls == MV__BG_START) && o->slot < s->nslots)
      rc = post(s, r, o, &R->slots[o->slot]);
    else if (cls == MV__BG_ICOLL && o->kind == MV_MVT_OP_ICOLL && o->slot < s->nslots) {
      R->slots[o->slot].live = 0;  /* a collective on MPI_COMM_SELF completes at once */
      rc = arrive(s, r, R->sig, &R->slots[o->slot]);
      rc = rc == 1 ? 0 : rc;
    }
    else if (cls == MV__BG_WAIT && o->slot < s->nslots && !mv__bg_matched(s, &R->slots[o->slot]))
      return 0;
    else if (cls <= MV__BG_SENDRECV && R->stage == 0)
      rc = post(s, r, o, &R->tmp[i]);
    else if (cls <= MV__BG_SENDRECV && !mv__bg_matched(s, &R->tmp[i]))
      return 0;
  }
  if (rc)
    return rc;
  if (cls <= MV__BG_SENDRECV && R->stage == 0) {
    R->stage = 1;
    return step(s, r, limit);
  }
  int fence = cls == MV__BG_EPOCH && !strcmp(g->func, "MPI_Win_fence");
  int coll = cls == MV__BG_COLL || cls == MV__BG_WIN || fence;
  if (coll && (rc = collective(s, r, R->sig)) != 1)
    return rc;
  if (((cls == MV__BG_EPOCH && !fence) || cls == MV__BG_GROUP || cls == MV__BG_SYNC) &&
      (rc = mv__bg_check_rma(s, r, g)) != 1)
    return rc;
  R->sig = -1;
  return 1;
}

static void deadlock(struct sim *s)
{
  size_t n = 0, at = 0, blocked = 0;
  for (uint32_t r = 0; r < s->t->nranks; r++)
    blocked += !s->ranks[r].done;
  at = (size_t)snprintf(s->msg, s->msgsize, "potential deadlock: %zu rank%s wait forever:", blocked,
                        blocked == 1 ? "" : "s");
  for (uint32_t r = 0; r < s->t->nranks && n < 6 && at < s->msgsize; r++) {
    const struct rank *R = &s->ranks[r];
    if (R->done)
      continue;
    const struct mv_mvt_sig *g = &s->t->sigs[R->sig];
    at += (size_t)snprintf(s->msg + at, s->msgsize - at, "%s rank %" PRIu32 " in its call %" PRIu64
                           " %s (signature s%ld, site %016" PRIx64 ")", n ? ";" : "", r, R->calls,
                           g->func, R->sig, g->site);
    n++;
  }
}

static int run(struct sim *s, uint64_t limit)
{
  for (;;) {
    int progress = 0, finished = 1;
    for (uint32_t r = 0; r < s->t->nranks; r++) {
      int rc;
      while ((rc = step(s, r, limit)) == 1)
        progress = 1;
      if (rc < 0)
        return rc == -1 ? 1 : rc;
      finished &= rc == 2;
    }
    if (finished)
      return 0;
    if (!progress)
      return deadlock(s), 1;
  }
}

static int setup(struct sim *s)
{
  const struct mv_mvt *t = s->t;
  s->nsyms = 2, s->nslots = 1;
  for (size_t i = 0; i < t->ncomms; i++)
    s->nsyms = t->comms[i].sym >= s->nsyms ? t->comms[i].sym + 1 : s->nsyms;
  for (size_t i = 0; i < t->nsigs; i++)
    for (size_t k = 0; k < t->sigs[i].nops; k++)
      if (t->sigs[i].ops[k].kind != MV_MVT_OP_COLL)
        s->nslots = t->sigs[i].ops[k].slot >= s->nslots ? t->sigs[i].ops[k].slot + 1 : s->nslots;
  s->ninst = t->ncomms + 1;
  if ((double)t->nranks * ((double)s->nslots * sizeof(struct pend) + (double)s->nsyms * sizeof *s->views) >
      MV__BG_CHECK_MAX_BYTES)
    return snprintf(s->msg, s->msgsize, "too large to check: %" PRIu32 " ranks with %zu request slots and %zu "
                    "communicator numbers each need over %.0f MB", t->nranks, s->nslots, (size_t)s->nsyms,
                    MV__BG_CHECK_MAX_BYTES / 1e6), MV_ERANGE;
  s->views = calloc((size_t)t->nranks * s->nsyms, sizeof *s->views);
  s->ranks = calloc(t->nranks, sizeof *s->ranks);
  if (!s->views || !s->ranks)
    return MV_ENOMEM;
  views(s);
  for (uint32_t r = 0; r < t->nranks; r++) {
    struct rank *R = &s->ranks[r];
    long k = mv__bg_class_of(t, r);
    R->sig = -1, R->done = k < 0;
    if (k >= 0 && mv__bg_iter_init(&R->it, &t->classes[k]))
      return MV_ENOMEM;
    if (!(R->slots = calloc(s->nslots, sizeof *R->slots)) || !(R->ncoll = calloc(s->ninst, sizeof *R->ncoll)))
      return MV_ENOMEM;
  }
  return 0;
}

int mv_benchgen_check(const struct mv_mvt *t, uint64_t limit, char *msg, size_t msgsize)
{
  int rc = mv__bg_validate(t, msg, msgsize);
  if (rc)
    return rc;
  struct sim s = {.t = t, .msg = msg, .msgsize = msgsize};
  rc = setup(&s);
  if (!rc)
    rc = run(&s, limit);
  for (uint32_t r = 0; s.ranks && r < t->nranks; r++) {
    mv__bg_iter_release(&s.ranks[r].it);
    free(s.ranks[r].slots);
    free(s.ranks[r].ncoll);
    mv__bg_check_rma_release(&s.ranks[r]);
  }
  free(s.views), free(s.ranks), free(s.keys), free(s.sends), free(s.recvs);
  return rc;
}
