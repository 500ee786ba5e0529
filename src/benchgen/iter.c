/* Expanding the compressed trace rank by rank: the grammar walked with an explicit stack (rules
 * refer only to earlier rules, so the depth is at most the number of rules + 1), and a rank's
 * class and communicators looked up as the generated program does. */
#include <stdlib.h>

#include "internal.h"
#include "mpivet/error.h"

int mv__bg_iter_init(struct mv__bg_iter *it, const struct mv_mvt_class *c)
{
  it->c = c;
  it->stack = malloc((c->nrules + 2) * sizeof *it->stack);
  if (!it->stack)
    return MV_ENOMEM;
  it->depth = 1;
  it->stack[0] = (struct mv__bg_frame){&c->main, 0, c->main.n ? c->main.items[0].count : 0};
  return 0;
}

long mv__bg_next(struct mv__bg_iter *it)
{
  while (it->depth) {
    struct mv__bg_frame *f = &it->stack[it->depth - 1];
    if (f->item >= f->rule->n) {  /* rule done: one repetition of the item that called it */
      it->depth--;
      continue;
    }
    const struct mv_mvt_item *x = &f->rule->items[f->item];
    if (f->left == 0) {
      if (++f->item < f->rule->n)
        f->left = f->rule->items[f->item].count;
      continue;
    }
    f->left--;
    if (!(x->sym & 1))
      return (long)it->c->sigs[x->sym >> 1];
    const struct mv_mvt_rule *r = &it->c->rules[x->sym >> 1];
    it->stack[it->depth++] = (struct mv__bg_frame){r, 0, r->n ? r->items[0].count : 0};
  }
  return -1;
}

void mv__bg_iter_release(struct mv__bg_iter *it)
{
  free(it->stack);
  it->stack = NULL;
}

long mv__bg_class_of(const struct mv_mvt *t, uint32_t r)
{
  for (size_t k = 0; k < t->nclasses; k++) {
    const struct mv_mvt_class *c = &t->classes[k];
    size_t lo = 0, hi = c->nranks;
    while (lo < hi) {
      size_t mid = (lo + hi) / 2;
      if (c->ranks[mid] < r)
        lo = mid + 1;
      else
        hi = mid;
    }
    if (lo < c->nranks && c->ranks[lo] == r)
      return (long)k;
  }
  return -1;
}

const uint32_t *mv__bg_members(const struct mv_mvt *t, uint32_t sym, uint32_t r, size_t *n, size_t *me)
{
  for (size_t i = 0; i < t->ncomms; i++)
    if (t->comms[i].sym == sym)
      for (size_t k = 0; k < t->comms[i].n; k++)
        if (t->comms[i].members[k] == r) {
          *n = t->comms[i].n, *me = k;
          return t->comms[i].members;
        }
  return NULL;
}
