/* The tracer's core: per-rank state, begin/end of every traced call (re-entrancy guard,
 * timestamps, call-site hashes), options from the environment, and MPI_Init/Finalize/Abort
 * plus fatal signals, which flush what was recorded so that a crash leaves a readable trace. */
#define _GNU_SOURCE 1
#include <dlfcn.h>
#include <errno.h>
#include <execinfo.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "hooks.h"
#include "state.h"

#ifdef MV_SMPI
#include <simgrid/actor.h>
/* SMPI runs every rank in one process: one state per simulated process. */
struct mv__state *mv__st(void)
{
  static struct mv__state **all;
  static size_t nall;
  size_t pid = (size_t)sg_actor_self_get_pid();
  if (pid >= nall) {
    size_t n = pid * 2 + 16;
    all = realloc(all, n * sizeof *all);
    memset(all + nall, 0, (n - nall) * sizeof *all);
    nall = n;
  }
  if (!all[pid])
    all[pid] = calloc(1, sizeof **all);
  return all[pid];
}

uint64_t mv__now(void)
{
  return (uint64_t)(PMPI_Wtime() * 1e9);
}
#else
static struct mv__state state;

struct mv__state *mv__st(void)
{
  return &state;
}

uint64_t mv__now(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}
#endif

static uint64_t fnv(uint64_t h, const void *data, size_t n)
{
  const unsigned char *p = data;
  for (size_t i = 0; i < n; i++)
    h = (h ^ p[i]) * 1099511628211u;
  return h;
}

/* Hash of the return addresses as module-relative offsets, so that every rank running the same
 * binary gives a call site the same hash despite address-space randomisation. */
static uint64_t site_describe(uintptr_t caller, char *line, size_t size)
{
  void *frames[18];
  int n = 1;
  frames[0] = (void *)caller;
  if (G.stack_depth > 1) {
    n = backtrace(frames, G.stack_depth + 2 < 18 ? G.stack_depth + 2 : 18) - 2;
    memmove(frames, frames + 2, (size_t)(n > 0 ? n : 0) * sizeof *frames);
  }
  uint64_t h = 14695981039346656037u;
  size_t used = 0;
  for (int i = 0; i < n; i++) {
    Dl_info info;
    const char *mod = "?", *sym = "?";
    uintptr_t off = (uintptr_t)frames[i];
    if (dladdr(frames[i], &info) && info.dli_fname) {
      mod = strrchr(info.dli_fname, '/') ? strrchr(info.dli_fname, '/') + 1 : info.dli_fname;
      off -= (uintptr_t)info.dli_fbase;
      sym = info.dli_sname ? info.dli_sname : "?";
    }
    h = fnv(fnv(h, mod, strlen(mod)), &off, sizeof off);
    int k = snprintf(line + used, size - used, " %s+0x%lx(%s)", mod, (unsigned long)off, sym);
    if (k > 0 && (size_t)k < size - used)
      used += (size_t)k;
  }
  return h;
}

static uint64_t site_hash(uintptr_t caller)
{
  if (G.capsites == 0) {
    G.capsites = 1024;
    G.sites = calloc(G.capsites, sizeof *G.sites);
  }
  size_t mask = G.capsites - 1, i = (caller >> 4) & mask;
  while (G.sites[i].raw && G.sites[i].raw != caller)
    i = (i + 1) & mask;
  if (G.sites[i].raw)
    return G.sites[i].hash;
  char line[1024];
  uint64_t h = site_describe(caller, line, sizeof line);
  if (G.stack_depth > 1)
    return h;  /* deeper stacks differ per caller chain: not cached by the leaf address */
  if (G.nsites * 2 < G.capsites) {
    G.sites[i].raw = caller;
    G.sites[i].hash = h;
    G.nsites++;
  }
  mv__def("site %016llx%s", (unsigned long long)h, line);
  return h;
}

int mv__call_begin(struct mv__call *c, int region, uintptr_t caller)
{
  struct mv__state *s = mv__st();
  if (s->depth || (!s->active && mv__regions[region].group != MV__G_ENV))
    return 0;
  s->depth++;
  c->region = region;
  c->nreq = 0;
  c->req = c->req_stack;
  c->caller = caller;
  c->on = s->active && (s->record >> mv__regions[region].group & 1u);
  c->t = mv__now();
  if (c->on)
    mv__emit_at(c->t, MV__K_ENTER, 0, (uint32_t)region, 0, 0, site_hash(caller), 0);
  return 1;
}

void mv__call_end(struct mv__call *c)
{
  struct mv__state *s = mv__st();
  if (c->on && s->active)
    mv__emit(MV__K_LEAVE, 0, (uint32_t)c->region, 0, 0, 0, 0);
  if (c->req != c->req_stack)
    free(c->req);
  s->depth--;
}

MPI_Status *mv__statuses(int n, MPI_Status *stack, MPI_Status **heap)
{
  if (n <= MV__STATUS_STACK)
    return stack;
  *heap = malloc((size_t)n * sizeof **heap);
  return *heap ? *heap : MPI_STATUSES_IGNORE;
}


/* Flush and mark the trace truncated; used on signals, MPI_Abort and exit without Finalize. */
static void emergency_close(const char *why)
{
  if (!G.active)
    return;
  G.active = 0;
  mv__raw_flush();
  mv__def("truncated %s", why);
  mv__raw_close();
}

#ifndef MV_SMPI
static const int fatal_signals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGTERM, SIGINT};
static struct sigaction old_actions[sizeof fatal_signals / sizeof fatal_signals[0]];

static void on_signal(int sig)
{
  char why[32];
  snprintf(why, sizeof why, "signal %d", sig);
  emergency_close(why);
  for (size_t i = 0; i < sizeof fatal_signals / sizeof fatal_signals[0]; i++)
    if (fatal_signals[i] == sig)
      sigaction(sig, &old_actions[i], NULL);
  raise(sig);
}

static void install_handlers(void)
{
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_signal;
  sa.sa_flags = SA_NODEFER;
  for (size_t i = 0; i < sizeof fatal_signals / sizeof fatal_signals[0]; i++)
    sigaction(fatal_signals[i], &sa, &old_actions[i]);
}
#endif

static void on_exit_without_finalize(void)
{
  emergency_close("exit without MPI_Finalize");
}

void mv__post_init(struct mv__call *c, int ret, int provided)
{
  if (ret != MPI_SUCCESS)
    return;
  PMPI_Comm_rank(MPI_COMM_WORLD, &G.rank);
  PMPI_Comm_size(MPI_COMM_WORLD, &G.size);
  if (provided == MPI_THREAD_MULTIPLE) {
    if (G.rank == 0)
      mv__say("MPI_THREAD_MULTIPLE is not supported (one event buffer per rank): this run is not "
          "traced; request MPI_THREAD_SERIALIZED or less to trace it");
    return;
  }
  if (mv__read_options() != 0 || mv__prepare_dir() != 0)
    return;
  if (mv__raw_open() != 0)
    G.failed = 1;  /* stay in the collective set-up below so that other ranks do not hang */
  PMPI_Comm_dup(MPI_COMM_WORLD, &G.tool_comm);
  mv__def("rank %d %d", G.rank, G.size);
  mv__def("meta %s %s %s", MV_VERSION, MV_GIT_REVISION, MV_MPI_FLAVOR);
  mv__comm_add(MPI_COMM_WORLD, 0);
  if (G.rank == 0)
    mv__define_comm(MPI_COMM_WORLD, 0, "MPI_COMM_WORLD");
  G.next_comm = 1;
  uint32_t self = mv__new_id(MPI_COMM_SELF, &G.next_comm);
  mv__comm_add(MPI_COMM_SELF, self);
  mv__define_comm(MPI_COMM_SELF, self, "MPI_COMM_SELF");
  G.off_init = mv__clock_offset(G.tool_comm, &G.t_init);
  mv__def("clock_init %llu %lld", (unsigned long long)G.t_init, (long long)G.off_init);
  G.active = 1;
  c->on = 1;
  mv__emit_at(c->t, MV__K_ENTER, 0, (uint32_t)c->region, 0, 0, site_hash(c->caller), 0);
#ifndef MV_SMPI
  install_handlers();
#endif
  atexit(on_exit_without_finalize);
}

void mv__pre_finalize(struct mv__call *c)
{
  if (!G.active)
    return;
  mv__emit(MV__K_LEAVE, 0, (uint32_t)c->region, 0, 0, 0, 0);
  G.off_fin = mv__clock_offset(G.tool_comm, &G.t_fin);
  mv__def("clock_final %llu %lld", (unsigned long long)G.t_fin, (long long)G.off_fin);
  G.active = 0;
  mv__raw_close();
  mv__write_archive();
  mv__tables_release();
  PMPI_Comm_free(&G.tool_comm);
}

void mv__pre_abort(struct mv__call *c)
{
  (void)c;
  emergency_close("MPI_Abort");
}
