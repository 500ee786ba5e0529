/* The names libmpivet-trace writes into its output folder (docs/trace.md): one list for the
 * tracer, which replaces them when it starts, and for `mpivet trace`, which refuses a folder
 * holding any of them (an earlier archive would be taken for the new run's). */
#ifndef MPIVET_TRACE_FILES_H
#define MPIVET_TRACE_FILES_H

/* Files, then the folders (the OTF2 event files and the raw per-rank files). */
#define MV_TRACE_OUTPUT_FILES "traces.otf2", "traces.def", "TRUNCATED", "callsites.txt", \
                              "compressed.mvt"
#define MV_TRACE_OUTPUT_DIRS "traces", "mpivet-raw"

#endif
