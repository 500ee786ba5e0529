/* Progress for long runs on stderr: a bar when stderr is a terminal, plain lines otherwise,
 * and nothing at all for work that finishes within two seconds. */
#ifndef MPIVET_PROGRESS_H
#define MPIVET_PROGRESS_H

struct mv_progress {
  const char *label;
  long total;
  long done;
  double start;        /* monotonic seconds */
  double last_print;
  int tty;
  int printed;
};

void mv_progress_start(struct mv_progress *p, const char *label, long total);
/* Report that `done` of `total` items are finished; note is a short description (may be NULL). */
void mv_progress_update(struct mv_progress *p, long done, const char *note);
void mv_progress_finish(struct mv_progress *p);
/* Monotonic clock in seconds. */
double mv_now(void);

#endif
