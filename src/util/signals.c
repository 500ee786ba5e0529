/* Catching the stop signals (SIGINT, SIGTERM, SIGHUP) for the length of a run. A signal found
 * ignored stays ignored: under `nohup` a closed terminal must not stop the run, and a shell
 * starts background jobs with SIGINT ignored. */
#include <string.h>

#include "mpivet/signals.h"

const int mv_stop_signals[MV_NSTOP_SIGNALS] = {SIGINT, SIGTERM, SIGHUP};

void mv_signals_catch(void (*handler)(int), struct sigaction old[MV_NSTOP_SIGNALS])
{
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = handler;
  sigemptyset(&sa.sa_mask);
  for (int i = 0; i < MV_NSTOP_SIGNALS; i++) {
    sigaction(mv_stop_signals[i], NULL, &old[i]);
    if (old[i].sa_handler != SIG_IGN)
      sigaction(mv_stop_signals[i], &sa, NULL);
  }
}

void mv_signals_restore(const struct sigaction old[MV_NSTOP_SIGNALS])
{
  for (int i = 0; i < MV_NSTOP_SIGNALS; i++)
    sigaction(mv_stop_signals[i], &old[i], NULL);
}
