/* State of the replay engine shared by its parts: engine.c (dispatch, point-to-point,
 * collectives, window collectives) and engine-rma.c (fence epochs, general active target,
 * lock epochs). Every structure is keyed so that only unmatched state stays in memory. */
#ifndef MV_ANALYZE_ENGINE_H
#define MV_ANALYZE_ENGINE_H

#include "internal.h"

struct mv__iv {
  uint64_t enter, leave;
  uint32_t cp;
};
/* One side of a wait state: a location's call. */
struct mv__side {
  uint64_t enter, leave;
  uint32_t loc, cp;
};
/* An activity of an RMA epoch: an MPI call with its call path; op = RMA operation. */
struct mv__act {
  uint64_t enter, leave;
  uint32_t cp;
  int op;
};

struct mv__engine {
  struct mv__defs *d;
  const uint8_t *local;
  struct mv__store *out;
  int err;
  uint64_t unmatched;        /* dropped epochs of local locations (mv__engine_finish adds the rest) */
  /* point-to-point */
  struct mv__map chans;        /* (comm<<32|tag, src<<32|dst) -> struct chan * */
  struct mv__vec *pending_to;  /* per receiver: channels holding unreceived sends */
  struct mv__map multi;        /* (loc, enter) -> struct multi * (calls completing n receives) */
  /* collectives (MPI and window) */
  struct mv__map seqs;         /* (kind<<32|comm_or_win, loc) -> next instance number */
  struct mv__map insts;        /* (kind<<32|comm_or_win, seq) -> struct coll * */
  struct mv__map members;      /* (kind<<32|comm_or_win, loc) -> index + 1 */
  /* fence epochs */
  struct mv__map fence_in;     /* (win<<32|target, seq) -> struct fence_side * (origins) */
  struct mv__map fence_out;    /* (win<<32|origin, seq) -> struct fence_side * (targets) */
  /* general active target */
  struct mv__map access;       /* (origin, win) -> struct aepoch * (open) */
  struct mv__map expose;       /* (target, win) -> struct eepoch * (posted, not waited) */
  struct mv__map pairs;        /* (win<<32|n, origin<<32|target) -> struct gpair * */
  struct mv__map paircount;    /* (win<<32|side, origin<<32|target) -> epochs so far */
  /* lock epochs */
  struct mv__map lock_open;    /* (origin, win<<32|target) -> struct lepoch * */
  struct mv__map lock_done;    /* (win, target) -> struct mv__vec * of struct lepoch * */
  struct mv__vec *progress;    /* per location: struct mv__iv of its MPI calls */
  uint32_t *live_wins;         /* per location: windows created and not yet freed */
  struct mv__causes *causes;   /* wait states with their causes, or NULL */
};

void mv__credit(struct mv__engine *e, int metric, uint32_t loc, uint32_t cp, int64_t v);
/* Record that w waited `amount` for d (metric: the wait-state pattern; interval: contention). */
void mv__blame(struct mv__engine *e, int metric, struct mv__side w, int64_t amount, struct mv__side d,
               int interval);
void mv__csync(struct mv__engine *e, uint32_t loc, uint64_t enter, uint64_t done, uint64_t leave, uint32_t comm);
/* Keys of map m whose location (k1, or the high half of k2) is read by this process. */
uint64_t mv__local_keys(const struct mv__engine *e, const struct mv__map *m, int in_k2);

/* engine-rma.c */
int mv__rma_op(struct mv__engine *e, const struct mv__rec *r);
int mv__rma_gsync(struct mv__engine *e, const struct mv__rec *r);
int mv__rma_lock(struct mv__engine *e, const struct mv__rec *r);
int mv__rma_progress(struct mv__engine *e, const struct mv__rec *r);
/* A fence instance `seq` of window `win` finished: credit Early Fence and pair counts of
 * local member p (its fence call: enter, cp), and drop the epoch's state. */
void mv__rma_fence_done(struct mv__engine *e, uint32_t win, uint32_t seq, uint32_t p, uint32_t nmembers,
                        uint64_t enter, uint64_t wait, uint32_t cp);
int mv__act_push(struct mv__vec *v, const struct mv__rec *r, int op);
/* engine-lock.c; mv__lock_op returns 1 when the operation belongs to an open lock epoch */
int mv__lock_op(struct mv__engine *e, const struct mv__rec *r);
void mv__rma_window_freed(struct mv__engine *e, uint32_t win, uint32_t loc);
void mv__rma_finish(struct mv__engine *e);
void mv__rma_release(struct mv__engine *e);
void mv__lock_release(struct mv__engine *e);

#endif
