/* Launcher core: command lines, the engine registry (mpirun, srun, smpi), validation, and
 * running a command with its output in a log file and a timeout that kills the whole process
 * group (mpirun and its ranks, or smpirun and the simulator). */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "launch-engine.h"
#include "mpivet/dirlock.h"
#include "mpivet/error.h"
#include "mpivet/grow.h"
#include "mpivet/paths.h"
#include "mpivet/progress.h"
#include "mpivet/signals.h"

void mv_cmdline_init(struct mv_cmdline *c) { memset(c, 0, sizeof *c); }

int mv_cmdline_add(struct mv_cmdline *c, const char *s)
{
  if (mv_grow(&c->argv, &c->cap, (size_t)c->argc + 2, sizeof *c->argv, 16))
    return MV_ENOMEM;
  if (!(c->argv[c->argc] = strdup(s)))
    return MV_ENOMEM;
  c->argv[++c->argc] = NULL;
  return 0;
}

int mv_cmdline_addf(struct mv_cmdline *c, const char *fmt, ...)
{
  char buf[4096];
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  return n < 0 || (size_t)n >= sizeof buf ? MV_ERANGE : mv_cmdline_add(c, buf);
}

int mv__cmdline_add_all(struct mv_cmdline *c, const char *const *list)
{
  for (; list && *list; list++) {
    int rc = mv_cmdline_add(c, *list);
    if (rc)
      return rc;
  }
  return 0;
}

/* Quote an argument for a POSIX shell only when it needs it. */
int mv_cmdline_format(const struct mv_cmdline *c, char *buf, size_t size)
{
  size_t n = 0;
  if (size == 0)
    return MV_ERANGE;
  buf[0] = '\0';
  for (int i = 0; i < c->argc; i++) {
    const char *a = c->argv[i];
    int plain = *a && strspn(a, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
                                "-_./=:,+@%") == strlen(a);
    n += (size_t)snprintf(buf + n, n < size ? size - n : 0, "%s%s", i ? " " : "", plain ? "" : "'");
    for (const char *p = a; *p; p++)
      n += (size_t)snprintf(buf + n, n < size ? size - n : 0, *p == '\'' ? "'\\''" : "%c", *p);
    n += (size_t)snprintf(buf + n, n < size ? size - n : 0, "%s", plain ? "" : "'");
  }
  return n < size ? 0 : MV_ERANGE;
}

void mv_cmdline_release(struct mv_cmdline *c)
{
  for (int i = 0; i < c->argc; i++)
    free(c->argv[i]);
  free(c->argv);
  mv_cmdline_init(c);
}

static const struct mv__launch_engine *const engines[] = {&mv__engine_mpirun, &mv__engine_srun,
                                                   &mv__engine_smpi};
#define NENGINES ((int)(sizeof engines / sizeof engines[0]))

const char *const *mv_launch_engines(void)
{
  static const char *names[NENGINES + 1];
  for (int i = 0; i < NENGINES; i++)
    names[i] = engines[i]->name;
  return names;
}

static const struct mv__launch_engine *engine_named(const char *name)
{
  for (int i = 0; name && i < NENGINES; i++)
    if (strcmp(engines[i]->name, name) == 0)
      return engines[i];
  return NULL;
}

static const struct mv__launch_engine *engine_of(const struct mv_launch_spec *spec)
{
  return engine_named(spec->engine);
}

const char *mv__launch_real_flavor(const struct mv_launch_spec *spec)
{
  return spec->mpi && strcmp(spec->mpi, "mpich") == 0 ? "mpich" : "openmpi";
}

int mv_launch_validate(const struct mv_launch_spec *spec)
{
  const struct mv__launch_engine *e = engine_of(spec);
  if (!e || spec->np < 1 || spec->ppn < 0 || spec->np > e->max_np(spec))
    return MV_EINVAL;
  if (mv_launch_srun_check(spec, NULL))
    return MV_EINVAL;
  if (spec->mpi && strcmp(spec->mpi, "openmpi") != 0 && strcmp(spec->mpi, "mpich") != 0)
    return MV_EINVAL;
  return 0;
}

const char *mv_launch_flavor(const struct mv_launch_spec *spec)
{
  const struct mv__launch_engine *e = engine_of(spec);
  return e ? e->flavor(spec) : NULL;
}

int mv_launch_max_np(const struct mv_launch_spec *spec)
{
  const struct mv__launch_engine *e = engine_of(spec);
  return e ? e->max_np(spec) : 0;
}

int mv_launch_available(const struct mv_launch_spec *spec)
{
  const struct mv__launch_engine *e = engine_of(spec);
  char found[4200];
  return e && mv_path_find(e->launcher(spec), found, sizeof found) == 0 ? 0 : MV_ENOENT;
}

int mv_launch_command(const struct mv_launch_spec *spec, struct mv_cmdline *out)
{
  const struct mv__launch_engine *e = engine_of(spec);
  char program[4096];
  int rc = mv_launch_validate(spec);
  if (rc)
    return rc;
  if (spec->program)
    snprintf(program, sizeof program, "%s", spec->program);
  else if ((rc = mv_path_mpi(e->flavor(spec), "mpivet-bench", program, sizeof program)))
    return rc;
  mv_cmdline_init(out);
  if (!(rc = e->build(spec, out)) && !(rc = mv__cmdline_add_all(out, spec->launcher_args)) &&
      !(rc = mv_cmdline_add(out, program)))
    rc = mv__cmdline_add_all(out, spec->args);
  if (rc)
    mv_cmdline_release(out);
  return rc;
}

/* A stop signal (mpivet/signals.h) that reaches mpivet while a child runs (Ctrl-C, an outer
 * `timeout`) is passed on to the child's process group, which is not mpivet's own, and mpivet
 * then dies of the same signal once the child is reaped: nothing keeps running behind it. */
static volatile sig_atomic_t caught;

static void on_signal(int sig) { caught = sig; }

static void exec_command(const struct mv_cmdline *cmd)
{
  execvp(cmd->argv[0], cmd->argv);
  _exit(127);
}

/* Ends the way the command ended: its exit code, or the same signal. */
static void end_like(int status)
{
  if (WIFEXITED(status))
    _exit(WEXITSTATUS(status));
  int sig = WTERMSIG(status);
  sigset_t one;
  sigemptyset(&one);
  sigaddset(&one, sig);
  signal(sig, SIG_DFL);
  pthread_sigmask(SIG_UNBLOCK, &one, NULL);
  raise(sig);
  _exit(128 + sig);
}

/* The forked child of mpivet: the leader of the launch's own process group (so that a timeout
 * or a Ctrl-C reaches mpirun and every rank), and its guard. It runs the command as its own
 * child and ends as the command ended. When mpivet dies without a word (SIGKILL, a crash), the
 * kernel tells the guard (PR_SET_PDEATHSIG), and the guard ends the whole group: SIGTERM, so
 * that mpirun can stop its ranks, then SIGKILL 3 s later. Signals sent to the group (the
 * timeout of wait_child) reach the command directly; the guard keeps waiting for it. Only
 * async-signal-safe calls: mpivet may have threads. */
static void guard(const struct mv_cmdline *cmd, const char *log_path, pid_t mpivet,
                  const sigset_t *launch_mask)
{
  setpgid(0, 0);
  mv_dir_locks_close_in_child();
  if (log_path) {
    int fd = open(log_path, O_WRONLY | O_CREAT | O_APPEND, 0644);
    if (fd < 0)
      _exit(126);
    dup2(fd, 1);
    dup2(fd, 2);
    close(fd);
  }
  sigset_t watched;
  sigemptyset(&watched);
  sigaddset(&watched, SIGCHLD);
  for (int i = 0; i < MV_NSTOP_SIGNALS; i++)
    sigaddset(&watched, mv_stop_signals[i]);
  pthread_sigmask(SIG_BLOCK, &watched, NULL);
  prctl(PR_SET_PDEATHSIG, SIGHUP);
  pid_t pid = fork();
  if (pid < 0)
    _exit(126);
  if (pid == 0) {
    pthread_sigmask(SIG_SETMASK, launch_mask, NULL);
    exec_command(cmd);
  }
  int status, orphaned = 0;
  struct timespec grace = {3, 0};
  for (;;) {
    if (waitpid(pid, &status, WNOHANG) == pid) {
      if (orphaned)   /* nobody reads the status: end what the command left */
        kill(-getpgrp(), SIGKILL);
      end_like(status);
    }
    if (!orphaned && getppid() != mpivet) {   /* also when mpivet died before the prctl */
      orphaned = 1;
      kill(-getpgrp(), SIGTERM);   /* the guard has SIGTERM blocked */
    }
    if (orphaned) {
      if (sigtimedwait(&watched, NULL, &grace) < 0 && errno == EAGAIN) {
        kill(-getpgrp(), SIGKILL);
        _exit(128 + SIGKILL);
      }
    } else {
      sigwaitinfo(&watched, NULL);
    }
  }
}

static void catch_signals(struct sigaction *old)
{
  caught = 0;
  mv_signals_catch(on_signal, old);
}

static void restore_signals(const struct sigaction *old)
{
  mv_signals_restore(old);
  if (caught)
    raise(caught);  /* the previous disposition (normally: die of it) */
}

/* Wait for pid; after timeout_s (0: never) or a caught signal, TERM then KILL its group. */
static int wait_child(pid_t pid, double timeout_s, int *timed_out, int *status)
{
  double start = mv_now(), killed_at = 0;
  struct timespec tick = {0, 5000000};
  for (;;) {
    pid_t r = waitpid(pid, status, WNOHANG);
    if (r == pid)
      return 0;
    if (r < 0 && errno != EINTR)
      return MV_EIO;
    double now = mv_now();
    if (killed_at == 0 && (caught || (timeout_s > 0 && now - start > timeout_s))) {
      *timed_out = !caught;
      killed_at = now;
      kill(-pid, SIGTERM);
    } else if (killed_at > 0 && now - killed_at > 3.0) {
      kill(-pid, SIGKILL);
    }
    nanosleep(&tick, NULL);
  }
}

int mv_launch_exec(const struct mv_cmdline *cmd, const char *log_path, double timeout_s,
                   int *timed_out)
{
  int to = 0, status = 0;
  if (!cmd->argc)
    return MV_EINVAL;
  struct sigaction old[MV_NSTOP_SIGNALS];
  sigset_t mask;
  pthread_sigmask(SIG_SETMASK, NULL, &mask);
  pid_t mpivet = getpid();
  fflush(NULL);
  catch_signals(old);
  pid_t pid = fork();
  if (pid < 0) {
    restore_signals(old);
    return MV_EIO;
  }
  if (pid == 0) {
    restore_signals(old);
    guard(cmd, log_path, mpivet, &mask);
  }
  setpgid(pid, pid);  /* also here: no race with the kill below */
  int rc = wait_child(pid, timeout_s, &to, &status);
  restore_signals(old);
  if (timed_out)
    *timed_out = to;
  if (rc)
    return rc;
  return to || !WIFEXITED(status) || WEXITSTATUS(status) != 0 ? MV_EEXTERN : 0;
}
