/* The whole `mpivet calibrate`: run mpivet-calib on the real machine through a launch engine,
 * fit the network and the kernels, write the calibration folder (calibration.json last, so that an
 * interrupted calibration leaves a folder that mv_calib_folder_load refuses), then re-run the
 * calibration program under SMPI with the result and compare, operation by operation; the
 * re-run's window costs are SMPI's own, written into calibration.json last. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "mpivet/atomic.h"
#include "mpivet/calib.h"
#include "mpivet/dirlock.h"
#include "mpivet/error.h"
#include "mpivet/launch.h"
#include "mpivet/paths.h"
#include "mpivet/simulate.h"
#include "mpivet/stats.h"

#define FAIL(rc, ...) mv_error_set(e, (rc), NULL, 0, 0, __VA_ARGS__)

static double now(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* The folder must not exist (created) or be empty: a calibration never overwrites anything. It
 * is locked first (util/dirlock.c), so that of two calibrations into one new folder the second
 * is refused rather than both writing into it. */
static int make_dir(const char *dir, struct mv_error *e)
{
  if (mkdir(dir, 0755) != 0 && errno != EEXIST)
    return FAIL(MV_EIO, "%s: cannot create: %s", dir, strerror(errno));
  struct stat st;
  if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode))
    return FAIL(MV_EIO, "%s: exists and is not a folder", dir);
  int rc = mv_dir_lock(dir);
  if (rc == MV_EBUSY)
    return FAIL(rc, "%s: in use by another mpivet process", dir);
  if (rc < 0)
    return FAIL(MV_EIO, "%s: cannot create its lock file: %s", dir, strerror(errno));
  char first[256];
  if (!mv_dir_is_empty(dir, first, sizeof first))
    return FAIL(MV_EINVAL, "%s: exists and is not empty (holds %s): calibrate into a new folder",
                dir, first);
  return 0;
}

static int measure(const struct mv_calibrate_spec *s, const char *csv, const char *program,
                   const char *log, double timeout)
{
  char a[6][32];
  snprintf(a[0], sizeof a[0], "%lld", s->max_size);
  snprintf(a[1], sizeof a[1], "%d", s->reps);
  snprintf(a[2], sizeof a[2], "%d", s->kernel_samples);
  snprintf(a[3], sizeof a[3], "%d", s->load);
  snprintf(a[4], sizeof a[4], "%llu", s->seed);
  const char *args[] = {"--max-size", a[0], "--reps", a[1], "--kernel-samples", a[2], "--load", a[3],
                        "--seed", a[4], "--kernels", s->kernels ? s->kernels : "none", "--out", csv, NULL};
  struct mv_launch_spec ls = {.engine = s->engine, .mpi = s->mpi, .np = s->np, .hosts = s->hosts,
                              .program = program, .args = args, .workdir = s->dir,
                              .timeout_s = timeout};
  struct mv_cmdline c;
  mv_cmdline_init(&c);
  int rc = mv_launch_command(&ls, &c);
  rc = rc ? rc : mv_launch_exec(&c, log, timeout, NULL);
  mv_cmdline_release(&c);
  return rc;
}

static int read_csv(const char *csv, struct mv_calib_data *d, struct mv_error *e)
{
  FILE *fp = fopen(csv, "r");
  if (!fp)
    return FAIL(MV_EIO, "%s: cannot read it: %s", csv, strerror(errno));
  int rc = mv_calib_data_read(fp, csv, d, e);
  fclose(fp);
  return rc;
}

/* The --kernel-records files, read whole before anything runs (a missing or malformed one is
 * refused before the measurement, not after it). */
static int read_records(const struct mv_calibrate_spec *s, struct mv_calib_data *rec, struct mv_error *e)
{
  int rc = 0;
  for (int i = 0; !rc && i < s->nrecords; i++)
    rc = read_csv(s->records[i], rec, e);
  return rc;
}

/* The kernels of --kernel-records files replace mpivet-calib's random shapes. */
static int take_records(struct mv_calib_data *d, const struct mv_calib_data *rec, struct mv_error *e)
{
  int rc = mv_calib_data_take_kernels(d, rec);
  if (rc)
    FAIL(rc, "kernel records: %s (at most %d hosts)", mv_strerror(rc), MV_CALIB_MAX_HOSTS);
  return rc;
}

typedef int (*writer_fn)(const struct mv_calibration *c, const struct mv_calib_data *d, FILE *fp);

static int write_settings(const struct mv_calibration *c, const struct mv_calib_data *d, FILE *fp)
{
  (void)d;
  return mv_calib_write_settings(c, fp);
}

static int write_kernels(const struct mv_calibration *c, const struct mv_calib_data *d, FILE *fp)
{
  (void)d;
  return mv_calib_write_kernels_h(c, fp);
}

static int write_json(const struct mv_calibration *c, const struct mv_calib_data *d, FILE *fp)
{
  (void)d;
  return mv_calib_write_json(c, fp);
}

static int write_platform(const struct mv_calibration *c, const struct mv_calib_data *d, FILE *fp)
{
  struct mv_platform p;
  int hosts = d->nhosts > 0 ? d->nhosts : 1;
  int rc = mv_calib_platform(c, NULL, hosts, &p, NULL);
  p.cores = c->np;
  return rc ? rc : mv_platform_write_xml(&p, fp);
}

static int write_file(const char *dir, const char *name, writer_fn fn, const struct mv_calibration *c,
                      const struct mv_calib_data *d, struct mv_error *e)
{
  char path[4200];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  FILE *fp = fopen(path, "w");
  if (!fp)
    return FAIL(MV_EIO, "%s: cannot write", path);
  int rc = fn(c, d, fp);
  if (fclose(fp) != 0 && !rc)
    rc = MV_EIO;
  return rc ? FAIL(rc, "%s: %s", path, mv_strerror(rc)) : 0;
}

/* op's same-host samples of size bytes in d, in the order they were taken (*n of them; NULL: no
 * memory). */
static double *samples_at(const struct mv_calib_data *d, int op, double bytes, size_t *n)
{
  double *v = malloc((d->n[op] + 1) * sizeof *v);
  *n = 0;
  for (size_t i = 0; v && i < d->n[op]; i++)
    if (!d->s[op][i].other && d->s[op][i].bytes == bytes)
      v[(*n)++] = d->s[op][i].seconds;
  return v;
}

/* Per op and size range (< and >= MV_CALIB_SMALL_LIMIT): the median over sizes of the simulated
 * typical value's relative error against the measured one, and of the measurement's own noise
 * (mv_calib_split_noise: the median error a perfect model would show). */
static void compare(const struct mv_calib_data *real, const struct mv_calib_data *sim,
                    struct mv_selfcheck *ck)
{
  for (int op = 0; op <= MV_CALIB_WTIME; op++) {
    double errs[2][256], noise[2][256];
    size_t n[2] = {0, 0}, nn[2] = {0, 0};
    double seen[256];
    size_t nseen = 0;
    for (size_t i = 0; i < sim->n[op]; i++) {
      double b = sim->s[op][i].bytes;
      int dup = 0;
      for (size_t k = 0; k < nseen; k++)
        dup |= seen[k] == b;
      if (dup || nseen == 256)
        continue;
      seen[nseen++] = b;
      size_t nr, ns;
      double *vr = samples_at(real, op, b, &nr), *vs = samples_at(sim, op, b, &ns);
      int big = b >= MV_CALIB_SMALL_LIMIT;
      double noisy = vr ? mv_calib_split_noise(vr, nr) : NAN;
      double r = vr && nr ? mv_calib_typical(vr, nr) : NAN, s = vs && ns ? mv_calib_typical(vs, ns) : NAN;
      free(vr);
      free(vs);
      if (isfinite(r) && isfinite(s) && r > 0 && n[big] < 256)
        errs[big][n[big]++] = fabs(s - r) / r;
      if (isfinite(noisy) && nn[big] < 256)
        noise[big][nn[big]++] = noisy;
    }
    for (int k = 0; k < 2; k++) {
      ck->sizes[op][k] = n[k];
      ck->median_err[op][k] = n[k] ? mv_stats_median_inplace(errs[k], n[k]) : NAN;
      ck->median_noise[op][k] = nn[k] ? mv_stats_median_inplace(noise[k], nn[k]) : NAN;
    }
  }
}

/* SMPI's own cost of each window op, the typical value of the self-check's (it does not depend
 * on the size: 0.48 us for an allocate, 0.74 us for a free, stop 31): simulate charges the
 * calibrated cost minus it. */
static void smpi_window_costs(const struct mv_calib_data *sim, struct mv_calib_windows *w)
{
  for (int i = 0; i < MV_CALIB_NWIN; i++)
    w->smpi_s[i] = mv_calib_op_typical(sim, MV_CALIB_WINALLOC + i);
}

static int self_check(const struct mv_calibrate_spec *s, const struct mv_calib_data *real,
                      struct mv_selfcheck *ck, struct mv_calib_windows *w, struct mv_error *e)
{
  char program[4200], csv[4200], work[4200], out[4200], max[32];
  if (mv_path_mpi("smpi", "mpivet-calib", program, sizeof program))
    return FAIL(MV_ENOENT, "mpivet-calib is not built for smpi: no self-check");
  snprintf(csv, sizeof csv, "%s/selfcheck.csv", s->dir);
  snprintf(work, sizeof work, "%s/selfcheck", s->dir);
  snprintf(out, sizeof out, "%s/selfcheck.log", s->dir);
  snprintf(max, sizeof max, "%lld", s->max_size);
  if (mkdir(work, 0755) != 0)
    return FAIL(MV_EIO, "%s: cannot create", work);
  /* Both ranks on one simulated host, like the measured pair; SMPI is deterministic: 1 rep. */
  const char *args[] = {"--max-size", max, "--reps", "1", "--seed", "1", "--out", csv, NULL};
  const char *cfg[] = {"smpi/simulate-computation:no", NULL};
  struct mv_simulate_spec ss = {.calibration = s->dir, .np = 2, .ppn = 2, .program = program,
                                .args = args, .cfg = cfg, .workdir = work, .output = out,
                                .timeout_s = s->timeout_s};
  struct mv_simulate_result r;
  int rc = mv_simulate(&ss, &r, e);
  ck->wall_s = r.wall_s;
  struct mv_calib_data sim;
  mv_calib_data_init(&sim);
  rc = rc ? rc : read_csv(csv, &sim, e);
  if (!rc) {
    compare(real, &sim, ck);
    smpi_window_costs(&sim, w);
  }
  mv_calib_data_release(&sim);
  return rc;
}

static int fit_and_write(const struct mv_calibrate_spec *s, struct mv_calib_data *d,
                         struct mv_calibration *c, struct mv_error *e)
{
  int rc = mv_calib_fit_network(d, c);
  if (rc)
    return FAIL(rc, "network fit: %s (too few message sizes? use a larger --max-size)", mv_strerror(rc));
  if ((rc = mv_calib_fit_kernels(d, c)) != 0)
    return FAIL(rc, "kernel fit: %s (too few samples? raise --kernel-samples)", mv_strerror(rc));
  for (int op = 0; op < MV_CALIB_NOPS; op++)
    c->samples += (long)d->n[op];
  rc = write_file(s->dir, "platform.xml", write_platform, c, d, e);
  rc = rc ? rc : write_file(s->dir, "smpi-settings.txt", write_settings, c, d, e);
  rc = rc ? rc : write_file(s->dir, "kernels.h", write_kernels, c, d, e);
  rc = rc ? rc : write_file(s->dir, "report.html", mv_calib_write_report, c, d, e);
  return rc ? rc : write_file(s->dir, "calibration.json", write_json, c, d, e);
}

/* The largest message of the measurements (self-check of --measurements: the same sizes). */
static long long largest_message(const struct mv_calib_data *d)
{
  double top = 0;
  for (int op = 0; op < MV_CALIB_NNET; op++)
    for (size_t i = 0; i < d->n[op]; i++)
      top = fmax(top, d->s[op][i].bytes);
  return (long long)top;
}

int mv_calibrate(const struct mv_calibrate_spec *s, struct mv_calibrate_result *res, struct mv_error *e)
{
  char program[4200], csv[4200];
  struct mv_launch_spec ls = {.engine = s->engine, .mpi = s->mpi, .np = s->np};
  double t0 = now();
  memset(res, 0, sizeof *res);
  mv_error_clear(e);
  if (s->np < 2 || mv_launch_validate(&ls))
    return FAIL(MV_EINVAL, "calibrate: expected --engine mpirun or srun and --np >= 2");
  const char *flavor = mv_launch_flavor(&ls);
  if (mv_path_mpi(flavor, "mpivet-calib", program, sizeof program))
    return FAIL(MV_ENOENT, "mpivet-calib is not built for %s", flavor);
  struct mv_calib_data d, rec;
  mv_calib_data_init(&rec);
  int rc = read_records(s, &rec, e);
  if (!rc && s->measurements && access(s->measurements, R_OK) != 0)   /* before DIR is made */
    rc = FAIL(MV_ENOENT, "--measurements %s: %s", s->measurements, strerror(errno));
  rc = rc ? rc : make_dir(s->dir, e);
  snprintf(csv, sizeof csv, "%s/measurements.csv", s->dir);
  snprintf(res->log, sizeof res->log, "%s/calib-run.log", s->dir);
  if (!rc && s->measurements) {   /* fitted again: the folder keeps its own copy */
    if ((rc = mv_atomic_copy(s->measurements, csv)) != 0)
      FAIL(rc, "%s: cannot copy to %s: %s", s->measurements, csv, strerror(errno));
  } else if (!rc && (rc = measure(s, csv, program, res->log, s->timeout_s)) != 0)
    FAIL(rc, "the calibration program failed (see %s)", res->log);
  if (rc) {
    mv_calib_data_release(&rec);
    return rc;
  }
  res->measure_s = now() - t0;
  mv_calib_data_init(&d);
  struct mv_calibration *c = &res->c;
  snprintf(c->mpi, sizeof c->mpi, "%s", flavor);
  snprintf(c->engine, sizeof c->engine, "%s", s->engine);
  c->np = s->np, c->max_size = (double)s->max_size, c->family = s->family, c->noise = s->noise;
  rc = read_csv(csv, &d, e);
  struct mv_calibrate_spec sc = *s;   /* the self-check's: the sizes of the measurements */
  if (!rc && s->measurements)
    sc.max_size = largest_message(&d), c->max_size = (double)sc.max_size;
  rc = rc ? rc : take_records(&d, &rec, e);
  mv_calib_data_release(&rec);
  rc = rc ? rc : fit_and_write(s, &d, c, e);
  if (!rc && s->self_check)
    res->checked = (rc = self_check(&sc, &d, &res->check, &c->win, e)) == 0;
  /* calibration.json again, with SMPI's own window costs (the self-check needed the folder) */
  if (res->checked && mv_calib_windows_any(&c->win))
    rc = write_file(s->dir, "calibration.json", write_json, c, &d, e);
  mv_calib_data_release(&d);
  res->total_s = now() - t0;
  return mv_error_ensure(e, rc, NULL);
}
