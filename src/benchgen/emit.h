/* The C emitter's shared state (emit.c: program structure, classes, grammar; emit-calls.c:
 * one function per call signature; emit-prelude.c: the fixed helpers). */
#ifndef MPIVET_BENCHGEN_EMIT_H
#define MPIVET_BENCHGEN_EMIT_H

#include <stdint.h>
#include <stdio.h>

#include "internal.h"

struct mv__bg_scale;

struct mv__gen {
  const struct mv_mvt *t;
  const struct mv_benchgen_opts *o;
  FILE *out;
  char *msg;
  size_t msgsize;
  uint64_t maxbytes, slotbytes, nslots, winbytes;
  uint32_t nsyms, nwins;
  size_t npers;                 /* persistent requests: all (header), then made so far (start) */
  int locks;                    /* a passive-target lock was emitted: main sets up lk_lock's guard */
  const struct mv__bg_scale *sc;  /* a benchmark for any process count (scale.h), or NULL */
};
/* Field f (one of "ptbron", mvt.h's letters) of operation o of signature s as C: the recorded
 * number, or for any process count its form (scale.h). The result is buf. */
const char *mv__bg_num(const struct mv__gen *g, const struct mv_mvt_sig *s, const struct mv_mvt_opv *o,
                       char f, char *buf, size_t n);
extern const char mv__bg_prelude[];
/* Writes `static void sI(void) { ... }` for signature i: its MPI call(s). */
void mv__bg_emit_sig(struct mv__gen *g, size_t i);
/* The one-sided calls' bodies (emit-rma.c). */
void mv__bg_emit_rma(struct mv__gen *g, const struct mv_mvt_sig *s, const struct mv__bg_call *k);
/* C expressions of an operation's datatype and reduction (emit-calls.c). */
const char *mv__bg_type(const struct mv_mvt_opv *o, int reduce, uint64_t bytes, char *buf, size_t n);
const char *mv__bg_op(const struct mv_mvt_opv *o, char *buf, size_t n);

#endif
