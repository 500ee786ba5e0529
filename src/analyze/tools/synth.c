/* OTF2 writer for synthetic archives with exact timestamps (see synth.h). Events go straight
 * to one event writer per rank; definitions are written at close. */
#include <otf2/otf2.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/internal.h"
#include "mpivet/error.h"
#include "analyze/synth.h"

#define MAX_REGIONS 256
#define MAX_GROUPS 256

struct mv__synth {
  OTF2_Archive *ar;
  OTF2_EvtWriter **w;
  int nranks, nwins, nregions, ngroups;
  char *regions[MAX_REGIONS];
  uint64_t *group_members[MAX_GROUPS];
  uint32_t group_n[MAX_GROUPS];
  uint64_t last;
  uint64_t req;
  uint64_t site;
  OTF2_AttributeList *attrs;
};

static OTF2_FlushType pre_flush(void *u, OTF2_FileType ft, OTF2_LocationRef l, void *cd, bool fin)
{
  (void)u, (void)ft, (void)l, (void)cd, (void)fin;
  return OTF2_FLUSH;
}

static OTF2_FlushCallbacks flush_cb = {pre_flush, NULL};

struct mv__synth *mv__synth_open(const char *dir, int nranks, int nwins)
{
  struct mv__synth *s = calloc(1, sizeof *s);
  if (!s || nranks < 1 || !(s->w = calloc((size_t)nranks, sizeof *s->w))) {
    free(s);
    return NULL;
  }
  s->nranks = nranks, s->nwins = nwins;
  s->ar = OTF2_Archive_Open(dir, "traces", OTF2_FILEMODE_WRITE, 1 << 20, 1 << 22, OTF2_SUBSTRATE_POSIX,
                            OTF2_COMPRESSION_NONE);
  if (!s->ar) {
    free(s->w);
    free(s);
    return NULL;
  }
  OTF2_Archive_SetFlushCallbacks(s->ar, &flush_cb, NULL);
  OTF2_Archive_SetSerialCollectiveCallbacks(s->ar);
  OTF2_Archive_OpenEvtFiles(s->ar);
  for (int r = 0; r < nranks; r++)
    s->w[r] = OTF2_Archive_GetEvtWriter(s->ar, (OTF2_LocationRef)r);
  return s;
}

static uint32_t region(struct mv__synth *s, const char *name)
{
  for (int i = 0; i < s->nregions; i++)
    if (!strcmp(s->regions[i], name))
      return (uint32_t)i;
  if (s->nregions == MAX_REGIONS)
    return 0;
  s->regions[s->nregions] = strdup(name);
  return (uint32_t)s->nregions++;
}

uint32_t mv__synth_group(struct mv__synth *s, int n, const int *ranks)
{
  if (s->ngroups == MAX_GROUPS)
    return 0;
  uint64_t *m = malloc((size_t)(n ? n : 1) * sizeof *m);
  for (int i = 0; m && i < n; i++)
    m[i] = (uint64_t)ranks[i];
  s->group_members[s->ngroups] = m;
  s->group_n[s->ngroups] = m ? (uint32_t)n : 0;
  return 2 + (uint32_t)s->ngroups++;   /* 0: locations, 1: world */
}

static void stamp(struct mv__synth *s, uint64_t t)
{
  if (t > s->last)
    s->last = t;
}

void mv__synth_site(struct mv__synth *s, uint64_t site)
{
  s->site = site;
}

void mv__synth_enter(struct mv__synth *s, int rank, uint64_t t, const char *name)
{
  stamp(s, t);
  OTF2_AttributeList *al = NULL;
  if (s->site && (s->attrs || (s->attrs = OTF2_AttributeList_New()))) {
    OTF2_AttributeList_AddUint64(s->attrs, 0, s->site);
    al = s->attrs;   /* the writer empties the list */
  }
  s->site = 0;
  OTF2_EvtWriter_Enter(s->w[rank], al, t, region(s, name));
}

void mv__synth_leave(struct mv__synth *s, int rank, uint64_t t, const char *name)
{
  stamp(s, t);
  OTF2_EvtWriter_Leave(s->w[rank], NULL, t, region(s, name));
}

void mv__synth_send(struct mv__synth *s, int rank, uint64_t t0, uint64_t t1, int dst, int tag)
{
  mv__synth_enter(s, rank, t0, "MPI_Send");
  OTF2_EvtWriter_MpiSend(s->w[rank], NULL, t0, (uint32_t)dst, 0, (uint32_t)tag, 8);
  mv__synth_leave(s, rank, t1, "MPI_Send");
}

void mv__synth_isend(struct mv__synth *s, int rank, uint64_t t0, uint64_t t1, int dst, int tag)
{
  mv__synth_enter(s, rank, t0, "MPI_Isend");
  OTF2_EvtWriter_MpiIsend(s->w[rank], NULL, t0, (uint32_t)dst, 0, (uint32_t)tag, 8, ++s->req);
  mv__synth_leave(s, rank, t1, "MPI_Isend");
}

void mv__synth_recv(struct mv__synth *s, int rank, uint64_t t0, uint64_t t1, int src, int tag)
{
  mv__synth_enter(s, rank, t0, "MPI_Recv");
  OTF2_EvtWriter_MpiRecv(s->w[rank], NULL, t1, (uint32_t)src, 0, (uint32_t)tag, 8);
  mv__synth_leave(s, rank, t1, "MPI_Recv");
}

void mv__synth_sendrecv(struct mv__synth *s, int rank, uint64_t t0, uint64_t t1, int peer, int tag)
{
  mv__synth_enter(s, rank, t0, "MPI_Sendrecv");
  OTF2_EvtWriter_MpiSend(s->w[rank], NULL, t0, (uint32_t)peer, 0, (uint32_t)tag, 8);
  OTF2_EvtWriter_MpiRecv(s->w[rank], NULL, t1, (uint32_t)peer, 0, (uint32_t)tag, 8);
  mv__synth_leave(s, rank, t1, "MPI_Sendrecv");
}

void mv__synth_waitall(struct mv__synth *s, int rank, uint64_t t0, uint64_t t1, int n, const int *srcs,
                       const int *tags)
{
  mv__synth_enter(s, rank, t0, "MPI_Waitall");
  for (int i = 0; i < n; i++)
    OTF2_EvtWriter_MpiIrecv(s->w[rank], NULL, t1, (uint32_t)srcs[i], 0, (uint32_t)tags[i], 8, ++s->req);
  mv__synth_leave(s, rank, t1, "MPI_Waitall");
}

void mv__synth_coll(struct mv__synth *s, int rank, uint64_t t0, uint64_t t1, const char *name, int op, int root)
{
  mv__synth_enter(s, rank, t0, name);
  OTF2_EvtWriter_MpiCollectiveBegin(s->w[rank], NULL, t0);
  OTF2_EvtWriter_MpiCollectiveEnd(s->w[rank], NULL, t1, (OTF2_CollectiveOp)op, 0,
                                  root < 0 ? OTF2_UNDEFINED_UINT32 : (uint32_t)root, 8, 8);
  mv__synth_leave(s, rank, t1, name);
}

void mv__synth_rcoll(struct mv__synth *s, int rank, uint64_t t0, uint64_t t1, const char *name, int op, int win)
{
  mv__synth_enter(s, rank, t0, name);
  OTF2_EvtWriter_RmaCollectiveBegin(s->w[rank], NULL, t0);
  OTF2_EvtWriter_RmaCollectiveEnd(s->w[rank], NULL, t1, (OTF2_CollectiveOp)op,
                                  OTF2_RMA_SYNC_LEVEL_PROCESS | OTF2_RMA_SYNC_LEVEL_MEMORY, (uint32_t)win,
                                  OTF2_UNDEFINED_UINT32, 0, 0);
  mv__synth_leave(s, rank, t1, name);
}

void mv__synth_rma(struct mv__synth *s, int rank, uint64_t t0, uint64_t t1, const char *name, int win, int target)
{
  mv__synth_enter(s, rank, t0, name);
  if (!strncmp(name, "MPI_Get", 7))
    OTF2_EvtWriter_RmaGet(s->w[rank], NULL, t0, (uint32_t)win, (uint32_t)target, 8, ++s->req);
  else if (!strncmp(name, "MPI_Put", 7))
    OTF2_EvtWriter_RmaPut(s->w[rank], NULL, t0, (uint32_t)win, (uint32_t)target, 8, ++s->req);
  else
    OTF2_EvtWriter_RmaAtomic(s->w[rank], NULL, t0, (uint32_t)win, (uint32_t)target,
                             OTF2_RMA_ATOMIC_TYPE_ACCUMULATE, 8, 0, ++s->req);
  mv__synth_leave(s, rank, t1, name);
}

void mv__synth_gsync(struct mv__synth *s, int rank, uint64_t t0, uint64_t t1, const char *name, int win,
                     uint32_t group)
{
  mv__synth_enter(s, rank, t0, name);
  OTF2_EvtWriter_RmaGroupSync(s->w[rank], NULL, t1, OTF2_RMA_SYNC_LEVEL_PROCESS, (uint32_t)win, group);
  mv__synth_leave(s, rank, t1, name);
}

void mv__synth_lock(struct mv__synth *s, int rank, uint64_t t0, uint64_t t1, int win, int target, int excl)
{
  mv__synth_enter(s, rank, t0, "MPI_Win_lock");
  OTF2_EvtWriter_RmaRequestLock(s->w[rank], NULL, t0, (uint32_t)win, (uint32_t)target, 0,
                                excl ? OTF2_LOCK_EXCLUSIVE : OTF2_LOCK_SHARED);
  mv__synth_leave(s, rank, t1, "MPI_Win_lock");
}

void mv__synth_unlock(struct mv__synth *s, int rank, uint64_t t0, uint64_t t1, int win, int target)
{
  mv__synth_enter(s, rank, t0, "MPI_Win_unlock");
  OTF2_EvtWriter_RmaReleaseLock(s->w[rank], NULL, t1, (uint32_t)win, (uint32_t)target, 0);
  mv__synth_leave(s, rank, t1, "MPI_Win_unlock");
}

/* Strings: 0 "", then region names from 1, then fixed names after them. */
static void write_defs(struct mv__synth *s, OTF2_GlobalDefWriter *g, const uint64_t *nevents)
{
  uint32_t base = (uint32_t)s->nregions + 1;
  OTF2_GlobalDefWriter_WriteClockProperties(g, 1000000000, 0, s->last + 1, OTF2_UNDEFINED_TIMESTAMP);
  OTF2_GlobalDefWriter_WriteString(g, 0, "");
  for (int i = 0; i < s->nregions; i++)
    OTF2_GlobalDefWriter_WriteString(g, (uint32_t)i + 1, s->regions[i]);
  OTF2_GlobalDefWriter_WriteString(g, base, "node");
  OTF2_GlobalDefWriter_WriteString(g, base + 1, "rank");
  OTF2_GlobalDefWriter_WriteString(g, base + 2, "MPI_COMM_WORLD");
  OTF2_GlobalDefWriter_WriteString(g, base + 3, "window");
  OTF2_GlobalDefWriter_WriteString(g, base + 4, "mpivet::callsite");
  OTF2_GlobalDefWriter_WriteAttribute(g, 0, base + 4, 0, OTF2_TYPE_UINT64);
  for (int i = 0; i < s->nregions; i++) {
    int mpi = !strncmp(s->regions[i], "MPI_", 4);
    OTF2_GlobalDefWriter_WriteRegion(g, (uint32_t)i, (uint32_t)i + 1, (uint32_t)i + 1, 0,
                                     mpi ? OTF2_REGION_ROLE_FUNCTION : OTF2_REGION_ROLE_FUNCTION,
                                     mpi ? OTF2_PARADIGM_MPI : OTF2_PARADIGM_USER, OTF2_REGION_FLAG_NONE, 0, 0, 0);
  }
  OTF2_GlobalDefWriter_WriteSystemTreeNode(g, 0, base, base, OTF2_UNDEFINED_SYSTEM_TREE_NODE);
  uint64_t *members = malloc((size_t)s->nranks * sizeof *members);
  for (int r = 0; r < s->nranks; r++) {
    OTF2_GlobalDefWriter_WriteLocationGroup(g, (uint32_t)r, base + 1, OTF2_LOCATION_GROUP_TYPE_PROCESS, 0,
                                            OTF2_UNDEFINED_LOCATION_GROUP);
    OTF2_GlobalDefWriter_WriteLocation(g, (uint64_t)r, base + 1, OTF2_LOCATION_TYPE_CPU_THREAD, nevents[r],
                                       (uint32_t)r);
    if (members)
      members[r] = (uint64_t)r;
  }
  if (members) {
    OTF2_GlobalDefWriter_WriteGroup(g, 0, 0, OTF2_GROUP_TYPE_COMM_LOCATIONS, OTF2_PARADIGM_MPI,
                                    OTF2_GROUP_FLAG_NONE, (uint32_t)s->nranks, members);
    OTF2_GlobalDefWriter_WriteGroup(g, 1, 0, OTF2_GROUP_TYPE_COMM_GROUP, OTF2_PARADIGM_MPI,
                                    OTF2_GROUP_FLAG_NONE, (uint32_t)s->nranks, members);
  }
  free(members);
  for (int i = 0; i < s->ngroups; i++)
    OTF2_GlobalDefWriter_WriteGroup(g, 2 + (uint32_t)i, 0, OTF2_GROUP_TYPE_COMM_GROUP, OTF2_PARADIGM_MPI,
                                    OTF2_GROUP_FLAG_NONE, s->group_n[i], s->group_members[i]);
  OTF2_GlobalDefWriter_WriteComm(g, 0, base + 2, 1, OTF2_UNDEFINED_COMM, OTF2_COMM_FLAG_NONE);
  for (int w = 0; w < s->nwins; w++)
    OTF2_GlobalDefWriter_WriteRmaWin(g, (uint32_t)w, base + 3, 0, OTF2_RMA_WIN_FLAG_NONE);
}

int mv__synth_close(struct mv__synth *s)
{
  uint64_t *nevents = calloc((size_t)s->nranks, sizeof *nevents);
  int err = nevents ? 0 : MV_ENOMEM;
  for (int r = 0; r < s->nranks; r++) {
    if (nevents)
      OTF2_EvtWriter_GetNumberOfEvents(s->w[r], &nevents[r]);
    OTF2_Archive_CloseEvtWriter(s->ar, s->w[r]);
  }
  OTF2_Archive_CloseEvtFiles(s->ar);
  OTF2_Archive_OpenDefFiles(s->ar);   /* empty local definitions, as OTF2 readers expect */
  for (int r = 0; r < s->nranks; r++)
    OTF2_Archive_CloseDefWriter(s->ar, OTF2_Archive_GetDefWriter(s->ar, (OTF2_LocationRef)r));
  OTF2_Archive_CloseDefFiles(s->ar);
  OTF2_GlobalDefWriter *g = OTF2_Archive_GetGlobalDefWriter(s->ar);
  if (g && nevents)
    write_defs(s, g, nevents);
  if (OTF2_Archive_Close(s->ar) != OTF2_SUCCESS || !g)
    err = MV_EIO;
  for (int i = 0; i < s->nregions; i++)
    free(s->regions[i]);
  for (int i = 0; i < s->ngroups; i++)
    free(s->group_members[i]);
  free(nevents);
  if (s->attrs)
    OTF2_AttributeList_Delete(s->attrs);
  free(s->w);
  free(s);
  return err;
}
