/* The compressed trace's writer side (docs/formats.md, "Compressed trace"): one rank's raw
 * records become a call-signature table, a grammar with repeat counts and log-binned times
 * (ctrace.c, ctrace-grammar.c, no MPI); ranks are then merged pairwise with identical ranks kept
 * once (ctrace-merge.c, no MPI) and written by rank 0 (finalize.c does the exchanges). */
#ifndef MPIVET_TRACE_CTRACE_H
#define MPIVET_TRACE_CTRACE_H

#include <stddef.h>
#include <stdint.h>

#include "archive.h"
#include "rawfmt.h"

/* A growing byte string; ok = 0 once an allocation failed (then every later put is dropped). */
struct mv__bytes {
  uint8_t *p;
  size_t n, cap;
  int ok;
};
void mv__bytes_put(struct mv__bytes *b, uint64_t v);         /* one varint */
void mv__bytes_add(struct mv__bytes *b, const void *p, size_t n);
void mv__bytes_release(struct mv__bytes *b);

/* Interned byte strings -> dense ids in first-seen order (signatures, rule bodies). */
struct mv__intern {
  struct mv__bytes pool;
  size_t *off, n, cap;          /* string i = pool[off[i], off[i + 1]) */
  uint32_t *slots;              /* open addressing, id + 1; 0 empty */
  size_t nslots;
};
/* id of the string p[0..n), added if new; -1 when out of memory. */
long mv__intern_id(struct mv__intern *t, const uint8_t *p, size_t n);
const uint8_t *mv__intern_get(const struct mv__intern *t, size_t id, size_t *n);
void mv__intern_release(struct mv__intern *t);

/* The grammar: items are (symbol, repeat count), symbol = signature * 2 or rule * 2 + 1. The
 * main sequence folds its tail online: a repeated symbol adds counts, a tail equal to the body
 * of the loop before it adds one to that loop, two equal tails become a new rule (loop) of
 * count 2. Tails are compared up to MV__CT_WINDOW items of the main sequence (after folding). */
#define MV__CT_WINDOW 256
struct mv__ct_item { uint64_t sym, count; };
struct mv__grammar {
  struct mv__intern rules;                 /* body of rule i, as varints */
  struct mv__ct_item *items; size_t nitems, capitems;   /* bodies in rule order, no gaps: rule i at body_off[i] */
  size_t *body_off, *body_len, caprules;
  struct mv__ct_item *top; size_t ntop, captop;          /* the main sequence */
  int ok;
};
int mv__grammar_push(struct mv__grammar *g, uint64_t sym);   /* 0 or -ENOMEM */
void mv__grammar_encode(const struct mv__grammar *g, struct mv__bytes *out);
void mv__grammar_release(struct mv__grammar *g);

/* Log bins of times (mvt.h): MV__CT_NBINS dense counts, their exact sum in ns (h[NBINS]) and
 * the first value (h[NBINS + 1]; merged ranks: the sum of their first values), written as the
 * sum, the first, the number of non-empty bins, then delta of the bin and count for each. */
#define MV__CT_NBINS 192
void mv__ct_put_hist(struct mv__bytes *o, const uint64_t *h);
/* Reads one such histogram from [*p, end) and adds it to the dense h; 0 or -EINVAL. */
int mv__ct_get_hist(const uint8_t **p, const uint8_t *end, uint64_t *h);

/* What a rank knows that its raw records do not say: every intra-communicator it belonged to
 * (tracer id, size, own rank there) and the world size (tracer ids are k * size + leader). */
struct mv__ct_comm { uint32_t id; int size, rank; };
struct mv__ct_input {
  const char *dir;
  int rank, size;
  const struct mv__clock *clk;
  const struct mv__ct_comm *comms;
  size_t ncomms;
  const struct mv__def_set *groups;   /* the rank's RMA sync groups (its definitions), world ranks */
  size_t ngroups;
};
/* Symbolic communicator (or window): the creation number k of the tracer's id k * size + leader;
 * a peer's rank in communicator comm relative to the caller's (mvt.h, field p). */
uint64_t mv__ct_comm_sym(const struct mv__ct_input *in, uint32_t id);
uint64_t mv__ct_peer(const struct mv__ct_input *in, uint32_t comm, uint32_t peer);
/* One-sided records (ctrace-rma.c): add(arg, kind) appends an operation of that kind to the
 * call and returns its fields (f[1] onwards, mvt.h order), NULL when out of memory. 1 when r
 * was an RMA record (operations added, maybe none), 0 when not, -ENOMEM. */
typedef uint64_t *mv__ct_add_fn(void *arg, uint64_t kind);
struct mv__ct_rma { uint32_t (*wins)[2]; size_t nwins; };   /* window id -> communicator id */
int mv__ct_rma(struct mv__ct_rma *st, const struct mv__ct_input *in, const struct mv__raw_rec *r, int region,
               mv__ct_add_fn *add, void *arg);
/* One rank's compressed trace: blob[0, nstruct) is its structure (signatures, grammar), equal
 * for ranks that made the same calls; the rest its times (span, the number of call items of
 * the grammar, then per call item, rule bodies in order and then the main sequence, two log
 * histograms: computation before, time in the call). 0, or a negative errno. */
struct mv__ct_rank { struct mv__bytes blob; size_t nstruct; };
int mv__ct_build(const struct mv__ct_input *in, struct mv__ct_rank *out);

/* A set of rank classes (merged ranks); ranks sorted within each class. */
struct mv__ct_class {
  uint32_t *ranks; size_t nranks;
  uint8_t *blob; size_t nblob, nstruct;
};
struct mv__ct_set { struct mv__ct_class *v; size_t n; };
int mv__ct_set_add_rank(struct mv__ct_set *s, int rank, const struct mv__ct_rank *r);
/* Serialized for the exchange and back; merge moves b's classes into a (b emptied). */
int mv__ct_set_pack(const struct mv__ct_set *s, struct mv__bytes *out);
int mv__ct_set_unpack(struct mv__ct_set *s, const uint8_t *p, size_t n);
int mv__ct_set_merge(struct mv__ct_set *a, struct mv__ct_set *b);
void mv__ct_set_release(struct mv__ct_set *s);
/* Rank 0: DIR/compressed.mvt from the merged set, the communicators' members (world ranks in
 * comm order) from the definitions, the region names, the longest span. 0 or a negative errno. */
int mv__ct_write(const char *dir, const struct mv__ct_set *s, const struct mv__raw_defs *defs, int nranks);
/* After a crash (ctrace-finish.c): DIR/compressed.mvt of every rank's raw records, marked with
 * the definitions' truncation reasons. 0, -ENOENT (no rank had records) or a negative errno. */
int mv__ct_finish(const char *dir, const struct mv__raw_defs *d);

#endif
