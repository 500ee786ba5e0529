/* State of the OTF2 event reader shared by its parts: reader.c (call stacks, exclusive time,
 * timelines, the reorder heap, stepping through the locations' own event readers) and reader-events.c (the MPI and RMA payload events
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
  uint64_t pos;             /* time of the last event read */
  uint64_t read;            /* events read (with or without a callback) */
  uint32_t seq;
  int started;              /* an Enter or Leave has been seen */
  OTF2_EvtReader *er;       /* this location's event reader, NULL once it ended or was cut */
  int cut;                  /* the reading ended early (unreadable or fewer events than announced) */
};
struct rd {
  struct mv__defs *d;
  struct mv__tree *tree;
  struct locstate *ls;
  mv__rec_sink sink;
  void *arg;
  struct mv__rec *heap;     /* min-heap by (leave, loc, seq) */
  size_t nheap, capheap;
  uint64_t last_ref;
  uint32_t last_idx;
  int err, emit_mpi;
  uint64_t events;
  struct mv__tlset *tls;    /* the timelines, or NULL: none kept */
};

/* The state of location `ref` at time t (advances its clock, counts the event); NULL when the
 * location is not read. */
struct locstate *mv__rd_loc(struct rd *r, OTF2_LocationRef ref, uint64_t t, uint32_t *idx);
OTF2_CallbackCode mv__rd_enter(OTF2_LocationRef l, OTF2_TimeStamp t, uint64_t pos, void *u,
                               OTF2_AttributeList *al, OTF2_RegionRef region);
OTF2_CallbackCode mv__rd_leave(OTF2_LocationRef l, OTF2_TimeStamp t, uint64_t pos, void *u,
                               OTF2_AttributeList *al, OTF2_RegionRef region);
/* reader-events.c: the callback table of the event readers (NULL when out of memory). */
OTF2_EvtReaderCallbacks *mv__rd_callbacks(void);

#endif
