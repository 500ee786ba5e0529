/* The generated benchmark's structure: a header saying where it comes from and how to build and
 * run it, the prelude, the communicators (split from MPI_COMM_WORLD by their recorded members),
 * one function per call signature, per rank class its computation distributions, its loops
 * (grammar rules as functions with for loops) and its main sequence, and main() choosing the
 * class of the rank. The source grows with signatures and rules, never with repeat counts. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "emit.h"
#include "mpivet/error.h"
#include "scale.h"

static int refuse(struct mv__gen *g, int rc, const char *fmt, const char *a, const char *b)
{
  snprintf(g->msg, g->msgsize, fmt, a, b);
  return rc;
}

/* Every rank must find at most one communicator per symbol (its own row, its own column...). */
static int check_comms(struct mv__gen *g)
{
  const struct mv_mvt *t = g->t;
  for (size_t i = 0; i < t->ncomms; i++)
    for (size_t j = i + 1; j < t->ncomms; j++) {
      if (t->comms[i].sym != t->comms[j].sym)
        continue;
      for (size_t a = 0; a < t->comms[i].n; a++)
        for (size_t b = 0; b < t->comms[j].n; b++)
          if (t->comms[i].members[a] == t->comms[j].members[b]) {
            char x[32], y[32];
            snprintf(x, sizeof x, "%" PRIu32, t->comms[i].members[a]);
            snprintf(y, sizeof y, "%" PRIu32, t->comms[i].sym);
            return refuse(g, MV_EUNSUP, "rank %s belongs to two communicators created by the "
                          "same call (communicator %s); benchgen cannot tell them apart", x, y);
          }
    }
  return 0;
}

static uint64_t max64(uint64_t a, uint64_t b)
{
  return a > b ? a : b;
}

/* Array sizes of the generated program: communicators, request slots, windows, persistent
 * requests, buffers (the largest message, receive slot and one-sided operation). */
static void sizes(struct mv__gen *g)
{
  const struct mv_mvt *t = g->t;
  g->nsyms = 2, g->nslots = 1, g->maxbytes = 64, g->slotbytes = 1, g->nwins = 1, g->npers = 1;
  g->winbytes = 64;
  for (size_t i = 0; i < t->ncomms; i++)
    g->nsyms = (uint32_t)max64(t->comms[i].sym + 1, g->nsyms);
  for (size_t i = 0; i < t->nsigs; i++) {
    const struct mv__bg_call *k = mv__bg_call_of(t->sigs[i].func);
    if (k && k->cls == MV__BG_START)
      g->npers += t->sigs[i].nops;
    for (size_t j = 0; j < t->sigs[i].nops; j++) {
      const struct mv_mvt_opv *o = &t->sigs[i].ops[j];
      const char *f = mv_mvt_op_fields((unsigned)o->kind);
      uint64_t b = max64(o->bytes, o->received);
      g->maxbytes = max64(b, g->maxbytes);
      if (strchr(f, 's'))
        g->nslots = max64(o->slot + 1, g->nslots);
      if (o->kind == MV_MVT_OP_IRECV || o->kind == MV_MVT_OP_ICOLL)
        g->slotbytes = max64(b, g->slotbytes);
      if (strchr(f, 'c'))
        g->nsyms = (uint32_t)max64(o->comm + 1, g->nsyms);
      if (strchr(f, 'w')) {
        g->nwins = (uint32_t)max64(o->win + 1, g->nwins);
        g->winbytes = max64(b, g->winbytes);
      }
    }
  }
}

/* Ranks as (start, count, stride) triples. */
static void runs(FILE *out, const uint32_t *v, size_t n, size_t *nruns)
{
  *nruns = 0;
  for (size_t i = 0; i < n;) {
    size_t j = i + 1;
    int64_t st = j < n ? (int64_t)v[j] - v[i] : 1;
    while (j < n && (int64_t)v[j] - v[j - 1] == st)
      j++;
    fprintf(out, "%s%" PRIu32 ", %zu, %" PRId64, *nruns ? ", " : "", v[i], j - i, j == i + 1 ? 1 : st);
    ++*nruns, i = j;
  }
}

/* A communicator of all ranks in world order: duplicated, not split (cheaper, like the
 * Cart_create or Comm_dup it usually came from). */
static int is_world(const struct mv_mvt *t, const struct mv_mvt_comm *c)
{
  for (size_t i = 0; i < c->n; i++)
    if (c->members[i] != i)
      return 0;
  return c->n == t->nranks;
}

static void comms(struct mv__gen *g)
{
  const struct mv_mvt *t = g->t;
  for (size_t i = 0; i < t->ncomms; i++) {
    size_t n;
    if (t->comms[i].sym < 2 || is_world(t, &t->comms[i]))
      continue;
    fprintf(g->out, "static const int cm%zu[] = {", i);
    runs(g->out, t->comms[i].members, t->comms[i].n, &n);
    fprintf(g->out, "};\n#define CM%zu_RUNS %zu\n", i, n);
  }
  fprintf(g->out, "\n/* The traced communicators, split from MPI_COMM_WORLD by their members in order. */\n"
          "static void make_comms(int rank)\n{\n  MPI_Comm c;\n  int at;\n  (void)rank, (void)c, (void)at;\n"
          "  for (int s = 0; s < NSYMS; s++)\n    comm[s] = MPI_COMM_NULL;\n"
          "  comm[0] = MPI_COMM_WORLD;\n  comm[1] = MPI_COMM_SELF;\n");
  for (size_t i = 0; i < t->ncomms; i++) {
    if (t->comms[i].sym < 2)
      continue;
    if (is_world(t, &t->comms[i])) {
      fprintf(g->out, "  MPI_Comm_dup(MPI_COMM_WORLD, &comm[%" PRIu32 "]);\n", t->comms[i].sym);
      continue;
    }
    fprintf(g->out, "  at = position(rank, cm%zu, CM%zu_RUNS);\n"
            "  MPI_Comm_split(MPI_COMM_WORLD, at >= 0 ? 0 : MPI_UNDEFINED, at, &c);\n"
            "  if (at >= 0)\n    comm[%" PRIu32 "] = c;\n", i, i, t->comms[i].sym);
  }
  fprintf(g->out, "  for (int s = 0; s < NSYMS; s++)\n    if (comm[s] != MPI_COMM_NULL) {\n"
          "      MPI_Comm_rank(comm[s], &crank[s]);\n      MPI_Comm_size(comm[s], &csize[s]);\n    }\n}\n\n");
}

/* The first value, then the other values' bins in their proportions, their middles scaled so
 * that their mean is the recorded one (the total is kept). */
static void dist(struct mv__gen *g, size_t k, size_t s, const struct mv_mvt_hist *h, size_t nranks)
{
  double first = (double)h->first / (double)(nranks ? nranks : 1), mid = 0, cum = 0, total = 0;
  first = first < 1e18 ? first : 1e18;
  for (size_t i = 0; i < h->n; i++)
    mid += mv_mvt_bin_ns(h->bin[i]) * (double)h->weight[i], total += (double)h->weight[i];
  double others = h->values > nranks ? (double)(h->values - nranks) : 0;
  double rest = h->sum > h->first ? (double)(h->sum - h->first) : 0;
  double f = mid > 0 && rest > 0 && others > 0 ? rest / others / (mid / total) : 0;
  fprintf(g->out, "static const double c%zu_v%zu[] = {0", k, s);
  for (size_t i = 0; i < h->n; i++)
    fprintf(g->out, ", %.9g", mv_mvt_bin_ns(h->bin[i]) * f);
  fprintf(g->out, "}, c%zu_n%zu[] = {0", k, s);
  for (size_t i = 0; i < h->n; i++)
    fprintf(g->out, ", %.17g", cum += (double)h->weight[i]);
  fprintf(g->out, "};\nstatic struct dist c%zu_d%zu = {%.9g, %zu, c%zu_v%zu + 1, c%zu_n%zu + 1, 0};\n",
          k, s, first, total > 0 && others > 0 ? h->n : 0, k, s, k, s);
}

/* The computation before call item at of class k: replayed from its distribution, for any
 * process count with its first value and scale from their forms (scale.h). */
static void spin_call(struct mv__gen *g, size_t k, size_t at, const char *ind)
{
  if (!g->sc) {
    fprintf(g->out, "%sspin(draw(&c%zu_d%zu));\n", ind, k, at);
    return;
  }
  const struct mv__bg_form *f = &g->sc->comp[k][2 * at], *r = f + 1;
  double ref = mv__bg_form_at(r, g->t->nranks);
  char first[128], rest[128], factor[200] = "1";
  mv__bg_form_c(f, 0, first, sizeof first);
  mv__bg_form_c(r, 0, rest, sizeof rest);
  if (r->term != MV__BG_T_ONE && r->b != 0 && ref > 0)
    snprintf(factor, sizeof factor, "fmax(0, %s / %.17g)", rest, ref);
  fprintf(g->out, "%sspin(c%zu_d%zu.k == 0 ? (draw(&c%zu_d%zu), fmax(0, %s)) : draw(&c%zu_d%zu) * %s);\n",
          ind, k, at, k, at, first, k, at, factor);
}

/* Item at of class k's flattened rules: a loop, or a call after its computation; repeated by
 * its count (for any process count: its form). */
static void item(struct mv__gen *g, size_t k, const struct mv_mvt_item *it, size_t at)
{
  const struct mv_mvt_class *c = &g->t->classes[k];
  const struct mv__bg_form *f = g->sc ? &g->sc->counts[k][at] : NULL;
  int loop = !(it->count == 1 && (!f || f->term == MV__BG_T_ONE)), busy = !(it->sym & 1) && c->comp[at].sum > 0;
  const char *ind = loop ? "    " : "  ";
  char n[128];
  if (f)
    mv__bg_form_c(f, 1, n, sizeof n);
  else
    snprintf(n, sizeof n, "%" PRIu64 "L", it->count);
  if (loop)
    fprintf(g->out, "  for (long i = 0; i < %s; i++)%s\n", n, busy ? " {" : "");
  if (it->sym & 1) {
    fprintf(g->out, "%sc%zu_r%" PRIu64 "();\n", ind, k, it->sym >> 1);
    return;
  }
  if (busy)
    spin_call(g, k, at, ind);
  fprintf(g->out, "%ss%" PRIu32 "();\n", ind, c->sigs[it->sym >> 1]);
  if (loop && busy)
    fprintf(g->out, "  }\n");
}

static void klass(struct mv__gen *g, size_t k)
{
  const struct mv_mvt_class *c = &g->t->classes[k];
  size_t n;
  fprintf(g->out, "/* class %zu: %zu rank%s */\n", k, c->nranks, c->nranks == 1 ? "" : "s");
  for (size_t at = 0; at < c->nitems; at++)
    if (c->comp[at].sum > 0)
      dist(g, k, at, &c->comp[at], c->nranks);
  for (size_t r = 0, at = 0; r <= c->nrules; r++) {
    const struct mv_mvt_rule *rule = r < c->nrules ? &c->rules[r] : &c->main;
    if (r < c->nrules)
      fprintf(g->out, "static void c%zu_r%zu(void)\n{\n", k, r);
    else
      fprintf(g->out, "static void c%zu_main(void)\n{\n", k);
    for (size_t i = 0; i < rule->n; i++)
      item(g, k, &rule->items[i], at++);
    fprintf(g->out, "}\n");
  }
  if (g->sc) {
    fprintf(g->out, "#define C%zu_REGIONS 0x%x\n\n", k, g->sc->mask[k]);
    return;
  }
  fprintf(g->out, "static const int c%zu_ranks[] = {", k);
  runs(g->out, c->ranks, c->nranks, &n);
  fprintf(g->out, "};\n#define C%zu_RUNS %zu\n\n", k, n);
}

/* For any process count: the largest buffers as functions of the run's size (0: any message,
 * 1: a receive slot, 2: a window), the maximum of every byte form. */
static void bytes_max(struct mv__gen *g)
{
  const struct mv_mvt *t = g->t;
  char x[128];
  fprintf(g->out, "static double bytes_max(int which)\n{\n  double m[3] = {64, 1, 64};\n");
  for (size_t i = 0; i < t->nsigs; i++)
    for (size_t j = 0; j < t->sigs[i].nops; j++) {
      const struct mv_mvt_opv *o = &t->sigs[i].ops[j];
      const char *f = mv_mvt_op_fields((unsigned)o->kind);
      int slot = o->kind == MV_MVT_OP_IRECV || o->kind == MV_MVT_OP_ICOLL, w = strchr(f, 'w') != NULL;
      for (const char *b = "br"; *b; b++)
        if (strchr(f, *b)) {
          mv__bg_num(g, &t->sigs[i], o, *b, x, sizeof x);
          fprintf(g->out, "  m[0] = fmax(m[0], %s);\n", x);
          if (slot || w)
            fprintf(g->out, "  m[%d] = fmax(m[%d], %s);\n", w ? 2 : 1, w ? 2 : 1, x);
        }
    }
  fprintf(g->out, "  return m[which];\n}\n\n");
}

static void header(struct mv__gen *g, const char *counts)
{
  const struct mv_mvt *t = g->t;
  char run[64];
  snprintf(run, sizeof run, g->sc ? "P" : "%" PRIu32, t->nranks);
  fprintf(g->out, "/* Generated by mpivet benchgen " MV_VERSION " from compressed traces of %s ranks (%s).\n"
          " * It makes the traced application's MPI calls (same functions, peers, tags, sizes\n"
          " * and order per rank) and replays the computation recorded between them.\n", counts, t->meta);
  if (g->sc)
    fprintf(g->out, " * For any process count P: ranks play the class of their region of %s, and peers,\n"
            " * sizes, repeat counts and computation follow forms of P fitted to the traces.\n",
            g->sc->dims == 1 ? "the line 0..P-1" : "the grid MPI_Dims_create(P, 2)");
  fprintf(g->out, " * Build: mpicc -O2 -o bench bench.c -lm (or smpicc). Run on %s ranks:\n"
          " *   mpirun -np %s ./bench [COMPUTE_SCALE [MSG_SCALE]]\n"
          " * Rank 0 prints its time from MPI_Init to MPI_Finalize (the traced run of %" PRIu32
          " ranks: %.6f s). */\n", run, run, t->nranks, (double)t->elapsed_ns / 1e9);
  fprintf(g->out, "#define NRANKS %" PRIu32 "\n#define NSYMS %" PRIu32 "\n#define NSLOTS %" PRIu64
          "\n#define COMPUTE_SCALE %.17g\n#define MSG_SCALE %.17g\n#define NWINS %" PRIu32
          "\n#define NPERS %zu\n", t->nranks, g->nsyms, g->nslots, g->o->compute_scale, g->o->msg_scale,
          g->nwins, g->npers);
  if (g->sc)
    fprintf(g->out, "#define MAXBYTES bytes_max(0)\n#define SLOTBYTES bytes_max(1)\n#define WINBYTES "
            "bytes_max(2)\n#define DIMS %d\n#define REGIONS 0x%x\n", g->sc->dims, g->sc->present);
  else
    fprintf(g->out, "#define MAXBYTES %" PRIu64 "\n#define SLOTBYTES %" PRIu64 "\n#define WINBYTES %" PRIu64
            "\n", g->maxbytes, g->slotbytes, g->winbytes);
  fputs(mv__bg_prelude, g->out);
  if (g->sc)
    fputs(mv__bg_region_c, g->out);
  fputc('\n', g->out);
}

/* The run's size: P, its grid; the traced size, or for any count the same regions as traced. */
static void size_check(struct mv__gen *g)
{
  fprintf(g->out, "  int dims[2] = {0, 0};\n  MPI_Dims_create(size, 2, dims);\n"
          "  P = size, D0 = dims[0], D1 = dims[1];\n");
  if (!g->sc) {
    fprintf(g->out, "  if (size != NRANKS) {\n    if (rank == 0)\n"
            "      fprintf(stderr, \"this benchmark replays %%d ranks; run it on %%d (got %%d)\\n\", NRANKS, NRANKS, size);\n"
            "    MPI_Finalize();\n    return 2;\n  }\n");
    return;
  }
  fprintf(g->out, "  unsigned have = 0;\n  for (int r = 0; r < size; r++)\n    have |= 1u << region(r);\n"
          "  if (have != REGIONS) {\n    if (rank == 0)\n      fprintf(stderr, \"this benchmark needs the "
          "ranks of %s to form the regions traced (%s); %%d ranks (%%d x %%d) do not\\n\", P, D0, D1);\n"
          "    MPI_Finalize();\n    return 2;\n  }\n", g->sc->dims == 1 ? "a line" : "the grid MPI_Dims_create(P, 2)",
          g->sc->dims == 1 ? "first, interior, last" : "corners, edges, interior");
}

static void main_fn(struct mv__gen *g)
{
  fprintf(g->out, "int main(int argc, char **argv)\n{\n  int rank, size;\n  MPI_Init(&argc, &argv);\n"
          "  double t0 = MPI_Wtime();\n"
          "  MPI_Comm_rank(MPI_COMM_WORLD, &rank);\n  MPI_Comm_size(MPI_COMM_WORLD, &size);\n");
  size_check(g);
  fprintf(g->out, "  if (argc > 1)\n    compute_scale = atof(argv[1]);\n"
          "  if (argc > 2)\n    msg_scale = atof(argv[2]);\n"
          "  double tc = MPI_Wtime();\n"
          "  make_comms(rank);\n"
          "  credit = MPI_Wtime() - tc;\n"
          "  slot_bytes = (size_t)(SLOTBYTES * msg_scale) + 64;\n"
          "  size_t big = (size_t)(MAXBYTES * msg_scale) + 64;\n"
          "  sbuf = calloc(big, 1);\n"
          "  rbuf = calloc(big > slot_bytes * (NSLOTS + 1) ? big : slot_bytes * (NSLOTS + 1), 1);\n"
          "  for (int i = 0; i < 4; i++)\n    vc[i] = calloc((size_t)size + 1, sizeof *vc[i]);\n"
          "  if (!sbuf || !rbuf || !vc[0] || !vc[1] || !vc[2] || !vc[3]) {\n"
          "    fprintf(stderr, \"rank %%d: out of memory\\n\", rank);\n"
          "    MPI_Abort(MPI_COMM_WORLD, 2);\n  }\n"
          "  win_bytes = (size_t)(WINBYTES * msg_scale) + 64;\n"
          "  MPI_Op_create(user_fn, 1, &user_op);\n"
          "  for (int i = 0; i < NPERS; i++)\n    pers[i] = MPI_REQUEST_NULL;\n");
  for (size_t k = 0; k < g->t->nclasses; k++)
    if (g->sc)
      fprintf(g->out, "  %sif (C%zu_REGIONS >> region(rank) & 1)\n    c%zu_main();\n", k ? "else " : "", k, k);
    else
      fprintf(g->out, "  %sif (position(rank, c%zu_ranks, C%zu_RUNS) >= 0)\n    c%zu_main();\n",
              k ? "else " : "", k, k, k);
  fprintf(g->out, "  double t = MPI_Wtime() - t0;\n"
          "  if (rank == 0)\n    printf(\"elapsed %%.6f s (rank 0, MPI_Init to MPI_Finalize)\\n\", t);\n"
          "  for (int i = 0; i < NPERS; i++)\n    if (pers[i] != MPI_REQUEST_NULL)\n"
          "      MPI_Request_free(&pers[i]);\n  MPI_Op_free(&user_op);\n"
          "  for (int i = 0; i < 4; i++)\n    free(vc[i]);\n"
          "  free(sbuf);\n  free(rbuf);\n  MPI_Finalize();\n  return 0;\n}\n");
}

/* Everything after the checks: sizes, header, communicators, signatures, classes, main. */
static int write_program(struct mv__gen *g, const char *counts)
{
  const struct mv_mvt *t = g->t;
  sizes(g);
  header(g, counts);
  g->npers = 0;  /* now the persistent requests made so far */
  comms(g);
  for (size_t i = 0; i < t->nsigs; i++)
    mv__bg_emit_sig(g, i);
  for (size_t k = 0; k < t->nclasses; k++)
    klass(g, k);
  if (g->sc)
    bytes_max(g);
  main_fn(g);
  return ferror(g->out) ? MV_EIO : 0;
}

int mv_benchgen_emit(const struct mv_mvt *t, const struct mv_benchgen_opts *o, FILE *out,
                     char *msg, size_t msgsize)
{
  struct mv__gen g = {.t = t, .o = o, .out = out, .msg = msg, .msgsize = msgsize};
  char counts[32];
  int rc = mv__bg_validate(t, msg, msgsize);
  if (!rc)
    rc = check_comms(&g);
  snprintf(counts, sizeof counts, "%" PRIu32, t->nranks);
  return rc ? rc : write_program(&g, counts);
}

int mv_benchgen_emit_scaled(const struct mv_mvt *const *t, size_t n, const struct mv_benchgen_opts *o,
                            FILE *out, char *msg, size_t msgsize)
{
  struct mv__bg_scale sc = {0};
  int rc = 0;
  for (size_t i = 0; i < n && !rc; i++)
    rc = mv__bg_validate(t[i], msg, msgsize);
  if (rc || (rc = mv__bg_scale_build(&sc, t, n, msg, msgsize)) != 0) {
    mv__bg_scale_release(&sc);
    return rc;
  }
  char counts[256] = "";
  for (size_t i = 0, at = 0; i < n && at < sizeof counts; i++)
    at += (size_t)snprintf(counts + at, sizeof counts - at, "%s%" PRIu32, i ? (i + 1 < n ? ", " : " and ") : "",
                           sc.t[i]->nranks);
  struct mv__gen g = {.t = sc.t[n - 1], .o = o, .out = out, .msg = msg, .msgsize = msgsize, .sc = &sc};
  rc = write_program(&g, counts);
  mv__bg_scale_release(&sc);
  return rc;
}
