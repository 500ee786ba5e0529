/* The signals that ask a run to stop (Ctrl-C, an outer `timeout` or `kill`, a closed terminal), and
 * catching them without undoing an ignore the user set up (nohup, a shell's background job). */
#ifndef MPIVET_SIGNALS_H
#define MPIVET_SIGNALS_H

#include <signal.h>

#define MV_NSTOP_SIGNALS 3
extern const int mv_stop_signals[MV_NSTOP_SIGNALS];   /* SIGINT, SIGTERM, SIGHUP */

/* Set handler for each stop signal that is not ignored; old receives every previous action. */
void mv_signals_catch(void (*handler)(int), struct sigaction old[MV_NSTOP_SIGNALS]);
/* Put back the actions mv_signals_catch found. */
void mv_signals_restore(const struct sigaction old[MV_NSTOP_SIGNALS]);

#endif
