/* libmpivet-cpuclock.so, preloaded by `mpivet simulate` into smpirun: SMPI times the code between
 * two MPI calls with clock_gettime(CLOCK_THREAD_CPUTIME_ID), read as an MPI call returns and as the
 * next one starts (SimGrid 3.32, smpi_bench.cpp and src/xbt/xbt_os_time.c). That clock has no vDSO
 * path: each read is a system call whose own CPU time falls into the interval, 2.1 us on this
 * project's KVM guest, so every MPI call of a program carried about 2 us of computation it never
 * did (1000 back-to-back MPI_Iprobe: 1.78 us each simulated, 0.037 us real). This shim answers
 * that clock with its reading minus k x MV_CPU_CLOCK_READ_S seconds, k the thread's earlier reads:
 * the interval between two reads loses the cost of one read (what `mpivet calibrate` measured,
 * calibration.json's cpu_clock_read_s). Every other clock passes through. Where the clock this
 * shim reads is itself answered more cheaply (bench/hpl/cpuclock.c, preloaded after it, maps it to
 * the vDSO's CLOCK_MONOTONIC: 0.035 us), taking off the calibrated cost would remove code that ran,
 * so at its first read the shim measures the reads it sees (median of 101 back-to-back intervals)
 * and takes off the smaller of the two. At exit, "reads cost" is appended to the file
 * MV_CPU_CLOCK_COUNT names (when set), for simulate's report. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#undef clock_gettime   /* SMPI's headers may map it to the simulated clock: this is the real one */

typedef int (*clock_fn)(clockid_t, struct timespec *);

static clock_fn next_clock;
static double read_cost_ns;                  /* per read, from MV_CPU_CLOCK_READ_S; 0: none */
static int measured;                         /* read_cost_ns checked against the clock's own */
static unsigned long long all_reads;         /* every thread's, for the report */
static __thread unsigned long long reads;    /* this thread's: its clock is its own */

static clock_fn next(void)
{
  if (!next_clock)
    next_clock = (clock_fn)dlsym(RTLD_NEXT, "clock_gettime");
  return next_clock;
}

__attribute__((constructor)) static void cpuclock_init(void)
{
  const char *s = getenv("MV_CPU_CLOCK_READ_S");
  char *end = NULL;
  double v = s ? strtod(s, &end) : 0;
  if (s && end != s && *end == '\0' && v > 0 && v < 1e-3)
    read_cost_ns = v * 1e9;
  next();
}

#define PROBES 101

static long long ns(const struct timespec *ts)
{
  return (long long)ts->tv_sec * 1000000000LL + ts->tv_nsec;
}

/* The cost of one read as the clock behind this shim counts it: the median back-to-back step. */
static void measure(clock_fn f)
{
  struct timespec a, b;
  double d[PROBES];
  measured = 1;
  for (int i = 0; i < PROBES; i++) {
    f(CLOCK_THREAD_CPUTIME_ID, &a);
    f(CLOCK_THREAD_CPUTIME_ID, &b);
    d[i] = (double)(ns(&b) - ns(&a));
  }
  for (int i = 1; i < PROBES; i++)   /* insertion sort: 101 values */
    for (int k = i; k > 0 && d[k] < d[k - 1]; k--) {
      double t = d[k];
      d[k] = d[k - 1], d[k - 1] = t;
    }
  if (d[PROBES / 2] < read_cost_ns)
    read_cost_ns = d[PROBES / 2] > 0 ? d[PROBES / 2] : 0;
}

int clock_gettime(clockid_t id, struct timespec *ts)
{
  clock_fn f = next();
  if (!f)
    return -1;
  if (id == CLOCK_THREAD_CPUTIME_ID && read_cost_ns > 0 && !measured)
    measure(f);
  int rc = f(id, ts);
  if (rc != 0 || id != CLOCK_THREAD_CPUTIME_ID)
    return rc;
  __atomic_add_fetch(&all_reads, 1, __ATOMIC_RELAXED);
  long long off = (long long)(read_cost_ns * (double)reads++);
  long long t = ns(ts) - off;
  if (t < 0)
    t = 0;
  ts->tv_sec = (time_t)(t / 1000000000LL);
  ts->tv_nsec = (long)(t % 1000000000LL);
  return 0;
}

__attribute__((destructor)) static void cpuclock_report(void)
{
  const char *path = getenv("MV_CPU_CLOCK_COUNT");
  unsigned long long n = __atomic_load_n(&all_reads, __ATOMIC_RELAXED);
  FILE *fp = path && *path && n ? fopen(path, "a") : NULL;
  if (fp) {
    fprintf(fp, "%llu %.9g\n", n, read_cost_ns * 1e-9);
    fclose(fp);
  }
}
