/* The root causes and the critical path in plain words: for each top delay (call path and rank),
 * the waiting time it caused, on which ranks (exact up to 64 ranks, in 64 groups of ranks
 * beyond: mv__rank_group), how much longer it ran than on the rank that waited
 * most for it, and how much of its cost came directly or through the waits it propagated; then
 * the critical path: its length, the ranks it passes through, the call paths longest on it. */
#include <stdlib.h>
#include <string.h>

#include "view.h"
#include "mpivet/error.h"

/* "ranks 1-3, 5", "rank 2" (or "rank ?" for none) for the ranks r with on[r] set (r < n). A list
 * longer than the buffer ends after its last whole entry with ", ... (N ranks in all)"; it used to
 * be cut anywhere ("..., 340, is caused by" at 1024 ranks). */
const char *mv__rank_list(char *buf, size_t size, const uint8_t *on, uint32_t n)
{
  enum { TAIL = 40 };   /* room kept for ", ... (4294967295 ranks in all)" */
  size_t len = 0;
  char *list = buf + 6;   /* after "ranks " */
  size -= 6;
  list[0] = 0;
  uint32_t count = 0;
  for (uint32_t r = 0; r < n; r++)
    count += on[r] != 0;
  for (uint32_t r = 0; r < n; r++) {
    if (!on[r])
      continue;
    uint32_t e = r;
    while (e + 1 < n && on[e + 1])
      e++;
    char item[32];
    int k = e > r ? snprintf(item, sizeof item, "%s%u-%u", len ? ", " : "", r, e)
                  : snprintf(item, sizeof item, "%s%u", len ? ", " : "", r);
    if (len + (size_t)k + TAIL >= size) {
      snprintf(list + len, size - len, "%s... (%u ranks in all)", len ? ", " : "", count);
      len = strlen(list);
      break;
    }
    memcpy(list + len, item, (size_t)k + 1);
    len += (size_t)k;
    r = e;
  }
  int many = count > 1;
  memcpy(buf + !many, many ? "ranks " : "rank ", 6 - !many);
  if (!len)
    snprintf(list, size, "?");
  return buf + !many;
}

/* Beyond 64 ranks the ranks reached through propagated waits are kept as 64 groups
 * (mv__rank_group): the list then names whole groups, which may include the delaying rank. */
static void groups_note(FILE *fp, uint32_t nranks, double longterm, uint32_t rank)
{
  if (nranks > 64 && longterm > 0)
    fprintf(fp, "; the ranks reached through those waits are listed in whole groups of %s%u ranks "
                "(64 groups), which may include rank %u itself", nranks % 64 ? "about " : "", nranks / 64, rank);
}

struct who {
  uint8_t *all, *direct;   /* per world rank: waited for the delay (at all, directly) */
  uint32_t nranks, most;   /* the rank that waited most directly */
  double delay;            /* the delay over that rank's synchronization intervals (ticks) */
};

/* Who waited for the delay of call path cp on location loc (from the analysis' blames). */
static void who_waited(const struct mv_analysis *a, uint32_t loc, uint32_t cp, struct who *w)
{
  memset(w->all, 0, w->nranks), memset(w->direct, 0, w->nranks);
  w->most = MV__NONE, w->delay = 0;
  double best = -1;
  for (size_t i = 0; i < a->blames.len; i++) {
    const struct mv__blame *b = &MV__VEC_AT(&a->blames, struct mv__blame, i);
    uint32_t r = a->loc_rank[b->wloc];
    if (b->dloc != loc || b->dcp != cp)
      continue;
    if (b->shortc > 0 && r < w->nranks) {
      w->all[r] = w->direct[r] = 1;
      if (b->shortc > best)
        best = b->shortc, w->most = r, w->delay = b->delay;
    }
    for (uint32_t q = 0; b->who && q < w->nranks; q++)
      w->all[q] |= (b->who & mv__rank_group(q, w->nranks)) != 0;
  }
}

/* The top delays c[0..n) in words. */
static void root_causes(const struct mv__view *v, FILE *fp, int top, struct who *w,
                        const struct mv__cause *c, size_t n)
{
  const struct mv_analysis *a = v->a;
  double res = (double)a->resolution;
  fprintf(fp, "\nroot causes (delay costs: the waiting time each delay caused, directly and through "
              "the waits it propagated):\n");
  double un = mv__unexplained(v);
  fprintf(fp, "  delay costs %.6g s explain %.6g s of waiting time\n", mv__xsum_value(v->total[MV__M_DELAY]) / res,
          a->explained / res);
  fprintf(fp, "  unexplained: %.6g s of waiting time (%.3g %%) has no delay that caused it (a point-to-point "
              "wait longer than its delay, or no delay and no wait in its synchronization interval)\n",
          un / res, un + a->explained > 0 ? 100 * un / (un + a->explained) : 0);
  if (!n)
    mv__print_none(a, fp);
  for (size_t i = 0; i < n && (int)i < top; i++) {
    char all[262], direct[262];   /* "ranks " and 256 for the list */
    who_waited(a, c[i].loc, c[i].cp, w);
    fprintf(fp, "  %2zu. %.6g s of waiting on %s is caused by %s on rank %u", i + 1, c[i].total / res,
            mv__rank_list(all, sizeof all, w->all, w->nranks), v->path[c[i].cp], a->loc_rank[c[i].loc]);
    if (w->most != MV__NONE)
      fprintf(fp, " (%.6g s longer than on rank %u)", w->delay / res, w->most);
    fprintf(fp, "\n      %.6g s directly (%s waited), %.6g s through the waits that propagated it",
            (c[i].total - c[i].longterm) / res, mv__rank_list(direct, sizeof direct, w->direct, w->nranks),
            c[i].longterm / res);
    groups_note(fp, w->nranks, c[i].longterm, a->loc_rank[c[i].loc]);
    fputc('\n', fp);
  }
}

/* The critical path and its top call paths p[0..ncp) in words. */
static int critical_path(const struct mv__view *v, FILE *fp, int top, struct who *w,
                         const struct mv__cause *p, size_t ncp)
{
  const struct mv_analysis *a = v->a;
  double res = (double)a->resolution;
  memset(w->all, 0, w->nranks);
  uint32_t last = MV__NONE, hand = 0;
  struct mv__tlcur cur = {0};
  struct mv__cpseg s, first = {0}, end = {0};
  uint64_t i = 0;
  for (; mv__cpath_at(a, &cur, i, &s); i++, end = s) {
    uint32_t r = a->loc_rank[s.loc];
    if (r < w->nranks)
      w->all[r] = 1;
    hand += i > 0 && s.loc != end.loc;
    last = i == 0 ? r : last;
    first = i == 0 ? s : first;
  }
  int fin = i && a->tls && a->tls->loc[first.loc].fin_enter;
  int init = i && a->tls && a->tls->loc[end.loc].init_end && a->tls->loc[end.loc].init_end == end.t0;
  char ranks[262];
  fprintf(fp, "\ncritical path: %.6g s, back from the end of rank %u (%s) to %s, "
              "handed over %u times at wait states, through %s; longest on it:\n",
          mv__xsum_value(v->total[MV__M_CP]) / res, last, fin ? "the last to enter MPI_Finalize" : "the last to finish",
          init ? "the end of MPI_Init" : "the start", hand, mv__rank_list(ranks, sizeof ranks, w->all, w->nranks));
  for (size_t i = 0; i < ncp && (int)i < top; i++)
    fprintf(fp, "  %2zu. %.6g s in %s on rank %u\n", i + 1, p[i].total / res, v->path[p[i].cp],
            a->loc_rank[p[i].loc]);
  fprintf(fp, "  critical-path imbalance %.6g s (time on the path above the call paths' average "
              "non-waiting time: what balancing them would save)\n",
          mv__xsum_value(v->total[MV__M_CPIMB]) / res);
  return a->cpath ? a->cpath->err : 0;
}

int mv__text_causes(const struct mv__view *v, FILE *fp, int top)
{
  struct who w = {0};
  size_t n = 0, ncp = 0;
  w.nranks = v->a->nranks;
  w.all = calloc(w.nranks + 1, 1), w.direct = calloc(w.nranks + 1, 1);
  struct mv__cause *c = mv__causes_of(v->a, MV__M_DELAY, &n), *p = mv__causes_of(v->a, MV__M_CP, &ncp);
  int err = !w.all || !w.direct || !c || !p ? MV_ENOMEM : 0;
  if (!err) {
    root_causes(v, fp, top, &w, c, n);
    err = critical_path(v, fp, top, &w, p, ncp);
  }
  free(w.all), free(w.direct), free(c), free(p);
  return err;
}
