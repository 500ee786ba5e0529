/* Global definitions of the archive, written once (rank 0 at MPI_Finalize, or the finisher):
 * clock properties, one location group and location per rank, one region per wrapped MPI
 * function, the call-site attribute, communicators, RMA groups and windows (members in world
 * ranks), archive properties, callsites.txt and the TRUNCATED marker file. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "archive.h"
#include "rawfmt.h"
#include "trace-regions.h"

struct writer {
  OTF2_GlobalDefWriter *w;
  uint32_t next_string;
  int err;
};

static OTF2_StringRef str(struct writer *g, const char *s)
{
  OTF2_StringRef id = g->next_string++;
  if (OTF2_GlobalDefWriter_WriteString(g->w, id, s) != OTF2_SUCCESS)
    g->err = -EIO;
  return id;
}

static void check(struct writer *g, OTF2_ErrorCode rc)
{
  if (rc != OTF2_SUCCESS)
    g->err = -EIO;
}

static void write_ranks(struct writer *g, const struct mv__raw_defs *d)
{
  check(g, OTF2_GlobalDefWriter_WriteSystemTreeNode(g->w, 0, str(g, "machine"), str(g, "machine"),
                                                    OTF2_UNDEFINED_SYSTEM_TREE_NODE));
  OTF2_StringRef thread = str(g, "Master thread");
  for (int r = 0; r < d->nranks; r++) {
    char name[32];
    snprintf(name, sizeof name, "MPI Rank %d", r);
    check(g, OTF2_GlobalDefWriter_WriteLocationGroup(g->w, (uint32_t)r, str(g, name),
                                                     OTF2_LOCATION_GROUP_TYPE_PROCESS, 0,
                                                     OTF2_UNDEFINED_LOCATION_GROUP));
    check(g, OTF2_GlobalDefWriter_WriteLocation(g->w, (uint64_t)r, thread,
                                                OTF2_LOCATION_TYPE_CPU_THREAD,
                                                d->ranks[r].nevents, (uint32_t)r));
  }
}

static void write_regions(struct writer *g)
{
  OTF2_StringRef empty = str(g, ""), file = str(g, "MPI");
  for (int i = 0; i < MV__R_COUNT; i++) {
    OTF2_StringRef name = str(g, mv__regions[i].name);
    check(g, OTF2_GlobalDefWriter_WriteRegion(g->w, (uint32_t)i, name, name, empty,
                                              (OTF2_RegionRole)mv__regions[i].role,
                                              OTF2_PARADIGM_MPI, OTF2_REGION_FLAG_NONE, file, 0, 0));
  }
  check(g, OTF2_GlobalDefWriter_WriteAttribute(
             g->w, ATTR_CALLSITE, str(g, "mpivet::callsite"),
             str(g, "hash of the return addresses (module + offset) of the MPI call; "
                    "resolved in callsites.txt"), OTF2_TYPE_UINT64));
}

static int by_id(const void *a, const void *b)
{
  uint32_t x = ((const struct mv__def_set *)a)->id, y = ((const struct mv__def_set *)b)->id;
  return x < y ? -1 : x > y;
}

static int by_first(const void *a, const void *b)
{
  uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  return x < y ? -1 : x > y;
}

static void write_group(struct writer *g, uint32_t id, const char *name, const struct mv__def_set *s)
{
  check(g, OTF2_GlobalDefWriter_WriteGroup(g->w, id, str(g, name), OTF2_GROUP_TYPE_COMM_GROUP,
                                           OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE, s->filled,
                                           s->members));
}

/* qsort of a possibly empty (NULL) array: qsort itself wants a valid pointer. */
static void sort(void *v, size_t n, size_t size, int (*cmp)(const void *, const void *))
{
  if (n > 0)
    qsort(v, n, size, cmp);
}

/* Dense ids in increasing order (see struct mv__idmap): the sorted definitions line up with
 * the map built from the same lists. */
static void write_comms(struct writer *g, struct mv__raw_defs *d, const struct mv__idmap *m)
{
  uint64_t *all = malloc((size_t)d->nranks * sizeof *all);
  for (int r = 0; all && r < d->nranks; r++)
    all[r] = (uint64_t)r;
  check(g, OTF2_GlobalDefWriter_WriteGroup(g->w, 0, str(g, "all ranks"),
                                           OTF2_GROUP_TYPE_COMM_LOCATIONS, OTF2_PARADIGM_MPI,
                                           OTF2_GROUP_FLAG_NONE, all ? (uint32_t)d->nranks : 0, all));
  free(all);
  sort(d->comms, d->ncomms, sizeof *d->comms, by_id);
  sort(d->groups, d->ngroups, sizeof *d->groups, by_id);
  sort(d->wins, d->nwins, 2 * sizeof *d->wins, by_first);
  char name[64];
  for (size_t i = 0; i < d->ncomms; i++)
    write_group(g, (uint32_t)(1 + i), d->comms[i].name, &d->comms[i]);
  for (size_t j = 0; j < d->ngroups; j++) {
    snprintf(name, sizeof name, "rma_group_%zu", j);
    write_group(g, (uint32_t)(1 + d->ncomms + j), name, &d->groups[j]);
  }
  for (size_t i = 0; i < d->ncomms; i++)
    check(g, OTF2_GlobalDefWriter_WriteComm(g->w, (uint32_t)i, str(g, d->comms[i].name),
                                            (uint32_t)(1 + i), OTF2_UNDEFINED_COMM,
                                            OTF2_COMM_FLAG_NONE));
  for (size_t i = 0; i < d->nwins; i++) {
    snprintf(name, sizeof name, "win_%zu", i);
    check(g, OTF2_GlobalDefWriter_WriteRmaWin(g->w, (uint32_t)i, str(g, name),
                                              mv__idmap_find(m->comms, m->ncomms, d->wins[2 * i + 1]),
                                              OTF2_RMA_WIN_FLAG_NONE));
  }
}

static int by_iohandle(const void *a, const void *b)
{
  uint32_t x = ((const struct mv__iohandle *)a)->id, y = ((const struct mv__iohandle *)b)->id;
  return x < y ? -1 : x > y;
}

static int by_iofile(const void *a, const void *b)
{
  uint32_t x = ((const struct mv__iofile *)a)->id, y = ((const struct mv__iofile *)b)->id;
  return x < y ? -1 : x > y;
}

/* MPI-IO: the paradigm, one regular file per path, one handle per rank and open (dense ids in
 * the order of the map, as write_comms). */
static void write_io(struct writer *g, struct mv__raw_defs *d, const struct mv__idmap *m)
{
  if (d->niohandles == 0 && d->niofiles == 0)
    return;
  check(g, OTF2_GlobalDefWriter_WriteIoParadigm(g->w, MV__IO_PARADIGM, str(g, "MPI-IO"),
                                                str(g, "MPI I/O"), OTF2_IO_PARADIGM_CLASS_PARALLEL,
                                                OTF2_IO_PARADIGM_FLAG_NONE, 0, NULL, NULL, NULL));
  sort(d->iofiles, d->niofiles, sizeof *d->iofiles, by_iofile);
  sort(d->iohandles, d->niohandles, sizeof *d->iohandles, by_iohandle);
  OTF2_StringRef *names = calloc(d->niofiles + 1, sizeof *names);
  if (!names) {
    g->err = -ENOMEM;
    return;
  }
  for (size_t i = 0; i < d->niofiles; i++) {
    names[i] = str(g, d->iofiles[i].name);
    check(g, OTF2_GlobalDefWriter_WriteIoRegularFile(g->w, (uint32_t)i, names[i], 0));
  }
  for (size_t i = 0; i < d->niohandles; i++) {
    const struct mv__iohandle *h = &d->iohandles[i];
    uint32_t file = mv__idmap_find(m->iofiles, m->niofiles, h->file);
    uint32_t comm = mv__idmap_find(m->comms, m->ncomms, h->comm);
    check(g, OTF2_GlobalDefWriter_WriteIoHandle(
               g->w, (uint32_t)i, file < d->niofiles ? names[file] : str(g, "?"),
               file == UINT32_MAX ? OTF2_UNDEFINED_IO_FILE : file, MV__IO_PARADIGM,
               OTF2_IO_HANDLE_FLAG_NONE, comm == UINT32_MAX ? OTF2_UNDEFINED_COMM : comm,
               OTF2_UNDEFINED_IO_HANDLE));
  }
  free(names);
}

/* Side files for people and the analyzer: call sites, and why the trace is incomplete. */
static int write_side_files(const char *dir, const struct mv__raw_defs *d, int truncated)
{
  char path[4096];
  snprintf(path, sizeof path, "%s/callsites.txt", dir);
  FILE *f = fopen(path, "w");
  if (!f)
    return -errno;
  fprintf(f, "# mpivet::callsite hash, then module+offset(symbol) of each return address\n");
  for (size_t i = 0; i < d->nsites; i++)
    fprintf(f, "%s\n", d->sites[i]);
  int err = fclose(f) != 0 ? -EIO : 0;
  snprintf(path, sizeof path, "%s/TRUNCATED", dir);
  if (!truncated)
    return err;
  f = fopen(path, "w");
  if (!f)
    return -errno;
  for (int r = 0; r < d->nranks; r++)
    if (d->ranks[r].truncated[0])
      fprintf(f, "rank %d: %s\n", r, d->ranks[r].truncated);
  return fclose(f) != 0 ? -EIO : err;
}

int mv__write_globals(OTF2_Archive *ar, const char *dir, struct mv__raw_defs *d,
                      const struct mv__idmap *map, uint64_t t0, uint64_t t1)
{
  struct writer g = {OTF2_Archive_GetGlobalDefWriter(ar), 0, 0};
  if (!g.w)
    return -EIO;
  check(&g, OTF2_GlobalDefWriter_WriteClockProperties(g.w, 1000000000u, t0, t1 >= t0 ? t1 - t0 + 1 : 1,
                                                      OTF2_UNDEFINED_TIMESTAMP));
  write_ranks(&g, d);
  write_regions(&g);
  write_comms(&g, d, map);
  write_io(&g, d, map);
  int truncated = 0;
  for (int r = 0; r < d->nranks; r++)
    truncated |= d->ranks[r].truncated[0] != 0;
  OTF2_Archive_SetProperty(ar, "MPIVET::TRUNCATED", truncated ? "true" : "false", true);
  OTF2_Archive_SetProperty(ar, "MPIVET::META", d->meta[0] ? d->meta : "unknown", true);
  OTF2_Archive_SetDescription(ar, truncated ? "mpivet trace (TRUNCATED: see TRUNCATED file)"
                                            : "mpivet trace");
  int err = write_side_files(dir, d, truncated);
  return g.err ? g.err : err;
}

void mv__raw_remove(const char *dir, int rank)
{
  char path[4096];
  snprintf(path, sizeof path, "%s/" MV__RAW_DIR "/rank-%d.raw", dir, rank);
  unlink(path);
  snprintf(path, sizeof path, "%s/" MV__RAW_DIR "/rank-%d.defs", dir, rank);
  unlink(path);
}
