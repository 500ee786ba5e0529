/* `mpivet benchgen DIR --print`: the compressed trace as text, one signature per line, each
 * class's grammar as rules with repeat counts (r3^100), and per call item of the grammar
 * (r3[1]: rule 3's second item) the computation before the call and the call's own time (mean
 * and range of the log bins, with units). */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "mpivet/benchgen.h"
#include "mpivet/error.h"
#include "mvt.h"

const char *mv_mvt_op_name(int kind)
{
  static const char *const names[] = {
#define MV_MVT_X(name, fields) #name,
    MV_MVT_OPS(MV_MVT_X)
#undef MV_MVT_X
  };
  return kind >= 0 && kind < MV_MVT_OP_COUNT ? names[kind] : "?";
}

double mv_mvt_bin_ns(uint32_t bin)
{
  return bin == 0 ? 0 : pow(MV_MVT_BIN_BASE, (double)bin - 0.5);
}

static uint64_t mul(uint64_t a, uint64_t b)
{
  return a && b > UINT64_MAX / a ? UINT64_MAX : a * b;
}

static uint64_t add(uint64_t a, uint64_t b)
{
  return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

const struct mv_mvt_item *mv_mvt_item_at(const struct mv_mvt_class *c, size_t i)
{
  for (size_t r = 0; r < c->nrules; i -= c->rules[r++].n)
    if (i < c->rules[r].n)
      return &c->rules[r].items[i];
  return i < c->main.n ? &c->main.items[i] : NULL;
}

int mv_mvt_item_runs(const struct mv_mvt_class *c, uint64_t *runs)
{
  uint64_t *times = calloc(c->nrules + 1, sizeof *times);   /* how often each rule runs */
  if (!times)
    return MV_ENOMEM;
  size_t end = c->nitems;                                    /* past the rule's last item */
  for (size_t r = c->nrules + 1; r-- > 0;) {   /* a rule refers only to earlier rules */
    const struct mv_mvt_rule *rule = r == c->nrules ? &c->main : &c->rules[r];
    uint64_t n = r == c->nrules ? 1 : times[r];
    if (rule->n > end)
      break;
    end -= rule->n;
    for (size_t i = 0; i < rule->n; i++) {
      uint64_t s = rule->items[i].sym;
      runs[end + i] = mul(n, rule->items[i].count);
      if (s & 1 && s >> 1 < r)
        times[s >> 1] = add(times[s >> 1], runs[end + i]);
    }
  }
  free(times);
  return 0;
}

uint64_t mv_mvt_class_calls(const struct mv_mvt_class *c)
{
  uint64_t *runs = calloc(c->nitems + 1, sizeof *runs), n = 0;
  if (!runs || mv_mvt_item_runs(c, runs) != 0)
    n = UINT64_MAX;
  for (size_t i = 0; runs && n != UINT64_MAX && i < c->nitems; i++)
    if (!(mv_mvt_item_at(c, i)->sym & 1))
      n = add(n, runs[i]);
  free(runs);
  return n;
}

static const char *code_name(const char *name, uint32_t code)
{
  return name ? name : code == MV_MVT_USER ? "user-defined" : "none";
}

/* An operation and its fields in mvt.h's order: SEND(comm 0, peer +1, tag 3, 8 B). */
static void print_op(const struct mv_mvt_opv *o, FILE *out)
{
  fprintf(out, " %s(", mv_mvt_op_name(o->kind));
  const char *f = mv_mvt_op_fields((unsigned)o->kind);
  for (size_t i = 0; f && f[i]; i++) {
    fputs(i ? ", " : "", out);
    switch (f[i]) {
    case 'c': fprintf(out, "comm %" PRIu32, o->comm); break;
    case 'p': fprintf(out, "peer %+" PRId64, o->peer); break;
    case 't': fprintf(out, "tag %" PRIu64, o->tag); break;
    case 'b': fprintf(out, "%" PRIu64 " B", o->bytes); break;
    case 'r': fprintf(out, "received %" PRIu64 " B", o->received); break;
    case 's': fprintf(out, "req %" PRIu64, o->slot); break;
    case 'o': fprintf(out, "root %" PRId64, o->root); break;
    case 'y': fprintf(out, "type %s", code_name(mv_mvt_type_name(o->type), o->type)); break;
    case 'x': fprintf(out, "op %s", code_name(mv_mvt_redop_name(o->op), o->op)); break;
    case 'w': fprintf(out, "win %" PRIu32, o->win); break;
    case 'n': fprintf(out, "%" PRIu64 " members", o->members); break;
    case 'f':
      if (o->kind == MV_MVT_OP_VEC)
        fprintf(out, "%s", o->flags ? "received" : "sent");
      else
        fprintf(out, "%s%s", o->flags & MV_MVT_ALL_TARGETS ? "all" : "one",
                o->flags & MV_MVT_EXCLUSIVE ? " exclusive" : "");
      break;
    default: fprintf(out, "raw event kind %" PRIu64, o->other);
    }
  }
  fputc(')', out);
}

static void print_items(const struct mv_mvt_rule *r, const struct mv_mvt_class *c, FILE *out)
{
  for (size_t i = 0; i < r->n; i++) {
    uint64_t s = r->items[i].sym;
    if (s & 1)
      fprintf(out, " r%" PRIu64, s >> 1);
    else
      fprintf(out, " s%" PRIu32, c->sigs[s >> 1]);
    if (r->items[i].count != 1)
      fprintf(out, "^%" PRIu64, r->items[i].count);
  }
  fputc('\n', out);
}

static void print_hist(const char *what, const struct mv_mvt_hist *h, FILE *out)
{
  double lo = INFINITY, hi = 0;
  for (size_t i = 0; i < h->n; i++) {
    double v = mv_mvt_bin_ns(h->bin[i]) / 1e3;
    lo = v < lo ? v : lo, hi = v > hi ? v : hi;
  }
  if (h->values)
    fprintf(out, " %s %.3g us (%.3g..%.3g us, %zu bins)", what, (double)h->sum / 1e3 / (double)h->values,
            h->n ? lo : 0, hi, h->n);
}

static void print_ranks(const uint32_t *r, size_t n, FILE *out)
{
  for (size_t i = 0; i < n; i++) {
    size_t j = i;
    while (j + 1 < n && r[j + 1] == r[j] + 1)
      j++;
    fprintf(out, "%s%" PRIu32, i ? "," : "", r[i]);
    if (j > i)
      fprintf(out, "-%" PRIu32, r[j]);
    i = j;
  }
}

static void print_class(const struct mv_mvt_class *c, size_t k, FILE *out)
{
  fprintf(out, "class %zu: %zu rank%s: ", k, c->nranks, c->nranks == 1 ? "" : "s");
  print_ranks(c->ranks, c->nranks, out);
  fprintf(out, "\n  %" PRIu64 " calls per rank, longest span %.6f s\n", mv_mvt_class_calls(c),
          (double)c->span_ns / 1e9);
  for (size_t r = 0; r < c->nrules; r++) {
    fprintf(out, "  r%zu =", r);
    print_items(&c->rules[r], c, out);
  }
  fprintf(out, "  main =");
  print_items(&c->main, c, out);
  for (size_t r = 0, i = 0; r <= c->nrules; r++) {
    const struct mv_mvt_rule *rule = r < c->nrules ? &c->rules[r] : &c->main;
    for (size_t at = 0; at < rule->n && i < c->nitems; at++, i++) {
      uint64_t s = rule->items[at].sym;
      if (s & 1)
        continue;
      if (r < c->nrules)
        fprintf(out, "  r%zu[%zu]", r, at);
      else
        fprintf(out, "  main[%zu]", at);
      fprintf(out, " s%" PRIu32 " x%" PRIu64 ":", c->sigs[s >> 1], c->comp[i].values / (c->nranks ? c->nranks : 1));
      print_hist("computation before", &c->comp[i], out);
      print_hist("; in the call", &c->dur[i], out);
      fputc('\n', out);
    }
  }
}

int mv_mvt_print(const struct mv_mvt *t, FILE *out)
{
  fprintf(out, "compressed trace, format version %u: %" PRIu32 " ranks, longest span %.6f s (%s)\n",
          t->version, t->nranks, (double)t->elapsed_ns / 1e9, t->meta);
  if (t->truncated && t->truncated[0])
    fprintf(out, "TRUNCATED: the run did not reach MPI_Finalize: %s\n", t->truncated);
  for (size_t i = 0; i < t->ncomms; i++) {
    fprintf(out, "communicator %" PRIu32 " (id %" PRIu32 "): %zu ranks: ", t->comms[i].sym,
            t->comms[i].id, t->comms[i].n);
    print_ranks(t->comms[i].members, t->comms[i].n, out);
    fputc('\n', out);
  }
  fprintf(out, "%zu signatures:\n", t->nsigs);
  for (size_t i = 0; i < t->nsigs; i++) {
    const struct mv_mvt_sig *s = &t->sigs[i];
    fprintf(out, "  s%zu %s site %016" PRIx64 ":", i, s->func, s->site);
    for (size_t k = 0; k < s->nops; k++)
      print_op(&s->ops[k], out);
    fputc('\n', out);
  }
  fprintf(out, "%zu rank class%s:\n", t->nclasses, t->nclasses == 1 ? "" : "es");
  for (size_t k = 0; k < t->nclasses; k++)
    print_class(&t->classes[k], k, out);
  return ferror(out) ? MV_EIO : 0;
}
