/* The per-rank files libmpivet-trace writes while the application runs, before they become an
 * OTF2 archive: <dir>/mpivet-raw/rank-<r>.raw (fixed-size event records, flushed when the
 * buffer is full; 16 to 48 bytes each) and rank-<r>.defs (text lines: communicators, windows, groups, call sites,
 * files and I/O handles, clock offsets, state). A crash leaves both readable; see docs/trace.md. */
#ifndef MPIVET_TRACE_RAWFMT_H
#define MPIVET_TRACE_RAWFMT_H

#include <stdint.h>

#define MV__RAW_DIR "mpivet-raw"

enum mv__rec_kind {
  MV__K_ENTER = 1,         /* a=region, x=call-site hash */
  MV__K_LEAVE,             /* a=region */
  MV__K_SEND,              /* a=peer (rank in comm), b=comm, c=tag, x=bytes */
  MV__K_ISEND,             /* as SEND, y=request id */
  MV__K_ISEND_COMPLETE,    /* y=request id */
  MV__K_IRECV_REQUEST,     /* y=request id */
  MV__K_RECV,              /* as SEND */
  MV__K_IRECV,             /* as SEND, y=request id */
  MV__K_REQUEST_CANCELLED, /* y=request id */
  MV__K_COLL_BEGIN,
  MV__K_COLL_END,          /* sub=OTF2 collective op, a=root, b=comm, x=sent, y=received,
                              c=datatype and reduction (mv__how) */
  MV__K_RMA_WIN_CREATE,    /* b=window, a=its communicator */
  MV__K_RMA_WIN_DESTROY,   /* b=window */
  MV__K_RMA_COLL_BEGIN,
  MV__K_RMA_COLL_END,      /* sub=op, c=sync level, b=window, a=root, x=sent, y=received */
  MV__K_RMA_GROUP_SYNC,    /* sub=sync level, b=window, c=group */
  MV__K_RMA_REQUEST_LOCK,  /* b=window, a=target, x=lock id, sub=lock type */
  MV__K_RMA_RELEASE_LOCK,  /* b=window, a=target, x=lock id */
  MV__K_RMA_SYNC,          /* b=window, a=target, sub=sync type */
  MV__K_RMA_PUT,           /* b=window, a=target, x=bytes, y=matching id, c=datatype (mv__how) */
  MV__K_RMA_GET,           /* as PUT */
  MV__K_RMA_ATOMIC,        /* b=window, a=target, sub=atomic type, x=sent, c=received, y=matching,
                              z=datatype and reduction (mv__how) */
  MV__K_RMA_COMPLETE_NB,   /* b=window, y=matching id */
  MV__K_RMA_COMPLETE_REMOTE,
  MV__K_ICOLL_REQUEST,     /* y=request id (a non-blocking collective started) */
  MV__K_ICOLL_COMPLETE,    /* as COLL_END, z=request id */
  MV__K_IO_CREATE,         /* a=I/O handle, sub=OTF2 access mode, b=creation flags, c=status flags */
  MV__K_IO_DESTROY,        /* a=I/O handle */
  MV__K_IO_DELETE,         /* a=file (hash of its name) */
  MV__K_IO_BEGIN,          /* a=I/O handle, sub=OTF2 operation mode, b=operation flags, x=bytes
                              requested, y=matching id */
  MV__K_IO_ISSUED,         /* a=I/O handle, y=matching id */
  MV__K_IO_COMPLETE,       /* a=I/O handle, x=bytes done, y=matching id */
  MV__K_IO_SEEK,           /* a=I/O handle, sub=OTF2 whence, x=offset requested, y=resulting offset */
  MV__K_COLL_COUNTS,        /* before a v-collective's COLL_END: sub=0 sent, 1 received, bytes of
                              members a, a+1, a+2 of the communicator in x, y, z (compressed trace
                              only: not an OTF2 event, not counted) */
  MV__K_COUNT
};

/* One event as the writer takes it and the reader returns it. */
struct mv__raw_rec {
  uint64_t t;    /* event clock (TSC ticks or ns, see clock.c) */
  uint8_t kind;  /* enum mv__rec_kind */
  uint8_t sub;
  uint32_t a, b, c;
  uint64_t x, y, z;
};

/* On disk (native byte order: read back on the same machine) a record is 2 to 6 64-bit words:
 * t; kind | sub << 8 | a << 32; then only the fields its kind uses: b | c << 32, x, y, z. */
enum { MV__F_BC = 1, MV__F_X = 2, MV__F_Y = 4, MV__F_Z = 8 };
static const unsigned char mv__rec_fields[MV__K_COUNT] = {
  [MV__K_ENTER] = MV__F_X,
  [MV__K_LEAVE] = 0,
  [MV__K_SEND] = MV__F_BC | MV__F_X,
  [MV__K_ISEND] = MV__F_BC | MV__F_X | MV__F_Y,
  [MV__K_ISEND_COMPLETE] = MV__F_Y,
  [MV__K_IRECV_REQUEST] = MV__F_Y,
  [MV__K_RECV] = MV__F_BC | MV__F_X,
  [MV__K_IRECV] = MV__F_BC | MV__F_X | MV__F_Y,
  [MV__K_REQUEST_CANCELLED] = MV__F_Y,
  [MV__K_COLL_BEGIN] = 0,
  [MV__K_COLL_END] = MV__F_BC | MV__F_X | MV__F_Y,
  [MV__K_RMA_WIN_CREATE] = MV__F_BC,
  [MV__K_RMA_WIN_DESTROY] = MV__F_BC,
  [MV__K_RMA_COLL_BEGIN] = 0,
  [MV__K_RMA_COLL_END] = MV__F_BC | MV__F_X | MV__F_Y,
  [MV__K_RMA_GROUP_SYNC] = MV__F_BC,
  [MV__K_RMA_REQUEST_LOCK] = MV__F_BC | MV__F_X,
  [MV__K_RMA_RELEASE_LOCK] = MV__F_BC | MV__F_X,
  [MV__K_RMA_SYNC] = MV__F_BC,
  [MV__K_RMA_PUT] = MV__F_BC | MV__F_X | MV__F_Y,
  [MV__K_RMA_GET] = MV__F_BC | MV__F_X | MV__F_Y,
  [MV__K_RMA_ATOMIC] = MV__F_BC | MV__F_X | MV__F_Y | MV__F_Z,
  [MV__K_RMA_COMPLETE_NB] = MV__F_BC | MV__F_Y,
  [MV__K_RMA_COMPLETE_REMOTE] = MV__F_BC | MV__F_Y,
  [MV__K_ICOLL_REQUEST] = MV__F_Y,
  [MV__K_ICOLL_COMPLETE] = MV__F_BC | MV__F_X | MV__F_Y | MV__F_Z,
  [MV__K_IO_CREATE] = MV__F_BC,
  [MV__K_IO_DESTROY] = 0,
  [MV__K_IO_DELETE] = 0,
  [MV__K_IO_BEGIN] = MV__F_BC | MV__F_X | MV__F_Y,
  [MV__K_IO_ISSUED] = MV__F_Y,
  [MV__K_IO_COMPLETE] = MV__F_X | MV__F_Y,
  [MV__K_IO_SEEK] = MV__F_X | MV__F_Y,
  [MV__K_COLL_COUNTS] = MV__F_X | MV__F_Y | MV__F_Z,
};
#define MV__REC_MAX_WORDS 6

/* Words of a record of this kind. */
static inline unsigned mv__rec_words(unsigned kind)
{
  unsigned f = kind < MV__K_COUNT ? mv__rec_fields[kind] : 0;
  return 2 + (f & 1) + (f >> 1 & 1) + (f >> 2 & 1) + (f >> 3 & 1);
}

#endif
