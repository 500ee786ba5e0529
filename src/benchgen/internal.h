/* benchgen's internal interfaces: the table of replayable calls (calls.c), shared by the
 * matching check (check.c) and the C emitter (emit*.c), so that both accept the same calls. */
#ifndef MPIVET_BENCHGEN_INTERNAL_H
#define MPIVET_BENCHGEN_INTERNAL_H

#include "mpivet/benchgen.h"
#include "mvt.h"

enum mv__bg_class { MV__BG_SEND, MV__BG_RECV, MV__BG_SENDRECV, MV__BG_ISEND, MV__BG_IRECV,
                    MV__BG_WAIT, MV__BG_COLL, MV__BG_FINALIZE, MV__BG_START, MV__BG_ICOLL,
                    MV__BG_WIN, MV__BG_EPOCH, MV__BG_GROUP, MV__BG_SYNC, MV__BG_RMA };
/* How a collective's element count follows from the bytes the tracer recorded for the rank. */
enum mv__bg_count { MV__BG_NONE, MV__BG_SENT, MV__BG_RECEIVED, MV__BG_SENT_PER_RANK,
                    MV__BG_ROOTED_BCAST };
struct mv__bg_call {
  const char *name;
  int cls;      /* enum mv__bg_class */
  int count;    /* enum mv__bg_count */
  int reduce;   /* takes a datatype and an MPI_Op */
};
const struct mv__bg_call *mv__bg_call_of(const char *func);
/* 0 when every signature can be replayed; MV_EUNSUP (a function or event benchgen does not
 * replay) or MV_EPARSE (operations that do not fit the function) with msg naming it. */
int mv__bg_validate(const struct mv_mvt *t, char *msg, size_t msgsize);

/* Walks a class's grammar call by call (iter.c): mv__bg_next returns the next call's global
 * signature id, or -1 at the end. Depth is bounded by the number of rules + 1. */
struct mv__bg_frame { const struct mv_mvt_rule *rule; size_t item; uint64_t left; };
struct mv__bg_iter {
  const struct mv_mvt_class *c;
  struct mv__bg_frame *stack;
  size_t depth;
};
int mv__bg_iter_init(struct mv__bg_iter *it, const struct mv_mvt_class *c);   /* 0 or MV_ENOMEM */
long mv__bg_next(struct mv__bg_iter *it);
void mv__bg_iter_release(struct mv__bg_iter *it);
/* The class of world rank r (-1: none), and the index in t->comms of the communicator with
 * symbol sym that r belongs to (-1 world or self or unknown); its member list and r's rank. */
long mv__bg_class_of(const struct mv_mvt *t, uint32_t r);
const uint32_t *mv__bg_members(const struct mv_mvt *t, uint32_t sym, uint32_t r, size_t *n, size_t *me);

#endif
