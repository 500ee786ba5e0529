/* Running the launches of `mpivet check`: a ticker thread reports the running launch every
 * second through mv_progress ("launch 3/7: np 256 running 40 s"), and after SIGINT, SIGTERM or
 * SIGHUP it stops the running launch (its launcher has a process group of its own, which the
 * terminal's Ctrl-C does not reach) so that no simulation outlives the campaign and writes into
 * a launch folder that a resumed campaign reuses. */
#include <dirent.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "check-run.h"
#include "mpivet/error.h"
#include "mpivet/progress.h"
#include "mpivet/signals.h"

static volatile sig_atomic_t caught;

static void on_signal(int signo)
{
  caught = signo;
}

struct ticker {
  pthread_mutex_t lock;
  pthread_cond_t wake;
  struct mv_progress pr;
  const struct mv_plan *plan;
  const char *engine;
  long done, launched;         /* committed launches; ordinal of the running one */
  int nprocs;                  /* of the running launch; 0 between launches */
  double started;
  int stop, kills;
};

static void ticker_note(struct ticker *t)   /* with t->lock held */
{
  char note[128];
  if (t->nprocs)
    snprintf(note, sizeof note, "launch %ld/%zu: np %d running %.0f s (estimated %.0f s)",
             t->launched, t->plan->n_items, t->nprocs, mv_now() - t->started,
             mv_plan_launch_cost(t->plan, t->engine, t->nprocs));
  mv_progress_update(&t->pr, t->done, t->nprocs ? note : NULL);
}

/* Signal the process group of every child of this process (the running launcher). */
static void signal_launches(int signo)
{
  DIR *d = opendir("/proc");
  struct dirent *e;
  while (d && (e = readdir(d)) != NULL) {
    char path[64], stat[512];
    int pid = atoi(e->d_name), ppid;
    if (pid <= 0 || snprintf(path, sizeof path, "/proc/%d/stat", pid) >= (int)sizeof path)
      continue;
    FILE *fp = fopen(path, "r");
    size_t n = fp ? fread(stat, 1, sizeof stat - 1, fp) : 0;
    if (fp)
      fclose(fp);
    stat[n] = '\0';
    const char *after = strrchr(stat, ')');   /* "pid (comm) state ppid ..." */
    if (after && sscanf(after + 1, " %*c %d", &ppid) == 1 && ppid == (int)getpid())
      kill(-pid, signo);
  }
  if (d)
    closedir(d);
}

static void *ticker_main(void *arg)
{
  struct ticker *t = arg;
  pthread_mutex_lock(&t->lock);
  while (!t->stop) {
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_sec += 1;
    pthread_cond_timedwait(&t->wake, &t->lock, &until);
    if (caught && !t->stop)   /* TERM first; KILL when it is still there 3 s later */
      signal_launches(t->kills++ < 3 ? SIGTERM : SIGKILL);
    else if (!t->stop)
      ticker_note(t);
  }
  pthread_mutex_unlock(&t->lock);
  return NULL;
}

static void ticker_set(struct ticker *t, int nprocs, long done)
{
  pthread_mutex_lock(&t->lock);
  t->launched += nprocs > 0;
  t->nprocs = nprocs;
  t->started = mv_now();
  t->done = done;
  ticker_note(t);
  pthread_mutex_unlock(&t->lock);
}

static int ticked_launch(void *ctx, const struct mv_campaign *c, const struct mv_launch_item *item,
                         struct mv_rowbuf *out, struct mv_error *err)
{
  struct ticker *t = ctx;
  if (caught) {
    return mv_error_set(err, MV_EEXTERN, NULL, 0, 0, "not started: interrupted");
  }
  ticker_set(t, item->nprocs, t->done);
  return mv_campaign_bench_launch(NULL, c, item, out, err);
}

static void on_launch(void *ctx, const struct mv_campaign *c, const struct mv_launch_item *item)
{
  (void)item;
  ticker_set(ctx, 0, (long)c->n_done);
}

int mv__check_run(struct mv_campaign *c, const char *cost_engine, int *signo)
{
  struct sigaction old[MV_NSTOP_SIGNALS];
  caught = 0;
  mv_signals_catch(on_signal, old);
  struct ticker t = {.lock = PTHREAD_MUTEX_INITIALIZER, .wake = PTHREAD_COND_INITIALIZER,
                     .plan = &c->plan, .engine = cost_engine, .done = (long)c->n_done,
                     .launched = (long)c->n_done};
  mv_progress_start(&t.pr, "check", (long)c->plan.n_items);
  pthread_t th;
  int ticking = pthread_create(&th, NULL, ticker_main, &t) == 0;
  int rc = mv_campaign_run(c, ticked_launch, &t, on_launch, &t);
  pthread_mutex_lock(&t.lock);
  t.stop = 1;
  pthread_cond_signal(&t.wake);
  pthread_mutex_unlock(&t.lock);
  if (ticking)
    pthread_join(th, NULL);
  mv_progress_finish(&t.pr);
  mv_signals_restore(old);
  *signo = caught;   /* a launch that ended with the signal is kept; the next one refuses */
  return rc;
}
