/* `mpivet simulate` in the library: smpicc for a C source (with include/mpivet/ on the include
 * path and, from a calibration, its kernels.h so that emulate.h finds the kernel models, and its
 * window costs for mpivet/win-cost.h), the platform and hostfile (calibrated or not), then
 * smpirun with the folder's SMPI settings. SimGrid's timing lines go to their own log file
 * (smpi_utils category), so the program's output passes through untouched; the predicted time is
 * read from that file. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>

#include "mpivet/calib.h"
#include "mpivet/error.h"
#include "mpivet/launch.h"
#include "mpivet/paths.h"
#include "mpivet/platform.h"
#include "mpivet/simulate.h"

#define FAIL(rc, ...) mv_error_set(e, (rc), NULL, 0, 0, __VA_ARGS__)

static double now(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int is_source(const char *path)
{
  size_t n = strlen(path);
  return n > 2 && strcmp(path + n - 2, ".c") == 0;
}

/* 1 when the source starts with benchgen's banner. */
static int generated_benchmark(const char *path)
{
  char head[sizeof MV_BENCHGEN_BANNER] = "";
  FILE *fp = fopen(path, "r");
  size_t n = fp ? fread(head, 1, sizeof head - 1, fp) : 0;
  if (fp)
    fclose(fp);
  head[n] = '\0';
  return strcmp(head, MV_BENCHGEN_BANNER) == 0;
}

static int include_dir(char *buf, size_t size)
{
  char self[4096];
  struct stat st;
  if (mv_path_self_dir(self, sizeof self) == 0) {
    snprintf(buf, size, "%s/../include/mpivet/emulate.h", self);
    if (stat(buf, &st) == 0)
      return snprintf(buf, size, "%s/../include", self), 0;
  }
  snprintf(buf, size, "%s/../../include", MV_SOURCE_SHARE_DIR);
  return 0;
}

/* The calibration's window costs as mpivet/win-cost.h's macros, in WORKDIR/window-costs.h
 * (path); "" in path when the calibration has none. */
static int window_costs(const struct mv_simulate_spec *s, const struct mv_calib_folder *f,
                        char *path, size_t size)
{
  path[0] = '\0';
  if (!f || !mv_calib_windows_any(&f->win))
    return 0;
  snprintf(path, size, "%s/window-costs.h", s->workdir);
  FILE *fp = fopen(path, "w");
  if (!fp)
    return MV_EIO;
  fprintf(fp, "/* Window costs of the calibration %s (written by mpivet simulate from its\n"
              " * calibration.json, do not edit): {op, from bytes, s, s per byte}; mpivet/win-cost.h. */\n"
              "#define MV_WIN_COSTS \\\n", f->dir);
  for (int i = 0; i < MV_CALIB_NWIN; i++)
    for (size_t k = 0; k < f->win.fit[i].n; k++)
      fprintf(fp, "  {%d, %.17g, %.17g, %.17g}, \\\n", i, f->win.fit[i].p[k].from,
              f->win.fit[i].p[k].a, f->win.fit[i].p[k].b);
  fprintf(fp, "  /* end */\n#define MV_WIN_SMPI_S {%.17g, %.17g, %.17g, %.17g}\n"
              "#include \"mpivet/win-cost.h\"\n", f->win.smpi_s[0], f->win.smpi_s[1],
          f->win.smpi_s[2], f->win.smpi_s[3]);
  int bad = ferror(fp);
  return fclose(fp) != 0 || bad ? MV_EIO : 0;
}

static int build(const struct mv_simulate_spec *s, const struct mv_calib_folder *f,
                 struct mv_simulate_result *r)
{
  struct mv_cmdline c;
  char inc[4200], win[4200] = "";
  mv_cmdline_init(&c);
  include_dir(inc, sizeof inc);
  snprintf(r->binary, sizeof r->binary, "%s/program", s->workdir);
  snprintf(r->build_log, sizeof r->build_log, "%s/build.log", s->workdir);
  int rc = mv_cmdline_add(&c, "smpicc");
  rc = rc ? rc : mv_cmdline_add(&c, "-O2");
  rc = rc ? rc : mv_cmdline_addf(&c, "-I%s", inc);
  if (!rc && s->calibration) {
    rc = mv_cmdline_add(&c, "-include");
    rc = rc ? rc : mv_cmdline_addf(&c, "%s/kernels.h", s->calibration);
  }
  rc = rc ? rc : window_costs(s, f, win, sizeof win);
  r->window_costs = win[0] != '\0';
  if (!rc && r->window_costs) {
    rc = mv_cmdline_add(&c, "-include");
    rc = rc ? rc : mv_cmdline_add(&c, win);
  }
  rc = rc ? rc : mv_cmdline_add(&c, s->program);
  for (const char *const *f = s->cflags; !rc && f && *f; f++)
    rc = mv_cmdline_add(&c, *f);
  rc = rc ? rc : mv_cmdline_add(&c, "-o");
  rc = rc ? rc : mv_cmdline_add(&c, r->binary);
  rc = rc ? rc : mv_cmdline_add(&c, "-lm");
  double t0 = now();
  rc = rc ? rc : mv_launch_exec(&c, r->build_log, s->timeout_s, NULL);
  r->build_s = now() - t0;
  mv_cmdline_release(&c);
  return rc;
}

/* A SimGrid XML file as it is (its hosts read and checked by platform-xml.c first), with a
 * hostfile over its hosts; an uncalibrated run takes its first host's speed as this machine's. */
static int user_platform(const struct mv_simulate_spec *s, struct mv_simulate_result *r,
                         struct mv_error *e)
{
  struct mv_platform_hosts h;
  int rc = mv_platform_xml_hosts(s->platform, &h, e);
  if (rc)
    return rc;
  snprintf(r->platform, sizeof r->platform, "%s", s->platform);
  snprintf(r->host_speed, sizeof r->host_speed, "%s", h.speed[0] ? h.speed : "1Gf");
  errno = 0;
  FILE *hf = fopen(r->hostfile, "w");
  rc = hf ? mv_platform_hosts_write_hostfile(&h, NULL, s->np, s->ppn, hf) : MV_EIO;
  if (hf && fclose(hf) != 0)
    rc = rc ? rc : MV_EIO;
  long hosts = h.count;
  mv_platform_hosts_release(&h);
  if (rc == MV_ERANGE)
    return FAIL(rc, "--np %d does not fit the %ld hosts of %s with --ppn %d", s->np, hosts,
                s->platform, s->ppn);
  return rc ? FAIL(rc, "cannot write %s: %s", r->hostfile, errno ? strerror(errno)
                                                                  : mv_strerror(rc)) : 0;
}

static int write_platform(const struct mv_simulate_spec *s, const struct mv_calib_folder *f,
                          struct mv_simulate_result *r, struct mv_error *e)
{
  struct mv_platform p;
  struct mv_calibration c = {0};
  struct stat st;
  int ppn = s->ppn > 0 ? s->ppn : 1, rc;
  snprintf(r->hostfile, sizeof r->hostfile, "%s/hostfile", s->workdir);
  if (s->platform && stat(s->platform, &st) == 0 && S_ISREG(st.st_mode))
    return user_platform(s, r, e);
  if (f) {
    c.latency_s = f->latency_s, c.bandwidth_Bps = f->bandwidth_Bps, c.flops = f->flops;
    rc = mv_calib_platform(&c, s->platform, (s->np + ppn - 1) / ppn, &p, e);
  } else {
    char def[64];
    snprintf(def, sizeof def, "cluster:%d", (s->np + ppn - 1) / ppn);
    rc = mv_platform_parse(s->platform ? s->platform : def, &p, e);
  }
  if (rc)
    return rc;
  snprintf(r->host_speed, sizeof r->host_speed, "%s", p.speed);
  if (p.cores < ppn && !(s->platform && strstr(s->platform, "cores=")))
    p.cores = ppn;   /* an explicit cores=K below ppn: ranks share cores (oversubscribed) */
  snprintf(r->platform, sizeof r->platform, "%s/platform.xml", s->workdir);
  errno = 0;
  FILE *xf = fopen(r->platform, "w"), *hf = fopen(r->hostfile, "w");
  rc = !xf || !hf ? MV_EIO : mv_platform_write_xml(&p, xf);
  rc = rc ? rc : mv_platform_write_hostfile(&p, s->np, s->ppn, hf);
  if ((xf && fclose(xf) != 0) || (hf && fclose(hf) != 0))
    rc = rc ? rc : MV_EIO;
  if (rc == MV_ERANGE)
    return FAIL(rc, "--np %d does not fit %d hosts with --ppn %d", s->np, p.hosts, s->ppn);
  return rc ? FAIL(rc, "cannot write the platform into %s: %s", s->workdir,
                   errno ? strerror(errno) : mv_strerror(rc)) : 0;
}

/* SMPI's switch of its timing of the program's code: set for generated benchmarks, read back from
 * the user's --cfg. */
static const char simulate_computation[] = "smpi/simulate-computation:";

/* 1 when SMPI times the program's code: not a generated benchmark, and no --cfg turned
 * smpi/simulate-computation off (the last one given wins, as in SimGrid). */
static int code_timed(const struct mv_simulate_spec *s, const struct mv_simulate_result *r)
{
  int on = !r->generated;
  for (const char *const *g = s->cfg; g && *g; g++)
    if (strncmp(*g, simulate_computation, sizeof simulate_computation - 1) == 0) {
      const char *v = *g + sizeof simulate_computation - 1;
      on = !(strcmp(v, "no") == 0 || strcmp(v, "0") == 0 || strcmp(v, "false") == 0 ||
             strcmp(v, "off") == 0);
    }
  return on;
}

/* `env LD_PRELOAD=libmpivet-cpuclock.so ...` before smpirun: the shim counts SMPI's reads of the
 * thread CPU clock into count and, when cost > 0, takes cost off each (src/cpuclock/cpuclock.c).
 * Nothing when the shim is not built. */
static int clock_shim(struct mv_cmdline *c, const char *count, double cost)
{
  char shim[4200];
  if (mv_path_mpi("smpi", "libmpivet-cpuclock.so", shim, sizeof shim) != 0)
    return 0;
  const char *pre = getenv("LD_PRELOAD");
  int rc = mv_cmdline_add(c, "env");
  rc = rc ? rc : mv_cmdline_addf(c, "LD_PRELOAD=%s%s%s", shim, pre && *pre ? ":" : "", pre && *pre ? pre : "");
  rc = rc ? rc : mv_cmdline_addf(c, "MV_CPU_CLOCK_COUNT=%s", count);
  if (!rc && cost > 0)
    rc = mv_cmdline_addf(c, "MV_CPU_CLOCK_READ_S=%.9g", cost);
  return rc ? rc : 1;
}

static int command(const struct mv_simulate_spec *s, const struct mv_calib_folder *f,
                   const struct mv_simulate_result *r, const char *timing, struct mv_cmdline *c)
{
  const char *fixed[] = {"smpirun", "-platform", r->platform, "-hostfile", r->hostfile,
                         "--cfg=smpi/display-timing:yes", "--log=root.thresh:warning",
                         "--log=smpi_utils.thresh:info", NULL};
  int rc = 0;
  for (const char *const *a = fixed; !rc && *a; a++)
    rc = mv_cmdline_add(c, *a);
  rc = rc ? rc : mv_cmdline_addf(c, "--log=smpi_utils.app:file:%s", timing);
  /* smpirun exits 0 after "Deadlock detected": the kernel's messages go to a file to be read */
  rc = rc ? rc : mv_cmdline_add(c, "--log=ker_engine.thresh:info");
  rc = rc ? rc : mv_cmdline_addf(c, "--log=ker_engine.app:file:%s", r->engine_log);
  for (size_t i = 0; !rc && f && i < f->nsettings; i++)
    rc = mv_cmdline_addf(c, "--cfg=%s", f->settings[i]);
  /* Uncalibrated: the program's measured computation counts as it ran here (SMPI's own default
   * smpi/host-speed, 20 kflop/s, would shrink it 50000 times on a 1 Gflop/s host). */
  if (!rc && !f)
    rc = mv_cmdline_addf(c, "--cfg=smpi/host-speed:%s", r->host_speed);
  /* A generated benchmark replays its computation as simulated sleeps; what SMPI would time
   * between its MPI calls is the benchmark's bookkeeping plus SimGrid's own thread-CPU clock
   * reading (2.1 us a call on a KVM guest, docs/simulate.md): not the application's. */
  if (!rc && r->generated)
    rc = mv_cmdline_addf(c, "--cfg=%sno", simulate_computation);
  for (const char *const *g = s->cfg; !rc && g && *g; g++)
    rc = mv_cmdline_addf(c, "--cfg=%s", *g);
  rc = rc ? rc : mv_cmdline_add(c, "-np");
  rc = rc ? rc : mv_cmdline_addf(c, "%d", s->np);
  rc = rc ? rc : mv_cmdline_add(c, r->binary);
  for (const char *const *a = s->args; !rc && a && *a; a++)
    rc = mv_cmdline_add(c, *a);
  return rc;
}

/* 1 when SimGrid's kernel log reports a deadlock. */
static int deadlocked(const char *log)
{
  char line[512];
  FILE *fp = fopen(log, "r");
  int found = 0;
  while (fp && !found && fgets(line, sizeof line, fp))
    found = strstr(line, "Deadlock detected") != NULL;
  if (fp)
    fclose(fp);
  return found;
}

/* "Simulated time: X seconds." in SimGrid's timing log. */
static int predicted(const char *timing, double *t)
{
  char line[512];
  FILE *fp = fopen(timing, "r");
  int rc = MV_EPARSE;
  while (fp && fgets(line, sizeof line, fp)) {
    const char *p = strstr(line, "Simulated time: ");
    if (p && sscanf(p + 16, "%lf", t) == 1 && isfinite(*t))
      rc = 0;
  }
  if (fp)
    fclose(fp);
  return rc;
}

/* The shim's count of clock reads and the cost it took off each (one line per process that read
 * the clock: "reads cost"; the cost is the calibrated one, or less where the clock it reads is
 * cheaper, cpuclock.c), and the computation a rank gained from the reads on average: one read's
 * cost per interval between two reads. */
static void clock_report(const char *count, int np, struct mv_simulate_result *r)
{
  unsigned long long n, sum = 0, most = 0;
  double cost, used = -1;
  int lines = 0;
  FILE *fp = fopen(count, "r");
  while (fp && fscanf(fp, "%llu %lf", &n, &cost) == 2) {
    sum += n, lines++;
    if (r->clock_corrected && n > most)
      most = n, used = cost;   /* the process that read the clock most: the simulator */
  }
  if (fp)
    fclose(fp);
  r->clock_reads = lines ? (long long)sum : 0;
  if (used >= 0)
    r->clock_read_s = used;
  r->clock_bias_s = (double)r->clock_reads / 2 * r->clock_read_s / (np > 0 ? np : 1);
}

static int run(const struct mv_simulate_spec *s, const struct mv_calib_folder *f,
               struct mv_simulate_result *r)
{
  struct mv_cmdline c;
  struct rusage ru;
  char timing[4200], count[4200];
  int shim;
  snprintf(timing, sizeof timing, "%s/simgrid-timing.log", s->workdir);
  snprintf(r->engine_log, sizeof r->engine_log, "%s/simgrid-engine.log", s->workdir);
  snprintf(count, sizeof count, "%s/cpu-clock-reads.txt", s->workdir);
  remove(timing);
  remove(r->engine_log);
  remove(count);
  mv_cmdline_init(&c);
  r->code_timed = code_timed(s, r);
  r->clock_read_s = f ? f->cpu_clock_s : 0;
  r->clock_reads = -1;
  int rc = clock_shim(&c, count, s->raw_cpu_clock || !r->code_timed ? 0 : r->clock_read_s);
  shim = rc == 1;
  rc = rc == 1 ? 0 : rc;
  r->clock_corrected = shim && !s->raw_cpu_clock && r->code_timed && r->clock_read_s > 0;
  rc = rc ? rc : command(s, f, r, timing, &c);
  double t0 = now();
  rc = rc ? rc : mv_launch_exec(&c, s->output, s->timeout_s, &r->timed_out);
  r->wall_s = now() - t0;
  mv_cmdline_release(&c);
  if (getrusage(RUSAGE_CHILDREN, &ru) == 0)
    r->max_rss_kib = ru.ru_maxrss;
  if (shim)
    clock_report(count, s->np, r);
  if (!rc && (r->deadlock = deadlocked(r->engine_log)) != 0)
    return MV_EEXTERN;
  return rc ? rc : predicted(timing, &r->predicted_s) ? MV_EEXTERN : 0;
}

int mv_simulate(const struct mv_simulate_spec *s, struct mv_simulate_result *r, struct mv_error *e)
{
  struct mv_calib_folder f;
  memset(r, 0, sizeof *r);
  mv_error_clear(e);
  if (!s->program || !s->workdir || s->np < 1 || s->ppn < 0)
    return FAIL(MV_EINVAL, "simulate: a program, a work folder and np >= 1 are needed");
  int rc = s->calibration ? mv_calib_folder_load(s->calibration, &f, e) : 0;
  if (rc)
    return mv_error_ensure(e, rc, s->calibration);
  rc = write_platform(s, s->calibration ? &f : NULL, r, e);
  if (!rc && is_source(s->program)) {
    r->generated = generated_benchmark(s->program);
    if ((rc = build(s, s->calibration ? &f : NULL, r)) != 0)
      FAIL(rc, "%s: smpicc failed (output in %s)", s->program, r->build_log);
  } else if (!rc) {
    snprintf(r->binary, sizeof r->binary, "%s", s->program);
  }
  if (!rc && (rc = run(s, s->calibration ? &f : NULL, r)) != 0)
    FAIL(rc, "%s: the simulation %s", s->program,
         r->deadlock ? "deadlocked (SimGrid's report above)"
         : r->timed_out ? "failed (timed out)" : "failed");
  if (s->calibration)
    mv_calib_folder_release(&f);
  return mv_error_ensure(e, rc, NULL);
}
