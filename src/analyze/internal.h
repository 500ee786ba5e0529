/* Internal interfaces of the wait-state analyzer: definitions read from the OTF2 archive, the
 * compact "sync records" the reader extracts at the leave of every MPI call, the replay engine
 * that matches them (p2p channels, collective instances, RMA epochs) and the sparse result store. */
#ifndef MV_ANALYZE_INTERNAL_H
#define MV_ANALYZE_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "mpivet/analyze.h"

#define MV__NONE UINT32_MAX

/* ---- hash map: 128-bit key -> 64-bit value (open addressing, backward-shift deletion) ---- */
struct mv__map_slot {
  uint64_t k1, k2, val;
  int used;
};
struct mv__map {
  struct mv__map_slot *slots;
  size_t cap, count;
};
void mv__map_init(struct mv__map *m);
void mv__map_release(struct mv__map *m);
uint64_t *mv__map_get(struct mv__map *m, uint64_t k1, uint64_t k2);
/* Returns the value slot, inserting `init` when absent; NULL when out of memory. */
uint64_t *mv__map_put(struct mv__map *m, uint64_t k1, uint64_t k2, uint64_t init, int *inserted);
void mv__map_del(struct mv__map *m, uint64_t k1, uint64_t k2);
#define MV__MAP_FOREACH(m, s) \
  for (struct mv__map_slot *s = (m)->slots; s && s < (m)->slots + (m)->cap; s++) if (s->used)

/* ---- growable array of fixed-size items ---- */
struct mv__vec {
  void *data;
  size_t len, cap, item;
};
void mv__vec_init(struct mv__vec *v, size_t item);
void mv__vec_release(struct mv__vec *v);
void *mv__vec_push(struct mv__vec *v);          /* NULL when out of memory */
void mv__vec_fit(struct mv__vec *v);            /* give back unused capacity (kept if realloc fails) */
#define MV__VEC_AT(v, T, i) (((T *)(v)->data)[i])

/* ---- definitions ---- */
enum mv__rclass {     /* what an MPI region is, for the metric tree and the replay */
  MV__RC_USER, MV__RC_MPI, MV__RC_P2P, MV__RC_COLL, MV__RC_RSYNC, MV__RC_RCOMM, MV__RC_IO,
  MV__RC_COMP          /* the analyzer's "Computation" region: time outside every traced region */
};
enum mv__gsync_role { MV__GS_NONE, MV__GS_POST, MV__GS_START, MV__GS_COMPLETE, MV__GS_WAIT };

struct mv__region {
  uint32_t name;      /* string ref */
  uint8_t cls;        /* enum mv__rclass */
  uint8_t role;       /* enum mv__gsync_role */
  uint8_t special;    /* enum mv__rspecial */
};
enum mv__rspecial {
  MV__RS_NONE,
  MV__RS_BLOCK_SEND,  /* MPI_Send, MPI_Ssend: its send can be a Late Receiver (Scalasca's rule) */
  MV__RS_INIT,        /* MPI_Init(_thread): the critical path ends at its leave */
  MV__RS_FINALIZE     /* MPI_Finalize: the path starts on the location entering it last */
};
struct mv__group {
  uint32_t type, n;
  uint64_t *members;
};
struct mv__comm {
  uint32_t group;     /* group ref */
  uint32_t n;         /* resolved size (MV__NONE: unresolved, 0: invalid) */
  uint32_t *locs;     /* comm rank -> location index */
  int self;           /* MPI_COMM_SELF-like: the calling location only */
};

struct mv__defs {
  uint64_t resolution, offset, trace_len;
  char **strings;
  uint32_t nstrings;
  struct mv__region *regions;
  uint32_t nregions;
  struct mv__group *groups;
  uint32_t ngroups;
  struct mv__comm *comms;
  uint32_t ncomms;
  uint32_t *win_comm;   /* window ref -> comm ref */
  uint32_t nwins;
  uint64_t *loc_ref;    /* location index -> OTF2 location ref (definition order) */
  uint64_t *loc_events; /* events announced in the definitions */
  uint32_t *loc_rank;   /* location index -> world rank (MV__NONE if unknown) */
  uint32_t nloc;
  struct mv__map loc_index;   /* OTF2 location ref -> index */
  uint32_t *rank_loc;   /* world rank -> location index */
  uint32_t nranks;
  uint32_t callsite_attr;   /* attribute "mpivet::callsite" on Enter, MV__NONE if absent */
  uint32_t comp_region;     /* the synthetic "Computation" region (added after the trace's) */
};
int mv__otf2_defs_read(struct mv__defs *d, void *otf2_reader);
void mv__otf2_defs_release(struct mv__defs *d);
const char *mv__defs_string(const struct mv__defs *d, uint32_t ref);
/* Location of comm rank `rank` (self: the caller `loc`); MV__NONE when unknown. */
uint32_t mv__comm_loc(struct mv__defs *d, uint32_t comm, uint32_t rank, uint32_t loc);
uint32_t mv__comm_size(struct mv__defs *d, uint32_t comm);
/* Locations of a group given as world ranks (OTF2 COMM_GROUP semantics); count in *n. */
const uint64_t *mv__group_members(const struct mv__defs *d, uint32_t group, uint32_t *n);

/* ---- sync records: one per MPI communication/synchronization payload, emitted at the leave
 * of the MPI call holding it; enter/leave are that call's. Ordered by (leave, loc, seq). ---- */
enum mv__rkind {
  MV__R_SEND,      /* send of MPI_Send/MPI_Ssend: a=comm, b=receiver location, c=tag */
  MV__R_ISEND,     /* any other send (non-blocking start, Sendrecv, Bsend, Rsend): same fields */
  MV__R_RECV,      /* receive completion: a=comm, b=sender location, c=tag, n=receives in call */
  MV__R_COLL,      /* MPI collective: a=comm, b=root location or MV__NONE, sub=op */
  MV__R_RCOLL,     /* RMA collective: a=window, sub=op */
  MV__R_RMAOP,     /* put/get/atomic: a=window, b=target location */
  MV__R_GSYNC,     /* general active target: a=window, c=group, sub=role */
  MV__R_LOCK,      /* lock request: a=window, b=target location, sub=1 exclusive */
  MV__R_UNLOCK,    /* lock release: a=window, b=target location */
  MV__R_MPI        /* any MPI call (progress intervals for Wait for Progress) */
};
struct mv__rec {
  uint64_t enter, leave;
  uint32_t loc, seq, cp;
  uint32_t a, b, c;
  uint16_t n;
  uint8_t kind, sub;
};
int mv__rec_cmp(const void *x, const void *y);   /* (leave, loc, seq) */

/* ---- call tree (per analysis process) ---- */
struct mv__tree {
  uint32_t *parent, *region;
  uint64_t *site;         /* call site (tracer's return-address hash), 0 if none */
  uint32_t n, cap;
  struct mv__map index;   /* (parent << 32 | region, site) -> id */
};
int mv__tree_init(struct mv__tree *t);
void mv__tree_release(struct mv__tree *t);
uint32_t mv__tree_child(struct mv__tree *t, uint32_t parent, uint32_t region, uint64_t site); /* NONE: nomem */

/* ---- metrics ---- */
#define MV__METRICS(XX)                                                                          \
  XX(TIME, NONE, "time", "Time", "sec")                                                          \
  XX(COMP, TIME, "comp", "Computation", "sec")                                                   \
  XX(MPI, TIME, "mpi", "MPI", "sec")                                                             \
  XX(P2P, MPI, "mpi_p2p", "Point-to-point", "sec")                                               \
  XX(LS, P2P, "late_sender", "Late Sender", "sec")                                               \
  XX(LSWO, LS, "late_sender_wrong_order", "Late Sender, Wrong Order", "sec")                     \
  XX(LR, P2P, "late_receiver", "Late Receiver", "sec")                                           \
  XX(COLL, MPI, "mpi_collective", "Collective", "sec")                                           \
  XX(WBAR, COLL, "wait_barrier", "Wait at Barrier", "sec")                                       \
  XX(WNXN, COLL, "wait_nxn", "Wait at N x N", "sec")                                             \
  XX(LBC, COLL, "late_broadcast", "Late Broadcast", "sec")                                       \
  XX(ERED, COLL, "early_reduce", "Early Reduce", "sec")                                          \
  XX(RSYNC, MPI, "rma_sync", "RMA Synchronization", "sec")                                       \
  XX(WCREATE, RSYNC, "wait_win_create", "Wait at Window Create", "sec")                          \
  XX(WFREE, RSYNC, "wait_win_free", "Wait at Window Free", "sec")                                \
  XX(WFENCE, RSYNC, "wait_fence", "Wait at Fence", "sec")                                        \
  XX(EFENCE, WFENCE, "early_fence", "Early Fence", "sec")                                        \
  XX(LPOST, RSYNC, "late_post", "Late Post", "sec")                                              \
  XX(EWAIT, RSYNC, "early_wait", "Early Wait", "sec")                                            \
  XX(LCOMPL, EWAIT, "late_complete", "Late Complete", "sec")                                     \
  XX(LOCKC, RSYNC, "lock_contention", "Lock Contention", "sec")                                  \
  XX(WFP, RSYNC, "wait_for_progress", "Wait for Progress (no-overlap, lower bound)", "sec")      \
  XX(RCOMM, MPI, "rma_comm", "RMA Communication", "sec")                                         \
  XX(LPOSTC, RCOMM, "late_post_comm", "Late Post", "sec")                                        \
  XX(IO, MPI, "mpi_io", "File I/O", "sec")                                                       \
  XX(WFPUP, NONE, "wait_for_progress_upper", "Wait for Progress (last-call, upper bound)", "sec") \
  XX(PAIRS, NONE, "rma_pairwise_sync", "RMA pairwise synchronizations", "occ")                   \
  XX(PAIRSU, PAIRS, "rma_pairwise_sync_unneeded", "Unneeded RMA pairwise synchronizations", "occ")   \
  MV__DELAY_METRICS(XX)                                                                          \
  MV__CP_METRICS(XX)

/* Root causes (rootcause.c): Scalasca's delay-cost metrics, mpivet's one-sided ones, and the
 * classification of the wait states they explain. */
#define MV__DELAY_METRICS(XX)                                                                    \
  XX(DELAY, NONE, "delay", "Delay costs", "sec")                                                 \
  XX(DMPI, DELAY, "delay_mpi", "MPI delay costs", "sec")                                         \
  XX(DP2P, DMPI, "delay_p2p", "Point-to-point delay costs", "sec")                               \
  XX(DLSA, DP2P, "delay_latesender_aggregate", "Late Sender delay costs", "sec")                 \
  XX(DLS, DLSA, "delay_latesender", "Short-term", "sec")                                         \
  XX(DLSL, DLSA, "delay_latesender_longterm", "Long-term", "sec")                                \
  XX(DLRA, DP2P, "delay_latereceiver_aggregate", "Late Receiver delay costs", "sec")             \
  XX(DLR, DLRA, "delay_latereceiver", "Short-term", "sec")                                       \
  XX(DLRL, DLRA, "delay_latereceiver_longterm", "Long-term", "sec")                              \
  XX(DCOLL, DMPI, "delay_collective", "Collective delay costs", "sec")                           \
  XX(DBARA, DCOLL, "delay_barrier_aggregate", "Wait at Barrier delay costs", "sec")              \
  XX(DBAR, DBARA, "delay_barrier", "Short-term", "sec")                                          \
  XX(DBARL, DBARA, "delay_barrier_longterm", "Long-term", "sec")                                 \
  XX(DN2NA, DCOLL, "delay_n2n_aggregate", "Wait at N x N delay costs", "sec")                    \
  XX(DN2N, DN2NA, "delay_n2n", "Short-term", "sec")                                              \
  XX(DN2NL, DN2NA, "delay_n2n_longterm", "Long-term", "sec")                                     \
  XX(D12NA, DCOLL, "delay_12n_aggregate", "Late Broadcast delay costs", "sec")                   \
  XX(D12N, D12NA, "delay_12n", "Short-term", "sec")                                              \
  XX(D12NL, D12NA, "delay_12n_longterm", "Long-term", "sec")                                     \
  XX(DN21A, DCOLL, "delay_n21_aggregate", "Early Reduce delay costs", "sec")                     \
  XX(DN21, DN21A, "delay_n21", "Short-term", "sec")                                              \
  XX(DN21L, DN21A, "delay_n21_longterm", "Long-term", "sec")                                     \
  XX(DRMA, DMPI, "delay_rma", "One-sided delay costs", "sec")                                    \
  XX(DLPOST, DRMA, "delay_latepost", "Late Post, short-term", "sec")                             \
  XX(DLPOSTL, DRMA, "delay_latepost_longterm", "Late Post, long-term", "sec")                    \
  XX(DEWAIT, DRMA, "delay_earlywait", "Early Wait, short-term", "sec")                           \
  XX(DEWAITL, DRMA, "delay_earlywait_longterm", "Early Wait, long-term", "sec")                  \
  XX(DFENCE, DRMA, "delay_fence", "Wait at Fence, short-term", "sec")                            \
  XX(DFENCEL, DRMA, "delay_fence_longterm", "Wait at Fence, long-term", "sec")                   \
  XX(DWCREATE, DRMA, "delay_wincreate", "Wait at Window Create, short-term", "sec")              \
  XX(DWCREATEL, DRMA, "delay_wincreate_longterm", "Wait at Window Create, long-term", "sec")     \
  XX(DWFREE, DRMA, "delay_winfree", "Wait at Window Free, short-term", "sec")                    \
  XX(DWFREEL, DRMA, "delay_winfree_longterm", "Wait at Window Free, long-term", "sec")           \
  XX(DWFP, DRMA, "delay_waitforprogress", "Wait for Progress, short-term", "sec")                \
  XX(DWFPL, DRMA, "delay_waitforprogress_longterm", "Wait for Progress, long-term", "sec")       \
  XX(DLOCK, DRMA, "delay_lockcontention", "Lock Contention interval delay, short-term", "sec")   \
  XX(DLOCKL, DRMA, "delay_lockcontention_longterm", "Lock Contention interval delay, long-term", "sec") \
  XX(WDIR, NONE, "mpi_wait_direct", "Direct wait states", "sec")                                 \
  XX(WIND, NONE, "mpi_wait_indirect", "Indirect wait states", "sec")                             \
  XX(WINDLS, WIND, "mpi_wait_indirect_latesender", "Indirect Late Sender", "sec")                \
  XX(WINDLR, WIND, "mpi_wait_indirect_latereceiver", "Indirect Late Receiver", "sec")            \
  XX(WPROP, NONE, "mpi_wait_propagating", "Propagating wait states", "sec")                      \
  XX(WPROPLS, WPROP, "mpi_wait_propagating_ls", "Propagating Late Sender", "sec")                \
  XX(WPROPLR, WPROP, "mpi_wait_propagating_lr", "Propagating Late Receiver", "sec")              \
  XX(WTERM, NONE, "mpi_wait_terminal", "Terminal wait states", "sec")

/* Critical path (critpath.c). */
#define MV__CP_METRICS(XX)                                                                       \
  XX(CP, NONE, "critical_path", "Critical path", "sec")                                          \
  XX(CPIMB, NONE, "critical_path_imbalance", "Critical-path imbalance", "sec")                   \
  XX(PI, NONE, "performance_impact", "Performance impact (resource time)", "sec")                \
  XX(PICP, PI, "critical_path_activities", "Critical-path activities", "sec")                    \
  XX(PIIMB, PI, "critical_imbalance_impact", "Critical imbalance impact", "sec")                 \
  XX(NCPA, NONE, "non_critical_path_activities", "Non-critical-path activities", "sec")

enum mv__metric {
#define XX(id, parent, key, title, unit) MV__M_##id,
  MV__METRICS(XX)
#undef XX
  MV__M_COUNT,
  MV__M_NONE = -1
};
struct mv__metric_info {
  int parent;
  const char *key, *title, *unit;
};
extern const struct mv__metric_info mv__metric_table[MV__M_COUNT];
/* 1 when metric m is `root` or below it in the metric tree. */
int mv__metric_within(int m, int root);
/* 1 for a wait-state metric (below MPI, not one of its categories of non-waiting time). */
int mv__metric_is_wait(int m);

/* Sparse values (metric, location, call path) -> ticks or counts, held as doubles (the map's
 * value bits): integer sums stay exact below 2^53 ticks in any order; the fractional delay and
 * critical-path metrics are summed in one deterministic order (rootcause.c). */
struct mv__store {
  struct mv__map map;
  int nomem;
};
void mv__store_add(struct mv__store *s, int metric, uint32_t loc, uint32_t cp, int64_t v);
void mv__store_addf(struct mv__store *s, int metric, uint32_t loc, uint32_t cp, double v);
double mv__store_get(struct mv__store *s, int metric, uint32_t loc, uint32_t cp);
double mv__slot_val(const struct mv__map_slot *s);
/* Order-independent sums of values: fixed point with 2^-32 tick resolution, so that a serial and a
 * parallel analysis (whose maps are filled in different orders) report identical totals. */
typedef __int128 mv__xsum;
static inline mv__xsum mv__xsum_of(double v)
{
  return (mv__xsum)(v * 4294967296.0);
}
static inline double mv__xsum_value(mv__xsum s)
{
  return (double)s / 4294967296.0;
}

/* ---- wait states with their cause, for the root-cause and critical-path passes ---- */
/* The waiting call [wenter, wleave] on wloc waited `amount` ticks for the delaying location's
 * synchronizing call [denter, dleave] (call path dcp). interval = 1: a contention wait (Lock
 * Contention) whose cause is the delayer's whole pre-contention interval up to dleave. */
struct mv__wait {
  uint64_t wenter, wleave, amount, denter, dleave;
  uint32_t wloc, wcp, dloc, dcp;
  uint32_t metric, interval;
};
/* A synchronization point of a location (both sides of every wait state, every member's call of
 * a synchronizing collective: barrier, N x N, window collectives): its call [enter, leave] and
 * done, when it could end (a pair: the earlier leave, within the call; a collective: its
 * earliest leave, not before the last entrant's enter, at most this call's leave); the rest of
 * the call is completion time (Scalasca's), part of the next synchronization interval. */
struct mv__sp {
  uint64_t leave, enter, done;   /* leave first: the key of the stream */
  uint32_t partner;        /* the other location, MV__NONE: every member of comm */
  uint32_t comm;
};
/* A matched point-to-point message: the send call's enter on `from`, the receive call's leave on
 * `to` (the lines of the HTML timeline). */
struct mv__msg {
  uint64_t send, recv;
  uint32_t from, to;
};
/* The HTML page draws timeline segments, wait states and messages one by one up to this many
 * items, and aggregates them beyond (html.c); the engine keeps at most one message more. */
#define MV__PAGE_ITEMS 400000u
/* Critical-path and root-cause input gathered by the analysis processes: the wait states per
 * waiting location by enter, the synchronization points per location by leave (spilled streams,
 * struct mv__tlset) and the messages the page draws. */
struct mv__causes {
  struct mv__tlset *waits;  /* struct mv__wait */
  struct mv__tlset *syncs;  /* struct mv__sp */
  struct mv__vec msgs;      /* struct mv__msg */
};
extern const struct mv__tlkind mv__tl_waits, mv__tl_syncs;
/* A stretch [t0, t1] of the critical path on location loc, the k-th from the end (critpath.c);
 * they are kept in a stream of one location (k, first, is its key; mv__tl_cpath). */
struct mv__cpseg {
  uint64_t k, t0, t1;
  uint32_t loc;
};
extern const struct mv__tlkind mv__tl_cpath;
/* Who a delay made wait (rootcause.c): the delay costs that call path dcp on dloc got from the
 * waits of wloc, the delay itself (dloc's time in dcp minus wloc's, over their synchronization
 * intervals) and the rank groups (mv__rank_group) whose waits the long-term part came from. */
struct mv__blame {
  uint32_t dloc, dcp, wloc;
  uint64_t who;
  double delay, shortc, longc;
};
/* Ranks as 64 groups: group g holds ranks [g * n / 64, (g + 1) * n / 64), one rank each when
 * n <= 64. The bit of rank r's group (0 for an unknown rank). */
static inline uint64_t mv__rank_group(uint32_t r, uint32_t n)
{
  return r < n ? (uint64_t)1 << (n <= 64 ? r : (uint32_t)((uint64_t)r * 64 / n)) : 0;
}
/* Opens the two streams (NULL: none wanted, as for a moved-from value); errors in their err and
 * why (mv__causes_why). */
int mv__causes_init(struct mv__causes *c, uint32_t nloc);
void mv__causes_release(struct mv__causes *c);
/* A wait state (and its two synchronization points), a collective member's call. */
int mv__causes_wait(struct mv__causes *c, const struct mv__wait *w);
int mv__causes_sync(struct mv__causes *c, uint32_t loc, const struct mv__sp *p);
int mv__causes_finish(struct mv__causes *c);
/* The first failure of the streams: its code (0: none) and message in *why. */
int mv__causes_why(const struct mv__causes *c, const char **why);
/* The parallel analysis sends the streams to process 0 in rounds by time: every process stands at
 * at[l] (the next wait of location l) and at[nloc + l] (its next synchronization point), all 0 at
 * first. mv__causes_bound: the time below which its next items take at most budget bytes
 * (UINT64_MAX: all of them; more only when more items share the first time). The processes agree
 * on the least bound; mv__causes_pack packs every item below it (and the messages when `msgs`)
 * into a piece and moves at on (at NULL: this process failed, a piece that makes merging fail);
 * process 0 merges the gathered pieces of all nparts processes into c (opened), location by
 * location in the serial analysis's order, and finishes c after the last round. */
#define MV__CAUSES_ROUND_BYTES ((uint64_t)4 << 20)   /* process 0's items per round; MPIVET_ANALYZE_ROUND */
int mv__causes_bound(const struct mv__causes *c, const uint64_t *at, uint64_t budget, uint64_t *bound);
int mv__causes_pack(const struct mv__causes *c, uint64_t *at, uint64_t bound, int msgs, void **buf, size_t *len);
int mv__causes_merge(const void *buf, size_t len, int nparts, struct mv__causes *c);

/* ---- the replay engine ---- */
struct mv__engine;
/* is_local[loc]: instances of that location are computed here (all 1 in the serial mode). */
struct mv__engine *mv__engine_new(struct mv__defs *d, const uint8_t *is_local, struct mv__store *out);
/* Record the wait states' causes in c (NULL: not recorded). */
void mv__engine_causes(struct mv__engine *e, struct mv__causes *c);
/* Records must arrive in (leave, loc, seq) order; returns 0 or MV_ENOMEM. */
int mv__engine_feed(struct mv__engine *e, const struct mv__rec *r);
/* Flush pending lock epochs; counts of records left unmatched go to *unmatched. */
int mv__engine_finish(struct mv__engine *e, uint64_t *unmatched);
void mv__engine_free(struct mv__engine *e);

/* engine parts (engine-*.c), sharing the engine state */
struct mv__engine_p2p;
struct mv__engine_coll;
struct mv__engine_rma;
struct mv__engine_lock;

/* Algorithm 1 of the thesis (no-overlap heuristic, the lower bound of Wait for Progress): the
 * time of [enter, leave) before the last dependency's enter that no dependency interval (sorted
 * by enter) covers; never more than the last-call bound, E(last dependency) - enter. */
uint64_t mv__no_overlap(uint64_t enter, uint64_t leave, const uint64_t *dep_enter,
                        const uint64_t *dep_leave, size_t n);

/* ---- reader: OTF2 archive -> records + call-path profile ---- */
typedef int (*mv__rec_sink)(void *arg, const struct mv__rec *r);
struct mv__read_result {
  uint64_t events;
  int truncated;       /* a location ended early or its file was unreadable */
  char note[160];
};
/* Reads the events of the selected locations (sel == NULL: all) in global time order, in steps
 * of up to n events: after a step every record with leave < *now has gone to the sink (*now is
 * UINT64_MAX once *done). Close adds the exclusive times to `profile` and frees the reader. */
struct mv__reader;
int mv__reader_open(void *otf2_reader, struct mv__defs *d, const uint8_t *sel, struct mv__tree *tree,
                    struct mv__store *profile, mv__rec_sink sink, void *arg, struct mv__reader **out);
int mv__reader_step(struct mv__reader *m, uint64_t n, int *done, uint64_t *now);
int mv__reader_close(struct mv__reader *m, struct mv__read_result *res);

#define MV__TL_PENDING (MV__NONE - 1)   /* timeline: computation whose call path is not known yet */
/* ---- spilled streams per location (timeline.c) ----
 * A set holds, per location, items of a fixed size in one order (the first 8 bytes of an item are
 * its key, a time; the set's cmp orders items of equal key), in blocks written to a temporary
 * file as they come; an item may come up to a block later than its place (it is sorted into the
 * unwritten ones); one that comes later still is kept aside (a few blocks' worth in memory, then
 * in sorted runs in the file, at most 8, merged into one when there are more) and its location
 * rewritten once at finish. Read back through a cache of whole blocks. The call-path timelines are such a set: per
 * location the call path current from each point's time on (computation gaps get their call path
 * at the next Enter); the wait states and synchronization points of the backward passes are two
 * more (rcinput.c). */
#define MV__TL_POINT_BYTES (sizeof(uint64_t) + sizeof(uint32_t))   /* a point: time, call path */
struct mv__tlblock {
  uint64_t t0, off;         /* first item's key, offset in the file */
  uint32_t n;
};
struct mv__tl {
  uint64_t first, last;     /* timelines: first and last event of the location */
  uint64_t init_end, fin_enter;   /* timelines: leave of MPI_Init, enter of MPI_Finalize (0: none) */
  int started;
  uint64_t n;               /* items */
  struct mv__vec blocks;    /* struct mv__tlblock, in order; all but the last hold s->block items */
  char *tail;               /* unwritten items (room for block + slack), then the last written one */
  uint32_t ntail;
};
struct mv__tlrun {          /* late items (location, item) in the file, sorted */
  uint64_t off, n;
};
struct mv__tlslot {         /* a cached block */
  uint64_t used;            /* last use (0: empty) */
  char *data;
  uint32_t loc, n;
  size_t blk;
};
struct mv__tlset;
struct mv__tlkind {         /* what a set holds */
  const char *what;         /* in messages: "timelines" */
  uint32_t isz, slack;      /* bytes per item; items held back beyond a block for sorting (0: a block) */
  size_t tail_bytes, cache_bytes;   /* unwritten items of all locations, and the cache, about */
  int (*cmp)(const void *a, const void *b);   /* order of items of equal key; NULL: none */
  /* call paths of an item of location loc to the global tree (mv__tlset_cp), as it is read */
  void (*translate)(const struct mv__tlset *s, uint32_t loc, char *item);
};
extern const struct mv__tlkind mv__tl_timeline;
struct mv__tlset {
  const struct mv__tlkind *k;
  struct mv__tl *loc;
  uint32_t nloc, block;     /* items per block */
  int fd;                   /* the unlinked temporary file; -1: blocks in memory (mem) */
  char *mem;
  size_t memcap;
  uint64_t bytes, nblocks, loads;   /* written; blocks; blocks read back */
  struct mv__vec late;      /* items that came after their block was written: loc, item */
  struct mv__vec runs;      /* struct mv__tlrun: more of them, sorted, in the file */
  uint64_t nlate;           /* such items, all told */
  uint32_t *cpmap;          /* call paths of all parts' trees -> global, applied as blocks are read */
  size_t *map_off;          /* per part: its first entry in cpmap (NULL: no translation) */
  uint32_t *map_part;       /* per location: the part whose tree holds its call paths */
  struct mv__tlslot *slot;  /* the cache */
  uint32_t nslot;
  uint64_t clock;
  struct mv__map index;     /* (location, block) -> slot */
  int err;                  /* the first failure; why: its message */
  char why[512], dir[256];
};
/* Opens the temporary file in $TMPDIR (or /tmp); errors (also of the later calls) in s->err and
 * s->why. Release also when init failed. mv__tlset_init: a set of timelines. */
int mv__tlset_init_kind(struct mv__tlset *s, uint32_t nloc, const struct mv__tlkind *k);
int mv__tlset_init(struct mv__tlset *s, uint32_t nloc);
void mv__tlset_release(struct mv__tlset *s);
/* Adds an item of location loc (loc < nloc) in its place. */
void mv__tl_put(struct mv__tlset *s, uint32_t loc, const void *item);
int mv__tl_before(const struct mv__tlset *s, const void *a, const void *b);   /* a's place is before b's */
/* Timelines: appends a point (a point at the time of the location's last one replaces it). */
void mv__tl_push(struct mv__tlset *s, uint32_t loc, uint64_t t, uint32_t cp);
uint32_t *mv__tl_last_cp(struct mv__tlset *s, uint32_t loc);   /* NULL: no point yet */
/* Writes the unwritten items and rewrites the locations of late ones: the set is read-only from
 * then on. */
int mv__tlset_finish(struct mv__tlset *s);
/* Call paths of location loc are translated through maps[owner(loc)] (n[part] entries; out of
 * range: 0) when read. */
int mv__tlset_map(struct mv__tlset *s, int nparts, const uint32_t *const *maps, const uint32_t *n,
                  uint32_t (*owner)(uint32_t loc, uint32_t nloc, int nparts));
uint32_t mv__tlset_cp(const struct mv__tlset *s, uint32_t loc, uint32_t cp);
/* A cursor over a location's items. mv__tl_item: item k of location loc (NULL: past the end or a
 * read failure, s->err), valid until the set's next block is read; mv__tl_find: the first item
 * whose key is >= key (n: none). Timelines: seek to the segment current at time a (the first one
 * if none is), then next gives each segment [start, end) with its call path until it returns 0
 * (at the end, or on a read failure: s->err). */
struct mv__tlcur {
  struct mv__tlset *s;
  uint32_t loc, i, n;
  size_t blk;
  const char *data;
  const struct mv__tlslot *slot;
  uint64_t next;            /* timelines: the time after the block's last point */
};
const void *mv__tl_item(struct mv__tlcur *c, struct mv__tlset *s, uint32_t loc, uint64_t k);
uint64_t mv__tl_find(struct mv__tlcur *c, struct mv__tlset *s, uint32_t loc, uint64_t key);
static inline uint64_t mv__tl_key(const void *item)
{
  uint64_t k;
  __builtin_memcpy(&k, item, sizeof k);
  return k;
}
void mv__tl_seek(struct mv__tlcur *c, struct mv__tlset *s, uint32_t loc, uint64_t a);
int mv__tl_next(struct mv__tlcur *c, uint64_t *start, uint64_t *end, uint32_t *cp);
/* The parallel analysis sends the timelines to process 0 in rounds: each round packs the next
 * points (at most max, in location order; the locations' first and last events with them) from
 * where q stands (zeroed before the first round); process 0 unpacks the rounds of all processes
 * into its own set, call paths as they were (translated later by mv__tlset_map). A sender that
 * failed sends a piece that makes unpacking fail. */
struct mv__tlsend {
  uint32_t loc;
  uint64_t k;
  struct mv__tlcur cur;
};
int mv__tl_pack(struct mv__tlset *s, struct mv__tlsend *q, uint64_t max, void **buf, size_t *len);
int mv__tl_unpack(struct mv__tlset *s, const void *buf, size_t len);
/* Keep the timelines of the selected locations in s (call before the first step). */
void mv__reader_keep_timelines(struct mv__reader *m, struct mv__tlset *s);

#endif
