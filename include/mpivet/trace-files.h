/* The names libmpivet-trace writes into its output folder (docs/trace.md): one list for the
 * tracer, which replaces them when it starts, and for `mpivet trace`, which refuses a folder
 * holding any of them (an earlier archive would be taken for the new run's). Also the tracer's
 * defaults that `mpivet trace --help` states. */
#ifndef MPIVET_TRACE_FILES_H
#define MPIVET_TRACE_FILES_H

/* Files, then the folders (the OTF2 event files and the raw per-rank files). */
#define MV_TRACE_OUTPUT_FILES "traces.otf2", "traces.def", "TRUNCATED", "callsites.txt", \
                              "compressed.mvt"
#define MV_TRACE_OUTPUT_DIRS "traces", "mpivet-raw"

/* The event buffer per rank when MPIVET_TRACE_BUFFER (mpivet trace --buffer) is not given:
 * docs/trace.md, a 1 MiB buffer is reused while hot; 8 MiB added 67 % to a ping-pong. */
#define MV_TRACE_BUFFER_DEFAULT "1M"

#endif
