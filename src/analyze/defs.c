/* Global definitions of an OTF2 archive as the analyzer needs them: strings, regions (with
 * their MPI class), groups, communicators, windows, locations and the rank -> location map.
 * Refs are kept in dense arrays; absurd refs (malformed archives) make the read fail cleanly. */
#include <otf2/otf2.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "mpivet/error.h"

#define MAX_REF (1u << 22)

struct ctx {
  struct mv__defs *d;
  int err;
};

/* Grow a dense array so that index `ref` exists; new items are zeroed. */
static int ensure(void **arr, uint32_t *n, uint32_t ref, size_t item)
{
  if (ref >= MAX_REF)
    return MV_EPARSE;
  if (ref < *n)
    return 0;
  uint32_t nn = ref + 1 > *n * 2 ? ref + 1 : *n * 2;
  void *p = realloc(*arr, (size_t)nn * item);
  if (!p)
    return MV_ENOMEM;
  memset((char *)p + (size_t)*n * item, 0, (size_t)(nn - *n) * item);
  *arr = p;
  *n = nn;
  return 0;
}

#define ENSURE(c, field, count, ref)                                                    \
  do {                                                                                  \
    int e_ = ensure((void **)&(c)->d->field, &(c)->d->count, (ref), sizeof *(c)->d->field); \
    if (e_) {                                                                           \
      (c)->err = e_;                                                                    \
      return OTF2_CALLBACK_INTERRUPT;                                                   \
    }                                                                                   \
  } while (0)

static OTF2_CallbackCode on_clock(void *u, uint64_t res, uint64_t off, uint64_t len, uint64_t rt)
{
  struct ctx *c = u;
  (void)rt;
  c->d->resolution = res;
  c->d->offset = off;
  c->d->trace_len = len;
  return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_string(void *u, OTF2_StringRef self, const char *s)
{
  struct ctx *c = u;
  ENSURE(c, strings, nstrings, self);
  free(c->d->strings[self]);
  c->d->strings[self] = strdup(s ? s : "");
  if (!c->d->strings[self]) {
    c->err = MV_ENOMEM;
    return OTF2_CALLBACK_INTERRUPT;
  }
  return OTF2_CALLBACK_SUCCESS;
}

struct name_class {
  const char *prefix;
  uint8_t cls, role;
};
/* Longest prefixes first where they overlap (MPI_Win_* before the rest of MPI_). */
static const struct name_class name_classes[] = {
  {"MPI_Win_post", MV__RC_RSYNC, MV__GS_POST},
  {"MPI_Win_start", MV__RC_RSYNC, MV__GS_START},
  {"MPI_Win_complete", MV__RC_RSYNC, MV__GS_COMPLETE},
  {"MPI_Win_wait", MV__RC_RSYNC, MV__GS_WAIT},
  {"MPI_Win_", MV__RC_RSYNC, MV__GS_NONE},
  {"MPI_Put", MV__RC_RCOMM, 0}, {"MPI_Get", MV__RC_RCOMM, 0}, {"MPI_Rput", MV__RC_RCOMM, 0},
  {"MPI_Rget", MV__RC_RCOMM, 0}, {"MPI_Accumulate", MV__RC_RCOMM, 0},
  {"MPI_Raccumulate", MV__RC_RCOMM, 0}, {"MPI_Fetch_and_op", MV__RC_RCOMM, 0},
  {"MPI_Compare_and_swap", MV__RC_RCOMM, 0},
  {"MPI_Barrier", MV__RC_COLL, 0}, {"MPI_Bcast", MV__RC_COLL, 0}, {"MPI_Reduce", MV__RC_COLL, 0},
  {"MPI_Allreduce", MV__RC_COLL, 0}, {"MPI_Gather", MV__RC_COLL, 0},
  {"MPI_Allgather", MV__RC_COLL, 0}, {"MPI_Scatter", MV__RC_COLL, 0},
  {"MPI_Alltoall", MV__RC_COLL, 0}, {"MPI_Scan", MV__RC_COLL, 0}, {"MPI_Exscan", MV__RC_COLL, 0},
  {"MPI_Ibarrier", MV__RC_COLL, 0}, {"MPI_Ibcast", MV__RC_COLL, 0}, {"MPI_Igather", MV__RC_COLL, 0},
  {"MPI_Iscatter", MV__RC_COLL, 0}, {"MPI_Iallgather", MV__RC_COLL, 0},
  {"MPI_Ialltoall", MV__RC_COLL, 0}, {"MPI_Ireduce", MV__RC_COLL, 0},
  {"MPI_Iallreduce", MV__RC_COLL, 0}, {"MPI_Iscan", MV__RC_COLL, 0}, {"MPI_Iexscan", MV__RC_COLL, 0},
  {"MPI_Send", MV__RC_P2P, 0}, {"MPI_Bsend", MV__RC_P2P, 0}, {"MPI_Ssend", MV__RC_P2P, 0},
  {"MPI_Rsend", MV__RC_P2P, 0}, {"MPI_Isend", MV__RC_P2P, 0}, {"MPI_Ibsend", MV__RC_P2P, 0},
  {"MPI_Issend", MV__RC_P2P, 0}, {"MPI_Irsend", MV__RC_P2P, 0}, {"MPI_Recv", MV__RC_P2P, 0},
  {"MPI_Irecv", MV__RC_P2P, 0}, {"MPI_Sendrecv", MV__RC_P2P, 0}, {"MPI_Wait", MV__RC_P2P, 0},
  {"MPI_Test", MV__RC_P2P, 0}, {"MPI_Probe", MV__RC_P2P, 0}, {"MPI_Iprobe", MV__RC_P2P, 0},
  {"MPI_File_", MV__RC_IO, 0}, {"MPI_", MV__RC_MPI, 0},
};

static void classify(struct mv__region *r, const char *name, OTF2_Paradigm paradigm)
{
  r->cls = MV__RC_USER;
  r->role = MV__GS_NONE;
  /* Scalasca's is_mpi_block_send: standard or synchronous mode only; the send of a Sendrecv
   * (whose call also waits for its receive), a Bsend or an Rsend is no Late Receiver */
  r->special = !strcmp(name, "MPI_Send") || !strcmp(name, "MPI_Ssend") ? MV__RS_BLOCK_SEND
             : !strcmp(name, "MPI_Init") || !strcmp(name, "MPI_Init_thread") ? MV__RS_INIT
             : !strcmp(name, "MPI_Finalize") ? MV__RS_FINALIZE : MV__RS_NONE;
  for (size_t i = 0; i < sizeof name_classes / sizeof name_classes[0]; i++) {
    size_t n = strlen(name_classes[i].prefix);
    if (strncmp(name, name_classes[i].prefix, n) == 0) {
      r->cls = name_classes[i].cls;
      r->role = name_classes[i].role;
      return;
    }
  }
  if (paradigm == OTF2_PARADIGM_MPI)
    r->cls = MV__RC_MPI;
}

static OTF2_CallbackCode on_region(void *u, OTF2_RegionRef self, OTF2_StringRef name,
                                   OTF2_StringRef canon, OTF2_StringRef desc, OTF2_RegionRole role,
                                   OTF2_Paradigm paradigm, OTF2_RegionFlag flags, OTF2_StringRef file,
                                   uint32_t b, uint32_t e)
{
  struct ctx *c = u;
  (void)canon, (void)desc, (void)role, (void)flags, (void)file, (void)b, (void)e;
  ENSURE(c, regions, nregions, self);
  c->d->regions[self].name = name;
  classify(&c->d->regions[self], mv__defs_string(c->d, name), paradigm);
  return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_group(void *u, OTF2_GroupRef self, OTF2_StringRef name, OTF2_GroupType type,
                                  OTF2_Paradigm paradigm, OTF2_GroupFlag flags, uint32_t n,
                                  const uint64_t *members)
{
  struct ctx *c = u;
  (void)name, (void)paradigm, (void)flags;
  ENSURE(c, groups, ngroups, self);
  struct mv__group *g = &c->d->groups[self];
  free(g->members);
  g->type = type;
  g->n = n;
  g->members = malloc((n ? n : 1) * sizeof *members);
  if (!g->members) {
    c->err = MV_ENOMEM;
    return OTF2_CALLBACK_INTERRUPT;
  }
  if (n)
    memcpy(g->members, members, n * sizeof *members);
  return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_comm(void *u, OTF2_CommRef self, OTF2_StringRef name, OTF2_GroupRef group,
                                 OTF2_CommRef parent, OTF2_CommFlag flags)
{
  struct ctx *c = u;
  (void)name, (void)parent, (void)flags;
  ENSURE(c, comms, ncomms, self);
  c->d->comms[self].group = group;
  c->d->comms[self].n = MV__NONE;
  return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_win(void *u, OTF2_RmaWinRef self, OTF2_StringRef name, OTF2_CommRef comm,
                                OTF2_RmaWinFlag flags)
{
  struct ctx *c = u;
  (void)name, (void)flags;
  uint32_t old = c->d->nwins;
  ENSURE(c, win_comm, nwins, self);
  for (uint32_t i = old; i < c->d->nwins; i++)
    c->d->win_comm[i] = MV__NONE;
  c->d->win_comm[self] = comm;
  return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_attribute(void *u, OTF2_AttributeRef self, OTF2_StringRef name, OTF2_StringRef desc,
                                      OTF2_Type type)
{
  struct ctx *c = u;
  (void)desc;
  if (type == OTF2_TYPE_UINT64 && !strcmp(mv__defs_string(c->d, name), "mpivet::callsite"))
    c->d->callsite_attr = self;
  return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_location(void *u, OTF2_LocationRef self, OTF2_StringRef name,
                                     OTF2_LocationType type, uint64_t nevents, OTF2_LocationGroupRef grp)
{
  struct ctx *c = u;
  struct mv__defs *d = c->d;
  (void)name, (void)type, (void)grp;
  uint32_t n = d->nloc, cap = d->nloc;
  if (mv__map_get(&d->loc_index, self, 0))
    return OTF2_CALLBACK_SUCCESS;
  if (ensure((void **)&d->loc_ref, &cap, n, sizeof *d->loc_ref) ||
      ensure((void **)&d->loc_events, &n, n, sizeof *d->loc_events) ||
      !mv__map_put(&d->loc_index, self, 0, d->nloc, NULL)) {
    c->err = MV_ENOMEM;
    return OTF2_CALLBACK_INTERRUPT;
  }
  d->loc_ref[d->nloc] = self;
  d->loc_events[d->nloc] = nevents;
  d->nloc++;
  return OTF2_CALLBACK_SUCCESS;
}

/* World ranks from the COMM_LOCATIONS group; without one, ranks follow definition order. */
static int resolve_ranks(struct mv__defs *d)
{
  const struct mv__group *world = NULL;
  for (uint32_t i = 0; i < d->ngroups; i++)
    if (d->groups[i].members && d->groups[i].type == OTF2_GROUP_TYPE_COMM_LOCATIONS)
      world = &d->groups[i];
  d->loc_rank = malloc((d->nloc ? d->nloc : 1) * sizeof *d->loc_rank);
  d->nranks = world ? world->n : d->nloc;
  d->rank_loc = malloc((d->nranks ? d->nranks : 1) * sizeof *d->rank_loc);
  if (!d->loc_rank || !d->rank_loc)
    return MV_ENOMEM;
  for (uint32_t i = 0; i < d->nloc; i++)
    d->loc_rank[i] = world ? MV__NONE : i;
  for (uint32_t r = 0; r < d->nranks; r++) {
    uint64_t *idx = world ? mv__map_get(&d->loc_index, world->members[r], 0) : NULL;
    d->rank_loc[r] = world ? (idx ? (uint32_t)*idx : MV__NONE) : r;
    if (idx)
      d->loc_rank[*idx] = r;
  }
  return 0;
}

/* The analyzer's own region for time spent outside every traced region (mpivet's tracer
 * records only MPI calls): one string and one region after the trace's own. */
static int add_comp_region(struct mv__defs *d)
{
  uint32_t sref = d->nstrings, rref = d->nregions;
  int err = ensure((void **)&d->strings, &d->nstrings, sref, sizeof *d->strings);
  err = err ? err : ensure((void **)&d->regions, &d->nregions, rref, sizeof *d->regions);
  if (err)
    return err;
  if (!(d->strings[sref] = strdup("Computation")))
    return MV_ENOMEM;
  d->regions[rref] = (struct mv__region){sref, MV__RC_COMP, MV__GS_NONE, 0};
  d->comp_region = rref;
  return 0;
}

int mv__otf2_defs_read(struct mv__defs *d, void *reader)
{
  memset(d, 0, sizeof *d);
  mv__map_init(&d->loc_index);
  d->resolution = 1;
  d->callsite_attr = MV__NONE;
  struct ctx c = {d, 0};
  OTF2_GlobalDefReader *gdr = OTF2_Reader_GetGlobalDefReader(reader);
  if (!gdr)
    return MV_EIO;
  OTF2_GlobalDefReaderCallbacks *cb = OTF2_GlobalDefReaderCallbacks_New();
  if (!cb)
    return MV_ENOMEM;
  OTF2_GlobalDefReaderCallbacks_SetClockPropertiesCallback(cb, on_clock);
  OTF2_GlobalDefReaderCallbacks_SetStringCallback(cb, on_string);
  OTF2_GlobalDefReaderCallbacks_SetRegionCallback(cb, on_region);
  OTF2_GlobalDefReaderCallbacks_SetGroupCallback(cb, on_group);
  OTF2_GlobalDefReaderCallbacks_SetCommCallback(cb, on_comm);
  OTF2_GlobalDefReaderCallbacks_SetRmaWinCallback(cb, on_win);
  OTF2_GlobalDefReaderCallbacks_SetLocationCallback(cb, on_location);
  OTF2_GlobalDefReaderCallbacks_SetAttributeCallback(cb, on_attribute);
  OTF2_Reader_RegisterGlobalDefCallbacks(reader, gdr, cb, &c);
  OTF2_GlobalDefReaderCallbacks_Delete(cb);
  uint64_t n = 0;
  OTF2_ErrorCode rc = OTF2_Reader_ReadAllGlobalDefinitions(reader, gdr, &n);
  OTF2_Reader_CloseGlobalDefReader(reader, gdr);
  if (c.err)
    return c.err;
  if (rc != OTF2_SUCCESS)
    return MV_EPARSE;
  if (d->resolution == 0)
    d->resolution = 1;
  int err = add_comp_region(d);
  return err ? err : resolve_ranks(d);
}

void mv__otf2_defs_release(struct mv__defs *d)
{
  for (uint32_t i = 0; i < d->nstrings; i++)
    free(d->strings[i]);
  for (uint32_t i = 0; i < d->ngroups; i++)
    free(d->groups[i].members);
  for (uint32_t i = 0; i < d->ncomms; i++)
    free(d->comms[i].locs);
  free(d->strings);
  free(d->regions);
  free(d->groups);
  free(d->comms);
  free(d->win_comm);
  free(d->loc_ref);
  free(d->loc_events);
  free(d->loc_rank);
  free(d->rank_loc);
  mv__map_release(&d->loc_index);
  memset(d, 0, sizeof *d);
}

const char *mv__defs_string(const struct mv__defs *d, uint32_t ref)
{
  return ref < d->nstrings && d->strings[ref] ? d->strings[ref] : "";
}

const uint64_t *mv__group_members(const struct mv__defs *d, uint32_t group, uint32_t *n)
{
  if (group >= d->ngroups || !d->groups[group].members) {
    *n = 0;
    return NULL;
  }
  *n = d->groups[group].n;
  return d->groups[group].members;
}

/* Lazily map a communicator's ranks to locations through its COMM_GROUP (world ranks). */
static struct mv__comm *resolve_comm(struct mv__defs *d, uint32_t comm)
{
  if (comm >= d->ncomms)
    return NULL;
  struct mv__comm *c = &d->comms[comm];
  if (c->n != MV__NONE)
    return c;
  c->n = 0;
  uint32_t n;
  const uint64_t *m = mv__group_members(d, c->group, &n);
  if (c->group < d->ngroups && d->groups[c->group].type == OTF2_GROUP_TYPE_COMM_SELF) {
    c->self = 1;
    c->n = 1;
    return c;
  }
  if (!m || !(c->locs = malloc((n ? n : 1) * sizeof *c->locs)))
    return c;
  for (uint32_t i = 0; i < n; i++)
    c->locs[i] = m[i] < d->nranks ? d->rank_loc[m[i]] : MV__NONE;
  c->n = n;
  return c;
}

uint32_t mv__comm_size(struct mv__defs *d, uint32_t comm)
{
  struct mv__comm *c = resolve_comm(d, comm);
  return c ? c->n : 0;
}

uint32_t mv__comm_loc(struct mv__defs *d, uint32_t comm, uint32_t rank, uint32_t loc)
{
  struct mv__comm *c = resolve_comm(d, comm);
  if (!c || rank >= c->n)
    return MV__NONE;
  return c->self ? loc : c->locs[rank];
}
