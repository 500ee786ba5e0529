/* The tracer's per-rank state (G) and the types of its tables. Under SMPI all ranks share one
 * process, so the state is looked up per simulated rank. What works on it has its own header:
 * clock.h, emit.h, tables.h, say.h, options.h, output.h. */
#ifndef MPIVET_TRACE_STATE_H
#define MPIVET_TRACE_STATE_H

#include <limits.h>
#include <mpi.h>
#include <stddef.h>
#include <stdint.h>

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
  int times;                          /* MPIVET_TRACE_TIMES=1: rank 0 prints the finalize parts' times */
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

#endif
