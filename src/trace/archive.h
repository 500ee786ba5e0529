/* Turning the raw per-rank files into an OTF2 archive: reading the definitions side files,
 * converting one rank's events with its clock correction, writing the global definitions.
 * Shared by the library (at MPI_Finalize, one rank each) and mpivet-trace-finish (after a
 * crash, all ranks in one process). No MPI here. */
#ifndef MPIVET_TRACE_ARCHIVE_H
#define MPIVET_TRACE_ARCHIVE_H

#include <otf2/otf2.h>
#include <stddef.h>
#include <stdio.h>
#include <stdint.h>

/* Attribute 0 is the call site; I/O paradigm 0 is MPI-IO. */
#define ATTR_CALLSITE 0
#define MV__IO_PARADIGM 0
/* OTF2's chunk size for events and definitions: its minimum. Every location's reader in
 * mpivet analyze holds a chunk: with the 1 MB / 4 MB chunks used before, analyzing the archive
 * of 1024 SMPI ranks took 2.7 s, now 0.37 s (bench/trace_smpi_scale; writing took as long,
 * and a 70 MB real-MPI archive is written and read as fast as before). */
#define MV__OTF2_CHUNK OTF2_CHUNK_SIZE_MIN


struct mv__clock {
  uint64_t t1, t2;      /* local times (ns) of the Init and Finalize alignments */
  int64_t o1, o2;       /* offsets to rank 0's clock there */
  int has_final;
  uint64_t k1, n1, k2, n2;  /* first and last (event clock ticks, ns) anchors */
  int nanchors;         /* 0: events are stamped in ns already */
};

struct mv__def_set {     /* one communicator or group: id and world ranks */
  uint32_t id;
  char name[48];
  uint32_t n, filled;
  uint64_t *members;
};

struct mv__rank_info {
  struct mv__clock clock;
  uint64_t nevents;      /* from "closed", or counted while converting */
  int closed;
  char truncated[128];   /* why, or "" */
};

struct mv__raw_defs {
  int nranks;
  char meta[160];
  struct mv__rank_info *ranks;
  struct mv__def_set *comms, *groups;
  size_t ncomms, ngroups;
  uint32_t *wins;        /* pairs: window id, communicator id */
  size_t nwins;
  char **sites;          /* "hash module+off(sym) ..." lines, deduplicated */
  size_t nsites;
  struct mv__iohandle { uint32_t id, comm, file; } *iohandles;  /* MPI-IO: per rank and open */
  size_t niohandles;
  struct mv__iofile { uint32_t id; char *name; } *iofiles;      /* id: hash of the path */
  size_t niofiles;
};

/* The tracer's sparse ids (k * nranks + leader) -> dense OTF2 ids, which readers expect:
 * communicator i and window i are the i-th smallest ids; group 0 lists all ranks, group 1+i
 * is communicator i's, group 1+ncomms+j is RMA sync group j; I/O handle i and file i the
 * i-th smallest handle id (k * nranks + rank) and path hash. */
struct mv__idmap {
  uint32_t *comms, *wins, *groups, *iohandles, *iofiles;
  size_t ncomms, nwins, ngroups, niohandles, niofiles;
};
void mv__idmap_finish(struct mv__idmap *m);   /* sort and deduplicate the lists */
void mv__idmap_from_defs(struct mv__idmap *m, const struct mv__raw_defs *d);
void mv__idmap_release(struct mv__idmap *m);
uint32_t mv__idmap_find(const uint32_t *v, size_t n, uint32_t id);  /* UINT32_MAX: unknown */

/* Reads <dir>/mpivet-raw/rank-<r>.defs into d (d->nranks must be set). 0 or -errno. */
int mv__defs_read(const char *dir, int rank, struct mv__raw_defs *d);
/* Ranks to convert: P of rank 0's "rank 0 P" line when at least as many rank files are found
 * and at most 2 x found + 64 (ranks that died in MPI_Init wrote none), else the highest rank
 * file + 1 (rank numbers below MV__RANKS_MAX). */
#define MV__RANKS_MAX (1 << 24)
int mv__defs_nranks(const char *dir);
void mv__defs_release(struct mv__raw_defs *d);
/* Event stamp (ticks) -> ns on rank 0's clock. */
uint64_t mv__clock_map(const struct mv__clock *c, uint64_t t);
/* Sequential decoding of a raw file (f open, n = pos = 0 at first); 1 and *r filled, or 0 at
 * the end; a record cut by a failed write ends the data. */
struct mv__raw_reader {
  FILE *f;
  size_t n, pos;
  uint64_t w[4096];
};
struct mv__raw_rec;
int mv__raw_next(struct mv__raw_reader *rd, struct mv__raw_rec *r);
/* Writes rank's events into the archive (location = rank); first/last corrected times. */
int mv__convert_rank(OTF2_Archive *ar, const char *dir, int rank, const struct mv__clock *clk,
                     const struct mv__idmap *map, uint64_t *nevents, uint64_t *first,
                     uint64_t *last);
/* Global definitions, properties, callsites.txt and the TRUNCATED marker (from rank 0). */
int mv__write_globals(OTF2_Archive *ar, const char *dir, struct mv__raw_defs *d,
                      const struct mv__idmap *map, uint64_t t0, uint64_t t1);
/* An empty local definitions file for rank (readers expect one per location). */
int mv__write_local_defs(OTF2_Archive *ar, int rank);
int mv__archive_prepare(OTF2_Archive *ar);
/* Removes <dir>/mpivet-raw/rank-<r>.{raw,defs}. */
void mv__raw_remove(const char *dir, int rank);
/* Removes the OTF2 archive files of dir (traces.otf2, traces.def, traces/<r>.evt|.def, traces/):
 * the finisher's start, so that no part of an older archive survives (finish.c). */
void mv__archive_remove(const char *dir);
/* mpivet-trace-finish's work (finish.c): dir/traces.otf2 from the raw files in dir/mpivet-raw,
 * which are removed once it is written. Returns 0 (msg: "DIR/traces.otf2: N ranks, E events[;
 * truncated: rank R: why, ...]"), 1 the archive cannot be written or 2 no raw files (msg: why). */
int mv__finish_dir(const char *dir, char *msg, size_t msgsize);

#endif
