/* The tracer's per-rank state and the internal API shared by the hook files: event emission
 * into the raw buffer, the definitions side file, and the handle -> id tables. Under SMPI all
 * ranks share one process, so the state is looked up per simulated rank. */
#ifndef MPIVET_TRACE_STATE_H
#define MPIVET_TRACE_STATE_H

#include <limits.h>
#include <mpi.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "rawfmt.h"

#define MV__NONE UINT32_MAX

struct mv__comm_ent { MPI_Comm comm; uint32_t id; int size, rank; };  /* intra-communicators */
struct mv__comm_seen { uint32_t id; int size, rank; };  /* every one, freed or not (ctrace.c) */
enum { MV__OUT_OTF2 = 1, MV__OUT_MVT = 2 };  /* MPIVET_TRACE_FORMAT */
struct mv__win_ent { MPI_Win win; uint32_t id; int alloc; uint32_t post_group, start_group; };
struct mv__grp_ent { uint64_t hash; uint32_t id; };
struct mv__file_ent { MPI_File fh; uint32_t id; };  /* an open MPI-IO handle and its I/O handle id */
/* A pending request; persistent ones (kinds set in hooks-p2p.c) stay from *_init to
 * MPI_Request_free with their parameters, active between MPI_Start and the completion. */
struct mv__req_ent {
  MPI_Request req;
  uint8_t kind, active;
  uint32_t peer, comm, tag, win;
  uint64_t id, bytes;
  uint64_t received;                  /* non-blocking collectives: bytes received (tag: the op) */
};
/* struct mv__req_ent.kind */
enum { MV__REQ_ISEND = 1, MV__REQ_IRECV, MV__REQ_RMA, MV__REQ_PSEND, MV__REQ_PRECV, MV__REQ_ICOLL,
       MV__REQ_IO };
struct mv__rma_op { uint32_t win; int target; uint8_t get; uint8_t local_done; uint64_t match; };
struct mv__site { uintptr_t raw; uint64_t hash; };
struct mv__type_ent { MPI_Datatype type; int size1; };  /* size1 = size + 1; 0: empty slot */
#define MV__TYPE_SLOTS 32
/* Records written late (spec column "records", see hooks.h): the call whose post-hook events and
 * Leave wait for the rank's next traced call (pending), and the call blocked in PMPI whose Enter
 * and pre-hook events wait for its return (in flight). fn runs the hook from args. */
struct mv__call;
typedef void mv__late_fn(struct mv__call *c, void *args);
#define MV__PENDING_ARGS 64
#define MV__IN_PMPI UINT64_MAX           /* mv__pending.tleave of a call still in PMPI */
struct mv__pending {
  mv__late_fn *fn;                    /* NULL: nothing pending */
  int region;
  uint64_t t, tleave;                 /* the call's Enter and Leave stamps */
  _Alignas(16) unsigned char args[MV__PENDING_ARGS];
};
struct mv__in_flight { mv__late_fn *fn; struct mv__call *call; void *args; };

struct mv__state {
  int active, depth, failed;
  uint64_t tnow;                      /* stamp of the events being recorded (see mv__emit) */
  int rank, size;
  unsigned record;                    /* bit per enum mv__group */
  unsigned fast;                      /* record while active, else 0 (hooks.h, mv__fast_begin) */
  int stack_depth;                    /* return addresses hashed per call site */
  int formats;                        /* MV__OUT_* bits */
  char dir[PATH_MAX - 64];
  int raw_fd, defs_fd;
  uint64_t *buf;                      /* encoded records (rawfmt.h) */
  size_t cap, n;                      /* in 64-bit words */
  uint64_t nevents;
  uint64_t next_req, next_match, next_lock;
  uint32_t next_comm, next_win, next_group, next_file;
  MPI_Comm tool_comm;                 /* private duplicate of MPI_COMM_WORLD */
  struct mv__comm_ent *comms; size_t ncomms, capcomms;
  struct mv__comm_seen *seen; size_t nseen, capseen;
  struct mv__win_ent *wins; size_t nwins, capwins;
  struct mv__req_ent *reqs; size_t capreqs, nreqs;      /* open addressing */
  struct mv__rma_op *ops; size_t nops, capops;
  struct mv__site *sites; size_t capsites, nsites;      /* open addressing */
  struct mv__grp_ent *grps; size_t ngrps, capgrps;
  struct mv__file_ent *files; size_t nfiles, capfiles;
  struct mv__type_ent types[MV__TYPE_SLOTS];             /* predefined datatypes' sizes */
  struct mv__pending pending;
  struct mv__in_flight in_flight;
};

#ifdef MV_SMPI
struct mv__state *mv__st(void);       /* the calling rank's (actor's) state */
#define G (*mv__st())
#else
extern struct mv__state mv__state_one;
#define G mv__state_one
#endif
/* clock.c: fn(arg) with G set to each rank's state in turn (all ranks of the process) */
void mv__each_state(void (*fn)(const char *), const char *arg);
/* Event time stamps: TSC ticks or ns (converted with the anchors at archive time). */
uint64_t mv__mono_ns(void);
#if defined(MV_SMPI) || !(defined(__x86_64__) || defined(__i386__))
uint64_t mv__now(void);
#else
#include <x86intrin.h>
extern int mv__use_tsc;
static inline uint64_t mv__now(void)
{
  return mv__use_tsc ? __rdtsc() : mv__mono_ns();
}
#endif
/* The fast path's clock (hooks.h, mv__fast_begin): G.fast is only set when it is mv__now's. */
#if defined(MV_SMPI) || !(defined(__x86_64__) || defined(__i386__))
#define mv__fast_now() mv__now()
#define mv__fast_clock_ok() 1
#else
#define mv__fast_now() __rdtsc()
#define mv__fast_clock_ok() mv__use_tsc
#endif
/* Writes a "ticks T NS" line pairing the event clock with CLOCK_MONOTONIC (if they differ). */
void mv__clock_anchor(void);
/* Events of a call share two stamps: its Enter time until PMPI returns, then its end time
 * (mv__call_after), so a call costs two clock reads however many events it records. */
#define mv__emit(...) mv__emit_at(G.tnow, __VA_ARGS__)
/* Raw files: open at init, flush and close at finalize or on a fault. */
int mv__raw_open(void);
void mv__raw_flush(void);

/* Append one record stamped t (encoded as rawfmt.h says); flushes the buffer when full.
 * Inline: with a constant kind only the stores of that kind's fields remain. */
static inline void mv__emit_z(uint64_t t, int kind, int sub, uint32_t a, uint32_t b, uint32_t c,
                              uint64_t x, uint64_t y, uint64_t z)
{
  struct mv__state *s = &G;
  if (__builtin_expect(s->failed, 0))
    return;
  if (__builtin_expect(s->n + MV__REC_MAX_WORDS > s->cap, 0))
    mv__raw_flush();
  uint64_t *w = s->buf + s->n;
  unsigned f = mv__rec_fields[kind];
  w[0] = t;
  w[1] = (uint64_t)(uint8_t)kind | (uint64_t)(uint8_t)sub << 8 | (uint64_t)a << 32;
  size_t k = 2;
  if (f & MV__F_BC)
    w[k++] = (uint64_t)b | (uint64_t)c << 32;
  if (f & MV__F_X)
    w[k++] = x;
  if (f & MV__F_Y)
    w[k++] = y;
  if (f & MV__F_Z)
    w[k++] = z;
  s->n += k;
  s->nevents++;
}
static inline void mv__emit_at(uint64_t t, int kind, int sub, uint32_t a, uint32_t b, uint32_t c,
                               uint64_t x, uint64_t y)
{
  mv__emit_z(t, kind, sub, a, b, c, x, y, 0);
}
void mv__raw_close(void);
/* Writes the pending and the in-flight call's records (runtime.c); before every later record. */
void mv__write_pending(void);
void mv__write_late(void);
/* One line into the definitions side file (written at once: survives a crash). */
void mv__def(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void mv__fail(const char *what, int err);
/* "mpivet-trace: rank R: ..." on stderr: the tracer's only way to tell the user. */
void mv__say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* options.c: MPIVET_TRACE_* variables; the output folder, emptied of an older archive */
int mv__read_options(void);
int mv__prepare_dir(void);

/* handles -> global ids; communicators: a short list, the most recent first, with their size
 * and this rank's rank (asked once, when added) */
static inline const struct mv__comm_ent *mv__comm_find(MPI_Comm comm)
{
  const struct mv__state *s = &G;
  for (size_t i = s->ncomms; i-- > 0;)
    if (s->comms[i].comm == comm)
      return &s->comms[i];
  return NULL;
}
static inline uint32_t mv__comm_id(MPI_Comm comm)
{
  const struct mv__comm_ent *e = mv__comm_find(comm);
  return e ? e->id : MV__NONE;
}
/* The slot of a datatype handle (a pointer or an integer, depending on the MPI) in G.types. */
static inline unsigned mv__type_slot(MPI_Datatype type)
{
  uint64_t k = 0;
  memcpy(&k, &type, sizeof type < sizeof k ? sizeof type : sizeof k);
  return (unsigned)((k ^ k >> 7 ^ k >> 17) % MV__TYPE_SLOTS);
}
/* p (*cap elements of elem bytes) reallocated to twice as many (16 at first); NULL if memory
 * is short, p and *cap then unchanged. */
void *mv__grow(void *p, size_t *cap, size_t elem);
void mv__comm_add(MPI_Comm comm, uint32_t id);
uint32_t mv__new_id(MPI_Comm comm, uint32_t *counter);
void mv__define_comm(MPI_Comm comm, uint32_t id, const char *name);
struct mv__win_ent *mv__win(MPI_Win win);
struct mv__req_ent *mv__req_find(MPI_Request req);
struct mv__req_ent *mv__req_add(MPI_Request req);
void mv__req_del(struct mv__req_ent *e);
void mv__tables_release(void);
/* local completion of a request-based RMA operation (Wait/Test) */
void mv__rma_local_done(uint32_t win, uint64_t match);

/* clock alignment with rank 0 (clocksync.c): writes "<tag> <local ns> <offset ns>" and an anchor */
void mv__clock_sync(const char *tag);
/* OTF2 and compressed output at finalize (finalize.c, ctrace-mpi.c; MV__OUT_* in G.formats) */
void mv__write_archive(void);
int mv__write_compressed(void);   /* 0 on every rank, or -1 on every rank */

#endif
