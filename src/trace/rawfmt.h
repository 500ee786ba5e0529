/* The per-rank files libmpivet-trace writes while the application runs, before they become an
 * OTF2 archive: <dir>/mpivet-raw/rank-<r>.raw (fixed-size event records, flushed when the
 * buffer is full) and rank-<r>.defs (text lines: communicators, windows, groups, call sites,
 * clock offsets, state). A crash leaves both readable; see docs/trace.md. */
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
  MV__K_COLL_END,          /* sub=OTF2 collective op, a=root, b=comm, x=sent, y=received */
  MV__K_RMA_WIN_CREATE,    /* b=window */
  MV__K_RMA_WIN_DESTROY,   /* b=window */
  MV__K_RMA_COLL_BEGIN,
  MV__K_RMA_COLL_END,      /* sub=op, c=sync level, b=window, a=root, x=sent, y=received */
  MV__K_RMA_GROUP_SYNC,    /* sub=sync level, b=window, c=group */
  MV__K_RMA_REQUEST_LOCK,  /* b=window, a=target, x=lock id, sub=lock type */
  MV__K_RMA_RELEASE_LOCK,  /* b=window, a=target, x=lock id */
  MV__K_RMA_SYNC,          /* b=window, a=target, sub=sync type */
  MV__K_RMA_PUT,           /* b=window, a=target, x=bytes, y=matching id */
  MV__K_RMA_GET,           /* as PUT */
  MV__K_RMA_ATOMIC,        /* b=window, a=target, sub=atomic type, x=sent, c=received, y=matching */
  MV__K_RMA_COMPLETE_NB,   /* b=window, y=matching id */
  MV__K_RMA_COMPLETE_REMOTE,
  MV__K_COUNT
};

/* One event, 40 bytes, native byte order (the files are read back on the same machine). */
struct mv__rec {
  uint64_t t;    /* raw local clock, ns */
  uint8_t kind;  /* enum mv__rec_kind */
  uint8_t sub;
  uint16_t pad;
  uint32_t a, b, c;
  uint64_t x, y;
};

#endif
