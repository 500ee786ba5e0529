/* How the tracer tells the user (rawlog.c): one line on stderr, and a failure that stops the
 * recording. */
#ifndef MPIVET_TRACE_SAY_H
#define MPIVET_TRACE_SAY_H

/* "mpivet-trace: rank R: ..." on stderr: the tracer's only way to tell the user. */
void mv__say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* what failed with errno value err: said once, recording stops (the trace is marked
 * truncated). */
void mv__fail(const char *what, int err);

#endif
