/* State of the OTF2 event reader shared by its parts: reader.c (call stacks, exclusive time,
 * timelines, the reorder heap, stepping) and reader-events.c (the MPI and RMA payload events
 * queued on the innermost open MPI call, and the OTF2 callback table). */
#ifndef MV_ANALYZE_READER_H
#define MV_ANALYZE_READER_H

#include <otf2/otf2.h>

#include "internal.h"

struct frame {
  uint32_t cp, region;
  uint64_t enter;
};
struct payload {
  uint8_t kind, sub;
  uint32_t a, b, c;
};
struct locstate {
  struct mv__vec stack;     /* struct frame */
  struct mv__vec pay;       /* struct payload of the innermost open MPI call */
  int64_t *time;            /* exclusive ticks per call path */
  uint32_t ntime;
  uint32_t mpi_depth;       /* stack depth of the innermost MPI frame + 1, 0 if none */
  uint64_t last, events;
  uint32_t seq;
  int started;              /* an Enter or Leave has been seen */
};
struct rd {
  struct mv__defs *d;
  struct mv__tree *tree;
  struct locstate *ls;
  mv__rec_sink sink;
  void *arg;
  struct mv__rec *heap;     /* min-heap by (leave, loc, seq) */
  size_t nheap, capheap;
  uint64_t last_ref, now;
  uint32_t last_idx;
  int err, emit_mpi;
  uint64_t events;
  struct mv__tl *tl;        /* per location, or NULL: no timelines kept */
};

/* The state of location `ref` at time t (advances the clock, counts the event); NULL when the
 * location is not read. */
struct locstate *mv__rd_loc(struct rd *r, OTF2_LocationRef ref, uint64_t t, uint32_t *idx);
OTF2_CallbackCode mv__rd_enter(OTF2_LocationRef l, OTF2_TimeStamp t, void *u, OTF2_AttributeList *al,
                               OTF2_RegionRef region);
OTF2_CallbackCode mv__rd_leave(OTF2_LocationRef l, OTF2_TimeStamp t, void *u, OTF2_AttributeList *al,
                               OTF2_RegionRef region);
/* reader-events.c: the callback table of the global event reader (NULL when out of memory). */
OTF2_GlobalEvtReaderCallbacks *mv__rd_callbacks(void);

#endif
