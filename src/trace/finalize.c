/* MPI_Finalize's part of the tracer: every rank converts its own raw events into the OTF2
 * archive in parallel (OTF2's MPI collectives over the tracer's private communicator), then
 * rank 0 reads all definitions side files and writes the global definitions. */
#include <stdint.h>
#include <stdlib.h>

#include "archive.h"
#include "state.h"

#define OTF2_MPI_USE_PMPI
#include <otf2/OTF2_MPI_Collectives.h>

static int global_defs(OTF2_Archive *ar, const struct mv__idmap *map, uint64_t t0, uint64_t t1)
{
  struct mv__defs d = {0};
  d.nranks = G.size;
  for (int r = 0; r < G.size; r++)
    mv__defs_read(G.dir, r, &d);
  int err = mv__write_globals(ar, G.dir, &d, map, t0, t1);
  mv__defs_release(&d);
  return err;
}

/* Every rank needs the dense ids of all communicators, windows and groups: each rank reads
 * the ids it defined from its own side file and all ranks gather the three lists. */
static void gather_list(uint32_t **v, size_t *n)
{
  int mine = (int)*n, *counts = malloc((size_t)G.size * sizeof *counts);
  int *displs = malloc((size_t)G.size * sizeof *displs), total = 0;
  PMPI_Allgather(&mine, 1, MPI_INT, counts, 1, MPI_INT, G.tool_comm);
  for (int r = 0; r < G.size; r++)
    displs[r] = total, total += counts[r];
  uint32_t *all = malloc(((size_t)total + 1) * sizeof *all);
  PMPI_Allgatherv(*v, mine, MPI_UINT32_T, all, counts, displs, MPI_UINT32_T, G.tool_comm);
  free(*v);
  free(counts);
  free(displs);
  *v = all;
  *n = (size_t)total;
}

/* The ids and the clock alignment this rank defined, from its own side file. */
static void build_idmap(struct mv__idmap *m, struct mv__clock *clk)
{
  struct mv__defs own = {0};
  own.nranks = G.size;
  mv__defs_read(G.dir, G.rank, &own);
  mv__idmap_from_defs(m, &own);
  *clk = own.ranks ? own.ranks[G.rank].clock : (struct mv__clock){0};
  mv__defs_release(&own);
  gather_list(&m->comms, &m->ncomms);
  gather_list(&m->wins, &m->nwins);
  gather_list(&m->groups, &m->ngroups);
  gather_list(&m->iohandles, &m->niohandles);
  gather_list(&m->iofiles, &m->niofiles);
  mv__idmap_finish(m);
}

void mv__write_archive(void)
{
  OTF2_Archive *ar = OTF2_Archive_Open(G.dir, "traces", OTF2_FILEMODE_WRITE, 1 << 20, 4 << 20,
                                       OTF2_SUBSTRATE_POSIX, OTF2_COMPRESSION_NONE);
  int err = ar ? mv__archive_prepare(ar) : -1;
  if (ar && OTF2_MPI_Archive_SetCollectiveCallbacks(ar, G.tool_comm, MPI_COMM_NULL) != OTF2_SUCCESS)
    err = -1;
  if (ar && OTF2_Archive_OpenEvtFiles(ar) != OTF2_SUCCESS)
    err = -1;
  struct mv__clock clk;
  uint64_t n = 0, first = UINT64_MAX, last = 0;
  struct mv__idmap map;
  build_idmap(&map, &clk);
  if (!err)
    err = mv__convert_rank(ar, G.dir, G.rank, &clk, &map, &n, &first, &last);
  if (ar)
    OTF2_Archive_CloseEvtFiles(ar);
  if (ar && (OTF2_Archive_OpenDefFiles(ar) != OTF2_SUCCESS || mv__write_local_defs(ar, G.rank) != 0 ||
             OTF2_Archive_CloseDefFiles(ar) != OTF2_SUCCESS))
    err = err ? err : -1;
  uint64_t t0 = 0, t1 = 0;
  PMPI_Reduce(&first, &t0, 1, MPI_UINT64_T, MPI_MIN, 0, G.tool_comm);
  PMPI_Reduce(&last, &t1, 1, MPI_UINT64_T, MPI_MAX, 0, G.tool_comm);
  int bad = err != 0, any_bad = 0;
  PMPI_Allreduce(&bad, &any_bad, 1, MPI_INT, MPI_MAX, G.tool_comm);
  if (G.rank == 0 && ar && global_defs(ar, &map, t0, t1) != 0)
    any_bad = 1;
  mv__idmap_release(&map);
  if (ar)
    OTF2_Archive_Close(ar);
  if (any_bad) {
    if (G.rank == 0)
      mv__say("writing the OTF2 archive in %s failed; the raw files stay in %s/mpivet-raw "
              "(mpivet-trace-finish %s retries)", G.dir, G.dir, G.dir);
    return;
  }
  PMPI_Barrier(G.tool_comm);  /* rank 0 has read every side file */
  mv__raw_remove(G.dir, G.rank);
}
