/* A small OTF2 writer for archives with exact timestamps (nanosecond ticks), in the event model
 * the analyzer reads (Score-P's): used by the unit tests, the fuzz seeds and the benchmark.
 * World communicator 0 over all ranks, windows 0..nwins-1 on it, regions interned by name. */
#ifndef MV_ANALYZE_SYNTH_H
#define MV_ANALYZE_SYNTH_H

#include <stdint.h>

struct mv__synth;

/* Creates dir/traces.otf2 (dir must not exist yet). NULL on failure. */
struct mv__synth *mv__synth_open(const char *dir, int nranks, int nwins);
/* Writes the definitions and closes; 0 or a negative MV_E*. */
int mv__synth_close(struct mv__synth *s);

void mv__synth_enter(struct mv__synth *s, int rank, uint64_t t, const char *region);
void mv__synth_leave(struct mv__synth *s, int rank, uint64_t t, const char *region);
/* The next Enter carries this call site (attribute "mpivet::callsite", as mpivet's tracer). */
void mv__synth_site(struct mv__synth *s, uint64_t site);
/* A group of world ranks for general active target synchronization. */
uint32_t mv__synth_group(struct mv__synth *s, int n, const int *ranks);

/* MPI calls [t0, t1] with their payload event (peers are world ranks). */
void mv__synth_send(struct mv__synth *s, int rank, uint64_t t0, uint64_t t1, int dst, int tag);
void mv__synth_isend(struct mv__synth *s, int rank, uint64_t t0, uint64_t t1, int dst, int tag);
void mv__synth_recv(struct mv__synth *s, int rank, uint64_t t0, uint64_t t1, int src, int tag);
/* MPI_Sendrecv: sends to `peer` at t0 and receives from it at t1, both with `tag`. */
void mv__synth_sendrecv(struct mv__synth *s, int rank, uint64_t t0, uint64_t t1, int peer, int tag);
/* MPI_Waitall completing receives from srcs[i] with tags[i]. */
void mv__synth_waitall(struct mv__synth *s, int rank, uint64_t t0, uint64_t t1, int n, const int *srcs,
                       const int *tags);
void mv__synth_coll(struct mv__synth *s, int rank, uint64_t t0, uint64_t t1, const char *region, int op,
                    int root);
void mv__synth_rcoll(struct mv__synth *s, int rank, uint64_t t0, uint64_t t1, const char *region, int op,
                     int win);
/* MPI_Put / MPI_Get / MPI_Accumulate to `target` (by region name prefix). */
void mv__synth_rma(struct mv__synth *s, int rank, uint64_t t0, uint64_t t1, const char *region, int win,
                   int target);
void mv__synth_gsync(struct mv__synth *s, int rank, uint64_t t0, uint64_t t1, const char *region, int win,
                     uint32_t group);
void mv__synth_lock(struct mv__synth *s, int rank, uint64_t t0, uint64_t t1, int win, int target, int excl);
void mv__synth_unlock(struct mv__synth *s, int rank, uint64_t t0, uint64_t t1, int win, int target);

#endif
