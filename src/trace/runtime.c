/* The tracer's core: per-rank state, begin/end of every traced call (re-entrancy guard,
 * timestamps, call-site hashes), options from the environment, and MPI_Init/Finalize/Abort
 * plus fatal signals, which flush what was recorded so that a crash leaves a readable trace. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1  /* dladdr; smpicc defines it already */
#endif
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

#include "clock.h"
#include "emit.h"
#include "hooks.h"
#include "mpivet/world.h"
#include "options.h"
#include "output.h"
#include "say.h"
#include "state.h"
#include "tables.h"

#define MV__MAX_STACK 16  /* MPIVET_TRACE_CALLSTACK's limit (options.c) */
#define MV__OWN_FRAMES 6  /* the tracer's frames above the wrapper's caller, at most */

static uint64_t fnv(uint64_t h, const void *data, size_t n)
{
  const unsigned char *p = data;
  for (size_t i = 0; i < n; i++)
    h = (h ^ p[i]) * 1099511628211u;
  return h;
}

/* The module's name as the hash sees it. SMPI runs each rank in a private copy of the
 * application named <name>_<pid>_<rank>.so: the copy's suffix is dropped so that all ranks and
 * all runs agree. */
static const char *module_name(const char *path, char *out, size_t size)
{
  const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
  snprintf(out, size, "%s", base);
#ifdef MV_SMPI
  size_t n = strlen(out);
  if (n > 3 && strcmp(out + n - 3, ".so") == 0) {
    size_t i = n - 3, digits = 0;
    for (int part = 0; part < 2; part++, digits = 0) {
      while (i > 0 && out[i - 1] >= '0' && out[i - 1] <= '9')
        i--, digits++;
      if (!digits || i == 0 || out[i - 1] != '_')
        return out;
      i--;
    }
    out[i] = 0;
  }
#endif
  return out;
}

/* Hash of the return addresses as module-relative offsets, so that every rank running the same
 * binary gives a call site the same hash despite address-space randomisation. */
static uint64_t site_describe(void *const *frames, int n, char *line, size_t size)
{
  uint64_t h = 14695981039346656037u;
  size_t used = 0;
  for (int i = 0; i < n; i++) {
    Dl_info info;
    char modbuf[256];
    const char *mod = "?", *sym = "?";
    uintptr_t off = (uintptr_t)frames[i];
    if (dladdr(frames[i], &info) && info.dli_fname) {
      mod = module_name(info.dli_fname, modbuf, sizeof modbuf);
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

static struct mv__site *site_slot(struct mv__site *tab, size_t cap, uintptr_t key)
{
  size_t mask = cap - 1, i = (key >> 4 ^ key) & mask;
  while (tab[i].raw && tab[i].raw != key)
    i = (i + 1) & mask;
  return &tab[i];
}

/* Keeps the table at most half full; 0 when memory is short (the site is then not cached). */
static int site_reserve(void)
{
  if ((G.nsites + 1) * 2 <= G.capsites)
    return 1;
  size_t cap = G.capsites ? G.capsites * 2 : 1024;
  struct mv__site *tab = calloc(cap, sizeof *tab);
  if (!tab)
    return 0;
  for (size_t i = 0; i < G.capsites; i++)
    if (G.sites[i].raw)
      *site_slot(tab, cap, G.sites[i].raw) = G.sites[i];
  free(G.sites);
  G.sites = tab, G.capsites = cap;
  return 1;
}

/* The call site's hash, cached by the raw return address (or, for deeper stacks, by a hash of
 * the raw return addresses): dladdr and the definition line only on a site's first call. */
static uint64_t site_hash(uintptr_t caller)
{
  void *frames[MV__MAX_STACK + MV__OWN_FRAMES];
  int n = 1;
  uintptr_t key = caller;
  frames[0] = (void *)caller;
  if (G.stack_depth > 1) {
    /* the application's frames start at the wrapper's return address, however many of the
     * tracer's own frames the compiler left above it */
    int got = backtrace(frames, G.stack_depth + MV__OWN_FRAMES), i = 0;
    while (i < got && frames[i] != (void *)caller)
      i++;
    n = i < got ? (got - i < G.stack_depth ? got - i : G.stack_depth) : 1;
    if (i < got)
      memmove(frames, frames + i, (size_t)n * sizeof *frames);
    else
      frames[0] = (void *)caller;
    key = (uintptr_t)fnv(14695981039346656037u, frames, (size_t)n * sizeof *frames) | 1u;
  }
  struct mv__site *slot = G.capsites ? site_slot(G.sites, G.capsites, key) : NULL;
  if (slot && slot->raw)
    return slot->hash;
  char line[1024];
  uint64_t h = site_describe(frames, n, line, sizeof line);
  mv__def("site %016llx%s", (unsigned long long)h, line);
  if (site_reserve()) {
    slot = site_slot(G.sites, G.capsites, key);
    slot->raw = key, slot->hash = h;
    G.nsites++;
  }
  return h;
}

/* mv__call_begin's cold path: a wrapper called from a site its cache does not hold (or deeper
 * call stacks, which a return address alone cannot key). */
uint64_t mv__site_hash(uintptr_t caller, struct mv__site_cache *last)
{
  if (G.stack_depth > 1)
    return site_hash(caller);
  last->hash = site_hash(caller);
  last->caller = caller;
  return last->hash;
}

MPI_Status *mv__statuses(int n, MPI_Status *stack, MPI_Status **heap)
{
  if (n <= MV__STATUS_STACK)
    return stack;
  *heap = malloc((size_t)n * sizeof **heap);
  return *heap ? *heap : MPI_STATUSES_IGNORE;
}

/* The frame a hook run late sees: the fields hooks read (not req_stack: 128 bytes). */
static void late_frame(struct mv__call *c, int region, uint64_t t, uintptr_t caller, uint64_t site)
{
  c->region = region, c->on = 1, c->t = t, c->caller = caller, c->site = site;
  c->match = 0, c->win = MV__NONE, c->nreq = 0, c->req = c->req_stack;
}

/* The pending call (hooks.h, mv__call_pend): its post hook's events and Leave, with its stamps;
 * nothing for a fast receive still in PMPI (from a fatal signal: MV__IN_PMPI, mv__fast_arm). */
void mv__write_pending(void)
{
  struct mv__pending *p = &G.pending;
  mv__late_fn *fn = p->fn;
  uint64_t tnow = G.tnow;
  p->fn = NULL;
  if (p->tleave == MV__IN_PMPI)
    return;
  struct mv__call c;
  late_frame(&c, p->region, p->t, 0, 0);
  G.tnow = p->tleave;
  fn(&c, p->args);
  mv__emit_at(p->tleave, MV__K_LEAVE, 0, (uint32_t)p->region, 0, 0, 0, 0);
  G.tnow = tnow;
}

/* The pending call, then the call in flight (mv__call_fly): its Enter and pre hook's events,
 * stamped at its Enter; when PMPI has returned, or from a fatal signal while it blocks. */
void mv__write_late(void)
{
  struct mv__in_flight f = G.in_flight;
  uint64_t tnow = G.tnow;
  G.in_flight.fn = NULL;
  if (G.pending.fn)
    mv__write_pending();
  if (f.fn) {
    G.tnow = f.call->t;
    mv__emit_at(f.call->t, MV__K_ENTER, 0, (uint32_t)f.call->region, 0, 0, f.call->site, 0);
    f.fn(f.call, f.args);
  }
  G.tnow = tnow;
}

void mv__fast_land(int region, uint64_t t, uint64_t tleave, const struct mv__site_cache *last,
                   mv__late_fn *fn, void *args)
{
  struct mv__call c;
  late_frame(&c, region, t, last->caller, last->hash);
  G.in_flight = (struct mv__in_flight){fn, &c, args};  /* in flight only now: written at once */
  G.tnow = tleave;
  mv__write_late();
  mv__emit_at(tleave, MV__K_LEAVE, 0, (uint32_t)region, 0, 0, 0, 0);
  G.depth = 0;
}

void mv__fast_enter(int region, uint64_t t, const struct mv__site_cache *last)
{
  if (G.pending.fn)
    mv__write_pending();
  G.tnow = t;
  mv__emit_at(t, MV__K_ENTER, 0, (uint32_t)region, 0, 0, last->hash, 0);
  G.pending.region = region;
  G.pending.t = t;
}

/* Flush and mark the trace truncated; used on signals, MPI_Abort and exit without Finalize. */
static void emergency_close(const char *why)
{
  if (!G.active)
    return;
  mv__write_late();
  G.active = 0;
  G.fast = 0;
  mv__raw_flush();
  mv__def("truncated %s", why);
  mv__raw_close();
}

static const int fatal_signals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGTERM, SIGINT};
static struct sigaction old_actions[sizeof fatal_signals / sizeof fatal_signals[0]];

/* Every rank of the process (one, or all of them under SMPI) flushes what it has. */
static void on_signal(int sig)
{
  char why[32];
  snprintf(why, sizeof why, "signal %d", sig);
  mv__each_state(emergency_close, why);
  for (size_t i = 0; i < sizeof fatal_signals / sizeof fatal_signals[0]; i++)
    if (fatal_signals[i] == sig)
      sigaction(sig, &old_actions[i], NULL);
  raise(sig);
}

static void on_exit_without_finalize(void)
{
  mv__each_state(emergency_close, "exit without MPI_Finalize");
}

/* Once per process (under SMPI the first rank to initialise installs them for all). */
static void install_handlers(void)
{
  static int done;
  if (done)
    return;
  done = 1;
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_signal;
  sa.sa_flags = SA_NODEFER;
  for (size_t i = 0; i < sizeof fatal_signals / sizeof fatal_signals[0]; i++)
    sigaction(fatal_signals[i], &sa, &old_actions[i]);
  atexit(on_exit_without_finalize);
}

/* A world smaller or larger than the launcher started (srun without the PMI plugin of this
 * MPI starts independent singletons): tracing it would give N one-rank archives into one
 * folder, so the run stops here with exit code 3 and says why. Not under SMPI, whose ranks may
 * run inside a Slurm step of one task. */
static void check_world(void)
{
#ifndef MV_SMPI
  const char *var;
  int want = mv_world_launched(&var);
  if (!want || want == G.size)
    return;
  char msg[512];
  if (G.rank == 0)
    mv__say("%s; not traced", mv_world_mismatch(G.size, want, var, msg, sizeof msg));
  PMPI_Abort(MPI_COMM_WORLD, 3);
#endif
}

void mv__post_init(struct mv__call *c, int ret, int provided)
{
  if (ret != MPI_SUCCESS)
    return;
  PMPI_Comm_rank(MPI_COMM_WORLD, &G.rank);
  PMPI_Comm_size(MPI_COMM_WORLD, &G.size);
  check_world();
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
  mv__clock_sync("clock_init");
  G.active = 1;
  G.fast = mv__fast_clock_ok() ? G.record : 0;
  c->on = 1;
  mv__emit_at(c->t, MV__K_ENTER, 0, (uint32_t)c->region, 0, 0, site_hash(c->caller), 0);
  G.tnow = mv__now();  /* MPI_Init's Leave */
  install_handlers();
}

void mv__pre_finalize(struct mv__call *c)
{
  if (!G.active)
    return;
  mv__emit_at(mv__now(), MV__K_LEAVE, 0, (uint32_t)c->region, 0, 0, 0, 0);
  mv__clock_sync("clock_final");
  G.active = 0;
  G.fast = 0;
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
