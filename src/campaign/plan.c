/* Experiment plans: process counts x launches, each launch measuring ops x msizes, put in a
 * random order from a recorded seed (so machine drift does not masquerade as scaling), with a
 * cost model per engine and trimming to a time budget. */
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include <math.h>

#include "mpivet/campaign.h"
#include "mpivet/error.h"

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
  p->n_ops = 0;
}

void mv_plan_release(struct mv_plan *p)
{
  free(p->nprocs);
  free_ops(p);
  free(p->msizes);
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
  int *n = realloc(p->nprocs, (p->n_nprocs + 1) * sizeof *n);
  if (!n)
    return MV_ENOMEM;
  p->nprocs = n;
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
  p->n_nprocs = 0;
  int rc = each_token(spec, nprocs_token, p);
  return rc ? rc : (p->n_nprocs ? 0 : MV_EPARSE);
}

static int op_token(void *ctx, const char *t)
{
  struct mv_plan *p = ctx;
  char **ops = realloc(p->ops, (p->n_ops + 1) * sizeof *ops);
  if (!ops)
    return MV_ENOMEM;
  p->ops = ops;
  if (!(ops[p->n_ops] = strdup(t)))
    return MV_ENOMEM;
  p->n_ops++;
  return 0;
}

int mv_plan_parse_ops(struct mv_plan *p, const char *list)
{
  free_ops(p);
  return each_token(list, op_token, p);
}

static int msize_token(void *ctx, const char *t)
{
  struct mv_plan *p = ctx;
  long long v;
  char *end;
  v = strtoll(t, &end, 10);
  if (end == t || *end || v < 0)
    return MV_EPARSE;
  int64_t *m = realloc(p->msizes, (p->n_msizes + 1) * sizeof *m);
  if (!m)
    return MV_ENOMEM;
  p->msizes = m;
  m[p->n_msizes++] = v;
  return 0;
}

int mv_plan_parse_msizes(struct mv_plan *p, const char *list)
{
  free(p->msizes);
  p->msizes = NULL;
  p->n_msizes = 0;
  return each_token(list, msize_token, p);
}

int mv_plan_build(struct mv_plan *p)
{
  if (!p->n_nprocs || p->runs < 1 || p->reps < 1)
    return MV_EINVAL;
  size_t n = p->n_nprocs * (size_t)p->runs;
  struct mv_launch_item *it = realloc(p->items, n * sizeof *it);
  if (!it)
    return MV_ENOMEM;
  p->items = it;
  p->n_items = n;
  for (size_t i = 0; i < n; i++) {
    it[i].index = (int)i;
    it[i].nprocs = p->nprocs[i / (size_t)p->runs];
    it[i].run = (int)(i % (size_t)p->runs);
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
