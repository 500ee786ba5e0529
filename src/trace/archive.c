/* OTF2 side of the tracer: converts one rank's raw records into OTF2 events with clock
 * correction (linear between the Init and Finalize alignments), and writes the global
 * definitions: clock, ranks as locations, MPI regions, the call-site attribute, communicators
 * and RMA groups in world ranks, windows, and the truncation state as an archive property. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "archive.h"
#include "rawfmt.h"
#include "trace-regions.h"

/* Ticks -> local ns, linear through the first and last anchors. */
static uint64_t ticks_to_ns(const struct mv__clock *c, uint64_t t)
{
  if (c->nanchors == 0)
    return t;
  double rate = c->nanchors > 1 && c->k2 > c->k1 ? (double)(c->n2 - c->n1) / (double)(c->k2 - c->k1) : 1;
  return (uint64_t)((int64_t)c->n1 + llround((double)(int64_t)(t - c->k1) * rate));
}

uint64_t mv__clock_map(const struct mv__clock *c, uint64_t t)
{
  t = ticks_to_ns(c, t);
  double drift = 0;
  if (c->has_final && c->t2 > c->t1)
    drift = (double)(c->o2 - c->o1) * ((double)(int64_t)(t - c->t1) / (double)(c->t2 - c->t1));
  return (uint64_t)((int64_t)t + c->o1 + (int64_t)drift);
}

static OTF2_FlushType pre_flush(void *user, OTF2_FileType type, OTF2_LocationRef loc, void *cb,
                                bool final)
{
  (void)user, (void)type, (void)loc, (void)cb, (void)final;
  return OTF2_FLUSH;
}

static OTF2_TimeStamp post_flush(void *user, OTF2_FileType type, OTF2_LocationRef loc)
{
  (void)user, (void)type, (void)loc;
  return 0;
}

static const OTF2_FlushCallbacks flush_callbacks = {pre_flush, post_flush};

int mv__archive_prepare(OTF2_Archive *ar)
{
  OTF2_Archive_SetCreator(ar, "mpivet-trace " MV_VERSION " (" MV_GIT_REVISION ")");
  return OTF2_Archive_SetFlushCallbacks(ar, &flush_callbacks, NULL) == OTF2_SUCCESS ? 0 : -EIO;
}

/* Sparse ids of the raw record -> dense OTF2 ids. */
static void remap(struct mv__raw_rec *r, const struct mv__idmap *m)
{
  switch (r->kind) {
  case MV__K_SEND: case MV__K_ISEND: case MV__K_RECV: case MV__K_IRECV: case MV__K_COLL_END:
  case MV__K_ICOLL_COMPLETE:
    r->b = mv__idmap_find(m->comms, m->ncomms, r->b);
    break;
  case MV__K_RMA_GROUP_SYNC: {
    uint32_t g = mv__idmap_find(m->groups, m->ngroups, r->c);
    r->c = g == UINT32_MAX ? OTF2_UNDEFINED_GROUP : (uint32_t)(1 + m->ncomms + g);
  }
    __attribute__((fallthrough));  /* the window too */
  case MV__K_RMA_WIN_CREATE: case MV__K_RMA_WIN_DESTROY: case MV__K_RMA_COLL_END:
  case MV__K_RMA_REQUEST_LOCK: case MV__K_RMA_RELEASE_LOCK: case MV__K_RMA_SYNC:
  case MV__K_RMA_PUT: case MV__K_RMA_GET: case MV__K_RMA_ATOMIC: case MV__K_RMA_COMPLETE_NB:
  case MV__K_RMA_COMPLETE_REMOTE:
    r->b = mv__idmap_find(m->wins, m->nwins, r->b);
    break;
  case MV__K_IO_CREATE: case MV__K_IO_DESTROY: case MV__K_IO_BEGIN: case MV__K_IO_ISSUED:
  case MV__K_IO_COMPLETE: case MV__K_IO_SEEK:
    r->a = mv__idmap_find(m->iohandles, m->niohandles, r->a);
    break;
  case MV__K_IO_DELETE:
    r->a = mv__idmap_find(m->iofiles, m->niofiles, r->a);
    break;
  default:
    break;
  }
}

static OTF2_ErrorCode write_one(OTF2_EvtWriter *w, OTF2_AttributeList *al, const struct mv__raw_rec *r,
                                uint64_t t)
{
  switch (r->kind) {
  case MV__K_ENTER:
    OTF2_AttributeList_AddUint64(al, ATTR_CALLSITE, r->x);
    return OTF2_EvtWriter_Enter(w, al, t, r->a);
  case MV__K_LEAVE: return OTF2_EvtWriter_Leave(w, NULL, t, r->a);
  case MV__K_SEND: return OTF2_EvtWriter_MpiSend(w, NULL, t, r->a, r->b, r->c, r->x);
  case MV__K_ISEND: return OTF2_EvtWriter_MpiIsend(w, NULL, t, r->a, r->b, r->c, r->x, r->y);
  case MV__K_ISEND_COMPLETE: return OTF2_EvtWriter_MpiIsendComplete(w, NULL, t, r->y);
  case MV__K_IRECV_REQUEST: return OTF2_EvtWriter_MpiIrecvRequest(w, NULL, t, r->y);
  case MV__K_RECV: return OTF2_EvtWriter_MpiRecv(w, NULL, t, r->a, r->b, r->c, r->x);
  case MV__K_IRECV: return OTF2_EvtWriter_MpiIrecv(w, NULL, t, r->a, r->b, r->c, r->x, r->y);
  case MV__K_REQUEST_CANCELLED: return OTF2_EvtWriter_MpiRequestCancelled(w, NULL, t, r->y);
  case MV__K_COLL_BEGIN: return OTF2_EvtWriter_MpiCollectiveBegin(w, NULL, t);
  case MV__K_COLL_END:
    return OTF2_EvtWriter_MpiCollectiveEnd(w, NULL, t, r->sub, r->b, r->a, r->x, r->y);
  case MV__K_ICOLL_REQUEST: return OTF2_EvtWriter_NonBlockingCollectiveRequest(w, NULL, t, r->y);
  case MV__K_ICOLL_COMPLETE:
    return OTF2_EvtWriter_NonBlockingCollectiveComplete(w, NULL, t, r->sub, r->b, r->a, r->x, r->y,
                                                        r->z);
  case MV__K_RMA_WIN_CREATE: return OTF2_EvtWriter_RmaWinCreate(w, NULL, t, r->b);
  case MV__K_RMA_WIN_DESTROY: return OTF2_EvtWriter_RmaWinDestroy(w, NULL, t, r->b);
  case MV__K_RMA_COLL_BEGIN: return OTF2_EvtWriter_RmaCollectiveBegin(w, NULL, t);
  case MV__K_RMA_COLL_END:
    return OTF2_EvtWriter_RmaCollectiveEnd(w, NULL, t, r->sub, r->c, r->b, r->a, r->x, r->y);
  case MV__K_RMA_GROUP_SYNC:
    return OTF2_EvtWriter_RmaGroupSync(w, NULL, t, r->sub, r->b, r->c);
  case MV__K_RMA_REQUEST_LOCK:
    return OTF2_EvtWriter_RmaRequestLock(w, NULL, t, r->b, r->a, r->x, r->sub);
  case MV__K_RMA_RELEASE_LOCK: return OTF2_EvtWriter_RmaReleaseLock(w, NULL, t, r->b, r->a, r->x);
  case MV__K_RMA_SYNC: return OTF2_EvtWriter_RmaSync(w, NULL, t, r->b, r->a, r->sub);
  case MV__K_RMA_PUT: return OTF2_EvtWriter_RmaPut(w, NULL, t, r->b, r->a, r->x, r->y);
  case MV__K_RMA_GET: return OTF2_EvtWriter_RmaGet(w, NULL, t, r->b, r->a, r->x, r->y);
  case MV__K_RMA_ATOMIC:
    return OTF2_EvtWriter_RmaAtomic(w, NULL, t, r->b, r->a, r->sub, r->x, r->c, r->y);
  case MV__K_RMA_COMPLETE_NB: return OTF2_EvtWriter_RmaOpCompleteNonBlocking(w, NULL, t, r->b, r->y);
  case MV__K_RMA_COMPLETE_REMOTE: return OTF2_EvtWriter_RmaOpCompleteRemote(w, NULL, t, r->b, r->y);
  case MV__K_IO_CREATE: return OTF2_EvtWriter_IoCreateHandle(w, NULL, t, r->a, r->sub, r->b, r->c);
  case MV__K_IO_DESTROY: return OTF2_EvtWriter_IoDestroyHandle(w, NULL, t, r->a);
  case MV__K_IO_DELETE: return OTF2_EvtWriter_IoDeleteFile(w, NULL, t, MV__IO_PARADIGM, r->a);
  case MV__K_IO_BEGIN:
    return OTF2_EvtWriter_IoOperationBegin(w, NULL, t, r->a, r->sub, r->b, r->x, r->y);
  case MV__K_IO_ISSUED: return OTF2_EvtWriter_IoOperationIssued(w, NULL, t, r->a, r->y);
  case MV__K_IO_COMPLETE: return OTF2_EvtWriter_IoOperationComplete(w, NULL, t, r->a, r->x, r->y);
  case MV__K_IO_SEEK: return OTF2_EvtWriter_IoSeek(w, NULL, t, r->a, (int64_t)r->x, r->sub, r->y);
  default: return OTF2_ERROR_INVALID_DATA;
  }
}

int mv__raw_next(struct mv__raw_reader *rd, struct mv__raw_rec *r)
{
  if (rd->n - rd->pos < MV__REC_MAX_WORDS && !feof(rd->f)) {
    memmove(rd->w, rd->w + rd->pos, (rd->n - rd->pos) * sizeof *rd->w);
    rd->n -= rd->pos, rd->pos = 0;
    rd->n += fread(rd->w + rd->n, sizeof *rd->w, sizeof rd->w / sizeof *rd->w - rd->n, rd->f);
  }
  if (rd->n - rd->pos < 2)
    return 0;
  const uint64_t *w = rd->w + rd->pos;
  unsigned kind = (unsigned)(w[1] & 0xff), words = mv__rec_words(kind);
  if (kind == 0 || kind >= MV__K_COUNT || rd->n - rd->pos < words)
    return 0;
  unsigned f = mv__rec_fields[kind], k = 2;
  *r = (struct mv__raw_rec){.t = w[0], .kind = (uint8_t)kind, .sub = (uint8_t)(w[1] >> 8),
                        .a = (uint32_t)(w[1] >> 32)};
  if (f & MV__F_BC)
    r->b = (uint32_t)w[k], r->c = (uint32_t)(w[k] >> 32), k++;
  if (f & MV__F_X)
    r->x = w[k++];
  if (f & MV__F_Y)
    r->y = w[k++];
  if (f & MV__F_Z)
    r->z = w[k++];
  rd->pos += words;
  return 1;
}

int mv__convert_rank(OTF2_Archive *ar, const char *dir, int rank, const struct mv__clock *clk,
                     const struct mv__idmap *map, uint64_t *nevents, uint64_t *first,
                     uint64_t *last)
{
  char path[4096];
  snprintf(path, sizeof path, "%s/" MV__RAW_DIR "/rank-%d.raw", dir, rank);
  *nevents = 0, *first = UINT64_MAX, *last = 0;
  OTF2_EvtWriter *w = OTF2_Archive_GetEvtWriter(ar, (OTF2_LocationRef)rank);
  FILE *f = fopen(path, "rb");
  int err = w ? 0 : -EIO;
  OTF2_AttributeList *al = OTF2_AttributeList_New();
  struct mv__raw_reader *rd = malloc(sizeof *rd);
  if (!rd)
    err = -ENOMEM;
  else
    rd->f = f, rd->n = rd->pos = 0;
  struct mv__raw_rec r;
  while (f && !err && mv__raw_next(rd, &r)) {
    uint64_t t = mv__clock_map(clk, r.t);
    if (t < *last)
      t = *last;  /* keep the stream monotonic if the correction ever steps back */
    if (r.kind == MV__K_COLL_COUNTS)
      continue;  /* for the compressed trace only */
    remap(&r, map);
    if (write_one(w, al, &r, t) != OTF2_SUCCESS)
      err = -EIO;
    *first = t < *first ? t : *first;
    *last = t;
    (*nevents)++;
  }
  if (!f)
    err = errno == ENOENT ? 0 : -errno;  /* a rank killed before its first flush has no events */
  else
    fclose(f);
  free(rd);
  OTF2_AttributeList_Delete(al);
  if (w && OTF2_Archive_CloseEvtWriter(ar, w) != OTF2_SUCCESS && !err)
    err = -EIO;
  return err;
}

int mv__write_local_defs(OTF2_Archive *ar, int rank)
{
  OTF2_DefWriter *w = OTF2_Archive_GetDefWriter(ar, (OTF2_LocationRef)rank);
  return w && OTF2_Archive_CloseDefWriter(ar, w) == OTF2_SUCCESS ? 0 : -EIO;
}
