/* Experiment plans: process counts x launches, each launch measuring ops x msizes, put in a
 * random order from a recorded seed (so machine drift does not masquerade as scaling). Sizes
 * are totals or per process ("800p", resolved to a total at each launch's nprocs); an op
 * measured at one size only ("MPI_Gather@800p") makes one launch per size. The cost model per
 * engine and the trimming to a time budget are in cost.c. */
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include <math.h>

#include "mpivet/bench.h"
#include "mpivet/campaign.h"
#include "mpivet/error.h"
#include "mpivet/grow.h"

void mv_plan_init(struct mv_plan *p)
{
  memset(p, 0, sizeof *p);
  p->runs = 1;
  p->reps = 1;
}

static void free_ops(struct mv_plan *p)
{
  for (size_t i = 0; i < p->n_ops; i++)
    free(p->ops[i]);
  free(p->ops);
  p->ops = NULL;
  p->n_ops = p->cap_ops_ = 0;
}

void mv_plan_release(struct mv_plan *p)
{
  free(p->nprocs);
  free_ops(p);
  free(p->msizes);
  free(p->msize_pp);
  free(p->items);
  mv_plan_init(p);
}

/* splitmix64 (Steele, Lea, Flood 2014): small, fast, and identical on every platform. */
uint64_t mv_rand_next(uint64_t *state)
{
  uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

uint64_t mv_rand_below(uint64_t *state, uint64_t n)
{
  if (n == 0)
    return 0;
  uint64_t limit = UINT64_MAX - UINT64_MAX % n;   /* reject the biased tail */
  uint64_t r;
  do
    r = mv_rand_next(state);
  while (r >= limit);
  return r % n;
}

double mv_rand_uniform(uint64_t *state)
{
  return (double)(mv_rand_next(state) >> 11) * 0x1.0p-53;
}

/* Split a comma list; calls fn(ctx, token) for each non-empty token. */
static int each_token(const char *list, int (*fn)(void *, const char *), void *ctx)
{
  if (!list || !*list)
    return MV_EINVAL;
  char *copy = strdup(list);
  if (!copy)
    return MV_ENOMEM;
  int rc = 0;
  char *save = NULL;
  for (char *t = strtok_r(copy, ",", &save); t && rc == 0; t = strtok_r(NULL, ",", &save))
    rc = fn(ctx, t);
  free(copy);
  return rc;
}

static int parse_positive(const char *s, long long *out)
{
  char *end;
  long long v = strtoll(s, &end, 10);
  if (end == s || *end || v <= 0)
    return MV_EPARSE;
  *out = v;
  return 0;
}

static int add_nprocs(struct mv_plan *p, long long v)
{
  if (v > 1 << 24)
    return MV_ERANGE;
  for (size_t i = 0; i < p->n_nprocs; i++)
    if (p->nprocs[i] == v)
      return 0;
  if (mv_grow(&p->nprocs, &p->cap_nprocs_, p->n_nprocs + 1, sizeof *p->nprocs, 8) < 0)
    return MV_ENOMEM;
  int *n = p->nprocs;
  size_t i = p->n_nprocs++;
  while (i > 0 && n[i - 1] > v) {   /* keep ascending */
    n[i] = n[i - 1];
    i--;
  }
  n[i] = (int)v;
  return 0;
}

static int nprocs_token(void *ctx, const char *t)
{
  struct mv_plan *p = ctx;
  const char *colon = strchr(t, ':');
  long long a, b;
  if (!colon)
    return parse_positive(t, &a) ? MV_EPARSE : add_nprocs(p, a);
  char first[32];
  size_t len = (size_t)(colon - t);
  if (len == 0 || len >= sizeof first)
    return MV_EPARSE;
  memcpy(first, t, len);
  first[len] = '\0';
  if (parse_positive(first, &a) || parse_positive(colon + 1, &b) || b < a)
    return MV_EPARSE;
  for (long long v = 1; v <= b; v *= 2)
    if (v >= a) {
      int rc = add_nprocs(p, v);
      if (rc)
        return rc;
    }
  return 0;
}

int mv_plan_parse_nprocs(struct mv_plan *p, const char *spec)
{
  free(p->nprocs);
  p->nprocs = NULL;
  p->n_nprocs = p->cap_nprocs_ = 0;
  int rc = each_token(spec, nprocs_token, p);
  return rc ? rc : (p->n_nprocs ? 0 : MV_EPARSE);
}

/* The size an "op@size" entry is restricted to: 1 and *spec, 0 for a plain op, MV_EPARSE. */
static int op_size(const char *op, struct mv_msize_spec *spec)
{
  const char *at = strchr(op, '@');
  size_t col;
  char msg[160];
  if (!at)
    return 0;
  if (at == op || mv_msize_spec_parse(at + 1, strlen(at + 1), spec, &col, msg, sizeof msg))
    return MV_EPARSE;
  return 1;
}

static int op_token(void *ctx, const char *t)
{
  struct mv_plan *p = ctx;
  struct mv_msize_spec spec;
  if (op_size(t, &spec) < 0)
    return MV_EPARSE;
  if (mv_grow(&p->ops, &p->cap_ops_, p->n_ops + 1, sizeof *p->ops, 8) < 0)
    return MV_ENOMEM;
  if (!(p->ops[p->n_ops] = strdup(t)))
    return MV_ENOMEM;
  p->n_ops++;
  return 0;
}

int mv_plan_parse_ops(struct mv_plan *p, const char *list)
{
  free_ops(p);
  return each_token(list, op_token, p);
}

struct mv_msize_spec mv_plan_msize(const struct mv_plan *p, size_t i)
{
  struct mv_msize_spec s = {p->msizes[i], p->msize_pp && p->msize_pp[i]};
  return s;
}

static int find_msize(const struct mv_plan *p, const struct mv_msize_spec *s)
{
  for (size_t i = 0; i < p->n_msizes; i++) {
    struct mv_msize_spec m = mv_plan_msize(p, i);
    if (mv_msize_spec_equal(&m, s))
      return (int)i;
  }
  return -1;
}

static int add_msize(struct mv_plan *p, const struct mv_msize_spec *s)
{
  if (mv_grow(&p->msizes, &p->cap_msizes_, p->n_msizes + 1, sizeof *p->msizes, 8) < 0 ||
      mv_grow(&p->msize_pp, &p->cap_pp_, p->n_msizes + 1, 1, 8) < 0)
    return MV_ENOMEM;
  p->msizes[p->n_msizes] = s->bytes;
  p->msize_pp[p->n_msizes++] = (unsigned char)s->per_process;
  return 0;
}

static int msize_token(void *ctx, const char *t)
{
  struct mv_msize_spec s;
  size_t col;
  char msg[160];
  if (mv_msize_spec_parse(t, strlen(t), &s, &col, msg, sizeof msg))
    return MV_EPARSE;
  return add_msize(ctx, &s);
}

int mv_plan_parse_msizes(struct mv_plan *p, const char *list)
{
  free(p->msizes);
  free(p->msize_pp);
  p->msizes = NULL;
  p->msize_pp = NULL;
  p->n_msizes = p->cap_msizes_ = p->cap_pp_ = 0;
  return each_token(list, msize_token, p);
}

int mv_plan_format_msizes(const struct mv_plan *p, char *buf, size_t size)
{
  size_t len = 0;
  buf[0] = '\0';
  for (size_t i = 0; i < p->n_msizes; i++) {
    struct mv_msize_spec s = mv_plan_msize(p, i);
    char one[32];
    mv_msize_spec_format(&s, one, sizeof one);
    int k = snprintf(buf + len, size - len, "%s%s", i ? "," : "", one);
    if (k < 0 || (size_t)k >= size - len)
      return MV_ERANGE;
    len += (size_t)k;
  }
  return 0;
}

/* Op i is measured at size j: a plain op at every size, "op@size" at its own. */
static int op_at(const struct mv_plan *p, size_t i, size_t j)
{
  struct mv_msize_spec s, m = mv_plan_msize(p, j);
  return op_size(p->ops[i], &s) == 0 || mv_msize_spec_equal(&s, &m);
}

/* Launches are per size when an op is restricted or per-process sizes mix with others. */
static int is_split(const struct mv_plan *p)
{
  int split = 0, pp = 0;
  struct mv_msize_spec s;
  for (size_t i = 0; i < p->n_ops; i++)
    split |= op_size(p->ops[i], &s) == 1;
  for (size_t j = 0; j < p->n_msizes; j++)
    pp |= p->msize_pp && p->msize_pp[j];
  return split || (pp && p->n_msizes > 1);
}

/* Sizes named by "op@size" join msizes. */
static int restricted_sizes(struct mv_plan *p)
{
  for (size_t i = 0; i < p->n_ops; i++) {
    struct mv_msize_spec s;
    int r = op_size(p->ops[i], &s);
    if (r < 0)
      return r;
    if (r && find_msize(p, &s) < 0 && (r = add_msize(p, &s)) != 0)
      return r;
  }
  return 0;
}

/* Size j has a launch at nprocs: some op is measured at it, within pp_np_max. */
static int size_launched(const struct mv_plan *p, size_t j, int nprocs)
{
  if (p->msize_pp && p->msize_pp[j] && p->pp_np_max > 0 && nprocs > p->pp_np_max)
    return 0;
  for (size_t i = 0; i < p->n_ops; i++)
    if (op_at(p, i, j))
      return 1;
  return 0;
}

/* Ops whose MPI calls (and SMPI's algorithms for them) never call Bcast, Reduce or Allreduce
 * (mpivet/bench.h's trees column; unknown names may). */
static int no_tree_collectives(const char *op, size_t n)
{
  const struct mv_op_info *info = mv_bench_op_info_n(op, n);
  return info && !info->trees;
}

int mv_plan_launch_jobs(const struct mv_plan *p, const struct mv_launch_item *item,
                        struct mv_launch_jobs *out)
{
  size_t olen = 0, slen = 0;
  int trees = 0;
  memset(out, 0, sizeof *out);
  for (size_t i = 0; i < p->n_ops; i++) {
    if (item->msize >= 0 && !op_at(p, i, (size_t)item->msize))
      continue;
    size_t n = strcspn(p->ops[i], "@");
    trees |= !no_tree_collectives(p->ops[i], n);
    int k = snprintf(out->ops + olen, sizeof out->ops - olen, "%s%.*s", olen ? "," : "",
                     (int)n, p->ops[i]);
    if (k < 0 || (size_t)k >= sizeof out->ops - olen)
      return MV_ERANGE;
    olen += (size_t)k;
  }
  int per_process = 1;   /* every size of the launch is per process */
  for (size_t j = 0; j < p->n_msizes; j++) {
    if (item->msize >= 0 && (size_t)item->msize != j)
      continue;
    struct mv_msize_spec s = mv_plan_msize(p, j);
    per_process &= s.per_process;
    int64_t total = mv_msize_spec_total(&s, item->nprocs);
    int k = snprintf(out->msizes + slen, sizeof out->msizes - slen, "%s%lld", slen ? "," : "",
                     (long long)total);
    if (out->n_totals == MV_LAUNCH_MSIZES_MAX || k < 0 || (size_t)k >= sizeof out->msizes - slen)
      return MV_ERANGE;
    slen += (size_t)k;
    out->totals[out->n_totals++] = total;
    if (trees)
      out->coll_totals[out->n_coll_totals++] = total;
  }
  int single = per_process && p->pp_single;
  out->reps = single ? 1 : p->reps;
  out->warmup = single ? 0 : -1;
  int len = snprintf(out->name, sizeof out->name, "np%d-run%d", item->nprocs, item->run);
  if (item->msize >= 0) {
    struct mv_msize_spec s = mv_plan_msize(p, (size_t)item->msize);
    out->name[len++] = '-';
    mv_msize_spec_format(&s, out->name + len, sizeof out->name - (size_t)len);
  }
  return 0;
}

/* The launches of one run at nprocs (index 0..), at most cap; returns how many there are. */
size_t mv_plan_launches_at(const struct mv_plan *p, int nprocs, int run,
                           struct mv_launch_item *out, size_t cap)
{
  int split = is_split(p);
  size_t n = 0;
  for (size_t j = 0; j < (split ? p->n_msizes : 1); j++) {
    if (split && !size_launched(p, j, nprocs))
      continue;
    if (n < cap)
      out[n] = (struct mv_launch_item){(int)n, nprocs, run, split ? (int)j : -1};
    n++;
  }
  return n;
}

int mv_plan_build(struct mv_plan *p)
{
  if (!p->n_nprocs || p->runs < 1 || p->reps < 1 || p->pp_np_max < 0)
    return MV_EINVAL;
  int rc = restricted_sizes(p);
  if (rc)
    return rc;
  size_t n = 0;   /* canonical order: nprocs, then run, then size */
  for (size_t k = 0; k < p->n_nprocs; k++)
    n += (size_t)p->runs * mv_plan_launches_at(p, p->nprocs[k], 0, NULL, 0);
  if (n == 0)
    return MV_EINVAL;
  struct mv_launch_item *it = realloc(p->items, n * sizeof *it);
  if (!it)
    return MV_ENOMEM;
  p->items = it;
  p->n_items = n;
  for (size_t k = 0, i = 0; k < p->n_nprocs; k++)
    for (int run = 0; run < p->runs; run++) {
      size_t m = mv_plan_launches_at(p, p->nprocs[k], run, it + i, n - i);
      for (size_t j = 0; j < m; j++)
        it[i + j].index = (int)(i + j);
      i += m;
    }
  uint64_t state = p->seed;
  for (size_t i = n; i > 1; i--) {   /* Fisher-Yates */
    size_t j = (size_t)mv_rand_below(&state, i);
    struct mv_launch_item tmp = it[i - 1];
    it[i - 1] = it[j];
    it[j] = tmp;
  }
  return 0;
}
