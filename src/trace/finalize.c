/* MPI_Finalize's part of the tracer: every rank converts its own raw events into the OTF2
 * archive in parallel (OTF2's MPI collectives over the tracer's private communicator), then
 * rank 0 reads all definitions side files and writes the global definitions. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "archive.h"
#include "output.h"
#include "say.h"
#include "state.h"

#define OTF2_MPI_USE_PMPI
#include <otf2/OTF2_MPI_Collectives.h>

static int global_defs(OTF2_Archive *ar, const struct mv__idmap *map, uint64_t t0, uint64_t t1)
{
  struct mv__raw_defs d = {0};
  d.nranks = G.size;
  for (int r = 0; r < G.size; r++)
    mv__defs_read(G.dir, r, &d);
  int err = mv__write_globals(ar, G.dir, &d, map, t0, t1);
  mv__defs_release(&d);
  return err;
}

/* Every rank needs the dense ids of all communicators, windows, groups and MPI-IO handles and
 * files: each rank reads the ids it defined from its own side file, rank 0 gathers the five
 * lists, sorts them and broadcasts them. Gather and Bcast, not Allgather: SMPI's default
 * Allgather(v) costs wall time quadratic in ranks (1 s each at 128 simulated ranks, against
 * 6 ms for a Gather), which made MPI_Finalize take minutes at 256. */
#define MV__NLISTS 5
struct mv__lists {
  uint32_t **v[MV__NLISTS];
  size_t *n[MV__NLISTS];
};

static struct mv__lists lists_of(struct mv__idmap *m)
{
  return (struct mv__lists){{&m->comms, &m->wins, &m->groups, &m->iohandles, &m->iofiles},
                            {&m->ncomms, &m->nwins, &m->ngroups, &m->niohandles, &m->niofiles}};
}

/* The five lists one after the other, sizes[k] the length of list k; NULL when out of memory. */
static uint32_t *pack(struct mv__lists l, int sizes[MV__NLISTS], int *total)
{
  *total = 0;
  for (int k = 0; k < MV__NLISTS; k++)
    *total += sizes[k] = (int)*l.n[k];
  uint32_t *buf = malloc(((size_t)*total + 1) * sizeof *buf);
  for (int k = 0, at = 0; buf && k < MV__NLISTS; at += sizes[k], k++)
    memcpy(buf + at, *l.v[k], (size_t)sizes[k] * sizeof *buf);
  return buf;
}

/* Replaces the five lists by the packed ones in buf (NULL: empty lists); -1 if out of memory. */
static int unpack(struct mv__lists l, const uint32_t *buf, const int sizes[MV__NLISTS])
{
  int err = 0;
  for (int k = 0, at = 0; k < MV__NLISTS; at += sizes[k], k++) {
    size_t len = buf ? (size_t)sizes[k] : 0;
    free(*l.v[k]);
    *l.n[k] = 0;
    if (!(*l.v[k] = malloc((len + 1) * sizeof **l.v[k]))) {
      err = -1;
      continue;
    }
    if (len)
      memcpy(*l.v[k], buf + at, len * sizeof *buf);
    *l.n[k] = len;
  }
  return err;
}

/* Rank 0: the union of every rank's packed lists in all (rank r's at displs[r], its list
 * lengths at counts[r * MV__NLISTS + k]) into m, sorted and unique; -1 if out of memory. */
static int merge(struct mv__idmap *m, const uint32_t *all, const int *counts, const int *displs,
                 int size)
{
  struct mv__idmap u = {0};
  struct mv__lists l = lists_of(m), ul = lists_of(&u);
  int err = 0;
  for (int k = 0; k < MV__NLISTS; k++) {
    size_t len = 0;
    for (int r = 0; r < size; r++)
      len += (size_t)counts[r * MV__NLISTS + k];
    if (!(*ul.v[k] = malloc((len + 1) * sizeof **ul.v[k])))
      err = -1;
  }
  for (int r = 0; !err && r < size; r++)
    for (int k = 0, at = displs[r]; k < MV__NLISTS; at += counts[r * MV__NLISTS + k], k++) {
      memcpy(*ul.v[k] + *ul.n[k], all + at, (size_t)counts[r * MV__NLISTS + k] * sizeof *all);
      *ul.n[k] += (size_t)counts[r * MV__NLISTS + k];
    }
  if (err) {
    mv__idmap_release(&u);
    return -1;
  }
  mv__idmap_finish(&u);
  for (int k = 0; k < MV__NLISTS; k++) {
    free(*l.v[k]);
    *l.v[k] = *ul.v[k], *l.n[k] = *ul.n[k];
  }
  return 0;
}

/* Returns 0, or -1 on every rank when one ran out of memory (its lists are then empty). */
static int gather_lists(struct mv__idmap *m)
{
  struct mv__lists l = lists_of(m);
  int sizes[MV__NLISTS + 1], total, root = G.rank == 0, n = root ? G.size : 0;
  uint32_t *own = pack(l, sizes, &total), *all = NULL;
  int *counts = malloc(((size_t)n * MV__NLISTS + 1) * sizeof *counts);
  int *sums = malloc(((size_t)n * 2 + 1) * sizeof *sums), *displs = sums ? sums + n : NULL;
  int ok = own && counts && sums, every = 0, sum = 0;
  PMPI_Gather(sizes, MV__NLISTS, MPI_INT, counts, MV__NLISTS, MPI_INT, 0, G.tool_comm);
  for (int r = 0; ok && r < n; r++) {
    sums[r] = 0;
    for (int k = 0; k < MV__NLISTS; k++)
      sums[r] += counts[r * MV__NLISTS + k];
    displs[r] = sum, sum += sums[r];
  }
  PMPI_Allreduce(&ok, &every, 1, MPI_INT, MPI_LAND, G.tool_comm);
  if (every && root)
    every = (all = malloc(((size_t)sum + 1) * sizeof *all)) != NULL;
  PMPI_Bcast(&every, 1, MPI_INT, 0, G.tool_comm);
  if (every)
    PMPI_Gatherv(own, total, MPI_UINT32_T, all, sums, displs, MPI_UINT32_T, 0, G.tool_comm);
  free(own);
  own = NULL;
  if (every && root && merge(m, all, counts, displs, G.size) == 0)
    own = pack(l, sizes, &total);
  sizes[MV__NLISTS] = every && (!root || own);  /* 0: no lists for anyone */
  PMPI_Bcast(sizes, MV__NLISTS + 1, MPI_INT, 0, G.tool_comm);
  every = sizes[MV__NLISTS];
  total = 0;
  for (int k = 0; k < MV__NLISTS; k++)
    total += sizes[k];
  if (every && !root)
    own = malloc(((size_t)total + 1) * sizeof *own);
  ok = every && own;
  PMPI_Allreduce(&ok, &every, 1, MPI_INT, MPI_LAND, G.tool_comm);
  if (every)
    PMPI_Bcast(own, total, MPI_UINT32_T, 0, G.tool_comm);
  int err = root && every ? 0 : unpack(l, every ? own : NULL, sizes);  /* rank 0 has them */
  free(own);
  free(all);
  free(counts);
  free(sums);
  return every && !err ? 0 : -1;
}

/* The ids and the clock alignment this rank defined, from its own side file. */
static int build_idmap(struct mv__idmap *m, struct mv__clock *clk)
{
  struct mv__raw_defs own = {0};
  own.nranks = G.size;
  mv__defs_read(G.dir, G.rank, &own);
  mv__idmap_from_defs(m, &own);
  *clk = own.ranks ? own.ranks[G.rank].clock : (struct mv__clock){0};
  mv__defs_release(&own);
  return gather_lists(m);
}

/* The OTF2 archive; 0, or 1 on every rank when it could not be written (raw files kept). */
static int write_otf2(void)
{
  OTF2_Archive *ar = OTF2_Archive_Open(G.dir, "traces", OTF2_FILEMODE_WRITE,
                                       MV__OTF2_CHUNK, MV__OTF2_CHUNK,
                                       OTF2_SUBSTRATE_POSIX, OTF2_COMPRESSION_NONE);
  int err = ar ? mv__archive_prepare(ar) : -1;
  if (ar && OTF2_MPI_Archive_SetCollectiveCallbacks(ar, G.tool_comm, MPI_COMM_NULL) != OTF2_SUCCESS)
    err = -1;
  if (ar && OTF2_Archive_OpenEvtFiles(ar) != OTF2_SUCCESS)
    err = -1;
  struct mv__clock clk;
  uint64_t n = 0, first = UINT64_MAX, last = 0;
  struct mv__idmap map;
  if (build_idmap(&map, &clk) != 0)
    err = -1;
  if (!err)
    err = mv__convert_rank(ar, G.dir, G.rank, &clk, &map, &n, &first, &last);
  if (ar)
    OTF2_Archive_CloseEvtFiles(ar);
  if (ar && (OTF2_Archive_OpenDefFiles(ar) != OTF2_SUCCESS || mv__write_local_defs(ar, G.rank) != 0 ||
             OTF2_Archive_CloseDefFiles(ar) != OTF2_SUCCESS))
    err = err ? err : -1;
  /* One Allreduce (MPI_MIN) for the first stamp, the last one (as UINT64_MAX - last) and
   * success, not two Reduces and an Allreduce: at 1024 SMPI ranks one default Reduce took
   * 4.2 s of wall time on the test VM, an Allreduce 0.15 s */
  uint64_t mine[3] = {first, UINT64_MAX - last, err == 0}, all[3] = {0, 0, 0};
  PMPI_Allreduce(mine, all, 3, MPI_UINT64_T, MPI_MIN, G.tool_comm);
  uint64_t t0 = all[0], t1 = UINT64_MAX - all[1];
  int any_bad = all[2] == 0;
  if (G.rank == 0 && ar && global_defs(ar, &map, t0, t1) != 0)
    any_bad = 1;
  mv__idmap_release(&map);
  if (ar)
    OTF2_Archive_Close(ar);
  if (any_bad && G.rank == 0)
    mv__say("writing the OTF2 archive in %s failed; the raw files stay in %s/mpivet-raw "
            "(mpivet-trace-finish %s retries)", G.dir, G.dir, G.dir);
  return any_bad;
}

void mv__write_archive(void)
{
  int bad = (G.formats & MV__OUT_OTF2) ? write_otf2() : 0;
  if ((G.formats & MV__OUT_MVT) && mv__write_compressed() != 0) {
    if (G.rank == 0)
      mv__say("writing %s/compressed.mvt failed%s", G.dir,
              G.formats & MV__OUT_OTF2 ? "" : "; the raw files stay in the mpivet-raw folder");
    bad |= !(G.formats & MV__OUT_OTF2);
  }
  if (bad)
    return;
  PMPI_Barrier(G.tool_comm);  /* rank 0 has read every side file */
  mv__raw_remove(G.dir, G.rank);
}
