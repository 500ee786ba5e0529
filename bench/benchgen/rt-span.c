/* Real-time priority for the timed span of an MPI run only, and what the scheduler did to it.
 * Preloaded after a PMPI tool (bench/benchgen/pmpi-count.c or libmpivet-trace, whose MPI_Init and
 * MPI_Finalize call PMPI_Init and PMPI_Finalize), it wraps those: once PMPI_Init has returned,
 * the rank's main thread runs under SCHED_FIFO at RTSPAN_PRIO (unset or 0: not changed), and on
 * entering PMPI_Finalize it goes back to SCHED_OTHER. Why: the kernel lets real-time tasks use
 * 0.95 s of each second on a core (/proc/sys/kernel/sched_rt_runtime_us) and then stops them for
 * the other 50 ms. Under `chrt -f 20 mpirun ...` a rank is real-time from exec to exit (library
 * loading, MPI_Init's busy-polling start-up, the span, MPI_Finalize), so a run whose span is
 * 0.5 s can still reach the budget and be stopped inside its span; here only the span counts.
 * With RTSPAN_DIR set, each rank writes RTSPAN_DIR/rt-N.txt: "# rt_prio P" and "# run_delay_s S",
 * the time in the span that the thread was runnable but not running (/proc/thread-self/schedstat:
 * preemption, or throttling, which shows as about 0.050 s), and "# init_cpu_s S", the CPU time the
 * process used before its span (loading, MPI start-up: real-time too under `chrt mpirun`).
 * Build: mpicc -O2 -fPIC -shared -o rt-span.so rt-span.c -ldl */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <mpi.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static int prio;
static double wait0 = -1, init_cpu = -1;

/* Nanoseconds this thread has waited on a run queue, from the kernel's schedstat (its second
 * field); -1 when the kernel does not say. */
static double run_delay(void)
{
  unsigned long long run = 0, wait = 0;
  FILE *f = fopen("/proc/thread-self/schedstat", "r");
  int got = f ? fscanf(f, "%llu %llu", &run, &wait) : 0;
  if (f)
    fclose(f);
  return got == 2 ? (double)wait : -1;
}

static void *next(const char *name)
{
  void *fn = dlsym(RTLD_NEXT, name);
  if (!fn) {
    fprintf(stderr, "rt-span: no %s after this library\n", name);
    abort();
  }
  return fn;
}

/* After the MPI library's start-up: the span begins. A failed switch is said on stderr and the
 * run goes on at normal priority (its rt_prio line says 0). */
static int begin(int err)
{
  const char *p = getenv("RTSPAN_PRIO");
  prio = p ? atoi(p) : 0;
  if (prio > 0) {
    struct sched_param sp = {.sched_priority = prio};
    if (sched_setscheduler(0, SCHED_FIFO, &sp)) {
      perror("rt-span: sched_setscheduler");
      prio = 0;
    }
  }
  struct timespec cpu;
  if (clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &cpu) == 0)
    init_cpu = cpu.tv_sec + cpu.tv_nsec * 1e-9;
  wait0 = run_delay();
  return err;
}

int PMPI_Init(int *argc, char ***argv)
{
  int (*real)(int *, char ***) = (int (*)(int *, char ***))next("PMPI_Init");
  return begin(real(argc, argv));
}

int PMPI_Init_thread(int *argc, char ***argv, int required, int *provided)
{
  int (*real)(int *, char ***, int, int *) =
      (int (*)(int *, char ***, int, int *))next("PMPI_Init_thread");
  return begin(real(argc, argv, required, provided));
}

int PMPI_Finalize(void)
{
  double waited = run_delay();
  if (prio > 0) {
    struct sched_param sp = {.sched_priority = 0};
    sched_setscheduler(0, SCHED_OTHER, &sp);
  }
  const char *dir = getenv("RTSPAN_DIR");
  int rank = -1;
  PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
  char path[4096];
  FILE *f = NULL;
  if (dir && snprintf(path, sizeof path, "%s/rt-%d.txt", dir, rank) < (int)sizeof path)
    f = fopen(path, "w");
  if (f) {
    fprintf(f, "# rt_prio %d\n", prio);
    if (wait0 >= 0 && waited >= 0)
      fprintf(f, "# run_delay_s %.6f\n", (waited - wait0) * 1e-9);
    if (init_cpu >= 0)
      fprintf(f, "# init_cpu_s %.6f\n", init_cpu);
    fclose(f);
  } else if (dir) {
    perror("rt-span: cannot write its file");
  }
  int (*real)(void) = (int (*)(void))next("PMPI_Finalize");
  return real();
}
