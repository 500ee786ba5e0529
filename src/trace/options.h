/* The MPIVET_TRACE_* variables and the output folder (options.c). */
#ifndef MPIVET_TRACE_OPTIONS_H
#define MPIVET_TRACE_OPTIONS_H

/* options.c: MPIVET_TRACE_* variables; the output folder, emptied of an older archive */
int mv__read_options(void);
int mv__prepare_dir(void);

#endif
