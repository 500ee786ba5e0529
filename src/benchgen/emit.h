/* The C emitter's shared state (emit.c: program structure, classes, grammar; emit-calls.c:
 * one function per call signature; emit-prelude.c: the fixed helpers). */
#ifndef MPIVET_BENCHGEN_EMIT_H
#define MPIVET_BENCHGEN_EMIT_H

#include <stdint.h>
#include <stdio.h>

#include "internal.h"

struct mv__gen {
  const struct mv_mvt *t;
  const struct mv_benchgen_opts *o;
  FILE *out;
  char *msg;
  size_t msgsize;
  uint64_t maxbytes, slotbytes, nslots;
  uint32_t nsyms;
};
extern const char mv__bg_prelude[];
/* Writes `static void sI(void) { ... }` for signature i: its MPI call(s). */
void mv__bg_emit_sig(struct mv__gen *g, size_t i);

#endif
