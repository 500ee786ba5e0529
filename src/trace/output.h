/* The rank's output at finalize: the OTF2 archive (finalize.c) and the compressed trace
 * (ctrace-mpi.c), as G.formats asks (MV__OUT_*). */
#ifndef MPIVET_TRACE_OUTPUT_H
#define MPIVET_TRACE_OUTPUT_H

/* OTF2 and compressed output at finalize (finalize.c, ctrace-mpi.c; MV__OUT_* in G.formats) */
void mv__write_archive(void);
int mv__write_compressed(void);   /* 0 on every rank, or -1 on every rank */

#endif
