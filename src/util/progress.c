/* Progress reports on stderr for long runs: silent for the first two seconds, then a redrawn
 * bar on a terminal or a plain line at most every five seconds otherwise (logs, CI). */
#include "mpivet/progress.h"

#include <stdio.h>
#include <time.h>
#include <unistd.h>

#define QUIET_SECONDS 2.0

double mv_now(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

void mv_progress_start(struct mv_progress *p, const char *label, long total)
{
  p->label = label;
  p->total = total;
  p->done = 0;
  p->start = mv_now();
  p->last_print = 0;
  p->tty = isatty(STDERR_FILENO);
  p->printed = 0;
}

static void print_bar(struct mv_progress *p, double elapsed, const char *note)
{
  const int width = 30;
  int fill = p->total > 0 ? (int)(width * p->done / p->total) : 0;
  fprintf(stderr, "\r%s [", p->label);
  for (int i = 0; i < width; i++)
    fputc(i < fill ? '#' : '.', stderr);
  fprintf(stderr, "] %ld/%ld %.0fs %-30.30s", p->done, p->total, elapsed, note ? note : "");
  fflush(stderr);
}

void mv_progress_update(struct mv_progress *p, long done, const char *note)
{
  double now = mv_now(), elapsed = now - p->start;
  p->done = done;
  if (elapsed < QUIET_SECONDS)
    return;
  if (p->tty) {
    if (now - p->last_print < 0.1 && done < p->total)
      return;
    print_bar(p, elapsed, note);
  } else {
    if (now - p->last_print < 5.0 && done < p->total)
      return;
    /* No estimate before the first item is done: it would read "about 0s left". */
    char eta[48] = "";
    if (done > 0)
      snprintf(eta, sizeof eta, ", about %.0fs left",
               elapsed * (double)(p->total - done) / (double)done);
    fprintf(stderr, "%s: %ld/%ld done, %.0fs elapsed%s%s%s\n", p->label, done, p->total, elapsed,
            eta, note ? ": " : "", note ? note : "");
  }
  p->last_print = now;
  p->printed = 1;
}

void mv_progress_finish(struct mv_progress *p)
{
  if (p->printed && p->tty)
    fputc('\n', stderr);
  if (p->printed && p->done >= p->total)
    fprintf(stderr, "%s: finished in %.1fs\n", p->label, mv_now() - p->start);
  else if (p->printed)   /* stopped by a failure or a signal: never "finished" */
    fprintf(stderr, "%s: stopped after %ld/%ld in %.1fs\n", p->label, p->done, p->total,
            mv_now() - p->start);
}
