/* Output of the calibration: the calibrated platform (a built-in spec with the measured host speed,
 * link bandwidth and latency, also on the loopback link that ranks of one host share), the SMPI
 * settings file (one smpirun --cfg key:value per line), the kernel models as a C header for
 * include/mpivet/emulate.h, and calibration.json. */
#include <math.h>
#include <string.h>

#include "mpivet/calib.h"
#include "mpivet/error.h"
#include "mpivet/json.h"

#define DEFAULT_FLOPS 1e9   /* when no dgemm was timed: SimGrid's own default of 1 Gf */

static double host_flops(const struct mv_calibration *c) { return c->flops > 0 ? c->flops : DEFAULT_FLOPS; }

int mv_calib_platform(const struct mv_calibration *c, const char *spec, int hosts,
                      struct mv_platform *p, struct mv_error *e)
{
  char def[64];
  snprintf(def, sizeof def, "cluster:%d", hosts > 0 ? hosts : 1);
  int rc = mv_platform_parse(spec ? spec : def, p, e);
  if (rc)
    return rc;
  /* A route between two hosts crosses two private links (up, down): each carries half the
   * latency; ranks of one host use the loopback link with the whole of it. */
  snprintf(p->speed, sizeof p->speed, "%.6gf", host_flops(c));
  snprintf(p->bw, sizeof p->bw, "%.6gBps", c->bandwidth_Bps);
  snprintf(p->lat, sizeof p->lat, "%.6gs", c->latency_s / 2);
  snprintf(p->loopback_bw, sizeof p->loopback_bw, "%.6gBps", c->bandwidth_Bps);
  snprintf(p->loopback_lat, sizeof p->loopback_lat, "%.6gs", c->latency_s);
  return 0;
}

/* SMPI's piecewise list "from:a:b;..." (factor lists "from:f;..."). */
static void pieces(FILE *fp, const char *key, const struct mv_piecewise *f, int factor)
{
  fprintf(fp, "%s:", key);
  for (size_t i = 0; i < f->n; i++) {
    fprintf(fp, "%s%.0f:%.9g", i ? ";" : "", f->p[i].from, f->p[i].a);
    if (!factor)
      fprintf(fp, ":%.9g", f->p[i].b);
  }
  fputc('\n', fp);
}

int mv_calib_write_settings(const struct mv_calibration *c, FILE *fp)
{
  long thresh = (long)c->eager_bytes + 1;   /* SMPI: sizes below the threshold are eager */
  pieces(fp, "smpi/os", &c->os, 0);
  pieces(fp, "smpi/or", &c->orecv, 0);
  pieces(fp, "smpi/ois", &c->ois, 0);
  /* SimGrid 3.32 takes piecewise latency/bandwidth factors of the SMPI network model under these
   * names (network/latency-factor and network/bandwidth-factor accept one number only). */
  pieces(fp, "smpi/lat-factor", &c->lat_factor, 1);
  pieces(fp, "smpi/bw-factor", &c->bw_factor, 1);
  fprintf(fp, "smpi/async-small-thresh:%ld\nsmpi/send-is-detached-thresh:%ld\n", thresh, thresh);
  fprintf(fp, "smpi/host-speed:%.6gf\n", host_flops(c));
  /* Measured per call: SMPI must not grow them over consecutive unsuccessful calls. */
  fprintf(fp, "smpi/test:%.6g\nsmpi/iprobe:%.6g\nsmpi/wtime:%.6g\nsmpi/grow-injected-times:no\n",
          c->test_s, c->iprobe_s, c->wtime_s);
  return ferror(fp) ? MV_EIO : 0;
}

static void coef_list(FILE *fp, const double *v)
{
  fputc('{', fp);
  for (int i = 0; i < MV_KERNEL_TERMS; i++)
    fprintf(fp, "%s%.9g", i ? ", " : "", v[i]);
  fputc('}', fp);
}

/* One MV_EMULATE_MODEL_TABLE row per model: kernel, host name ("" pooled), host index (-1
 * pooled), the range's lower bound of m n k, coefficients and noise coefficients (N-1: the
 * constant term only); the ranges of one kernel and host follow each other, ascending. */
int mv_calib_write_kernels_h(const struct mv_calibration *c, FILE *fp)
{
  fprintf(fp, "/* Kernel models written by mpivet calibrate (generated, do not edit) for mpivet/emulate.h:\n"
              " * {kernel, host, host index, from m n k, seconds over mnk, mn, mk, nk, m, n, k, 1, noise sd\n"
              " * over the same terms}; host \"\" and index -1: every host pooled; a row holds for calls\n"
              " * of m n k from its bound up to the next row's of the same kernel and host. */\n"
              "#define MV_EMULATE_HOST_FLOPS %.9g\n", host_flops(c));
  if (c->touch_s > 0)   /* receives into never-written memory pay it (mpivet/first-touch.h) */
    fprintf(fp, "#define MV_PAGE_TOUCH_S %.6g\n#include \"mpivet/first-touch.h\"\n", c->touch_s);
  const struct mv_piecewise *rf = &c->fit[MV_CALIB_RECV];
  if (rf->n > 0) {   /* the receiver's copy of ranks that share a core (mpivet/emulate-handoff.h) */
    fprintf(fp, "/* time inside MPI_Recv after the message arrived, {from bytes, s, s per byte} */\n"
                "#define MV_EMULATE_EAGER_BYTES %.0f\n#define MV_EMULATE_RECV_FIT", c->eager_bytes);
    for (size_t i = 0; i < rf->n; i++)
      fprintf(fp, "%s {%.0f, %.9g, %.9g}", i ? "," : "", rf->p[i].from, rf->p[i].a, rf->p[i].b);
    fputc('\n', fp);
  }
  fputs("#define MV_EMULATE_MODEL_TABLE \\\n", fp);
  for (int i = 0; i < c->nkernels; i++) {
    const struct mv_kernel_model *km = &c->kernels[i];
    double sd[MV_KERNEL_TERMS] = {0};
    if (km->noise == 1)
      sd[MV_KERNEL_TERMS - 1] = km->sd[MV_KERNEL_TERMS - 1];
    else if (km->noise == 2)
      memcpy(sd, km->sd, sizeof sd);
    fprintf(fp, "  /* M-%d, N-%d, %zu samples, R^2 %.4f, sum ratio %.4f */ \\\n  {\"%s\", \"%s\", %d, %.9g, ",
            km->family, km->noise, km->n, km->r2, km->sum_ratio, mv_calib_op_name(km->op),
            km->host_name, km->host, km->from_work);
    coef_list(fp, km->coef);
    fputs(", ", fp);
    coef_list(fp, sd);
    fputs("}, \\\n", fp);
  }
  fputs("  /* end */\n", fp);
  return ferror(fp) ? MV_EIO : 0;
}

static void json_pieces(struct mv_json *j, const char *key, const struct mv_piecewise *f)
{
  mv_json_key(j, key);
  mv_json_array_begin(j);
  for (size_t i = 0; i < f->n; i++) {
    mv_json_object_begin(j);
    mv_json_kv_number(j, "from_bytes", f->p[i].from);
    mv_json_kv_number(j, "to_bytes", isfinite(f->p[i].to) ? f->p[i].to : -1);
    mv_json_kv_number(j, "intercept", f->p[i].a);
    mv_json_kv_number(j, "slope", f->p[i].b);
    mv_json_object_end(j);
  }
  mv_json_array_end(j);
}

static void json_kernels(struct mv_json *j, const struct mv_calibration *c)
{
  mv_json_key(j, "kernels");
  mv_json_array_begin(j);
  for (int i = 0; i < c->nkernels; i++) {
    const struct mv_kernel_model *km = &c->kernels[i];
    mv_json_object_begin(j);
    mv_json_kv_string(j, "kernel", mv_calib_op_name(km->op));
    mv_json_kv_string(j, "host", km->host_name);
    mv_json_kv_number(j, "from_work", km->from_work);
    mv_json_kv_int(j, "family", km->family);
    mv_json_kv_int(j, "noise", km->noise);
    mv_json_kv_int(j, "samples", (long long)km->n);
    mv_json_kv_int(j, "stalls_dropped", (long long)km->stalls);
    mv_json_kv_number(j, "r2", km->r2);
    mv_json_kv_number(j, "median_relative_error", km->median_rel_err);
    mv_json_kv_number(j, "sum_ratio", km->sum_ratio);
    mv_json_key(j, "coefficients_s");
    mv_json_array_begin(j);
    for (int t = 0; t < MV_KERNEL_TERMS; t++)
      mv_json_number(j, km->coef[t]);
    mv_json_array_end(j);
    mv_json_key(j, "sd_coefficients_s");
    mv_json_array_begin(j);
    for (int t = 0; t < MV_KERNEL_TERMS; t++)
      mv_json_number(j, km->sd[t]);
    mv_json_array_end(j);
    mv_json_object_end(j);
  }
  mv_json_array_end(j);
}

/* "windows": {op: {"smpi_s", "median_relative_error", "pieces": [...]}} for each fitted window
 * op; absent when none was measured (mv_calib_json_windows reads it back). */
static void json_windows(struct mv_json *j, const struct mv_calib_windows *w)
{
  if (!mv_calib_windows_any(w))
    return;
  mv_json_key(j, "windows");
  mv_json_object_begin(j);
  for (int i = 0; i < MV_CALIB_NWIN; i++) {
    if (!w->fit[i].n)
      continue;
    mv_json_key(j, mv_calib_op_name(MV_CALIB_WINALLOC + i));
    mv_json_object_begin(j);
    mv_json_kv_number(j, "smpi_s", w->smpi_s[i]);
    mv_json_kv_number(j, "median_relative_error", w->median_rel_err[i]);
    json_pieces(j, "pieces", &w->fit[i]);
    mv_json_object_end(j);
  }
  mv_json_object_end(j);
}

int mv_calib_write_json(const struct mv_calibration *c, FILE *fp)
{
  struct mv_json j;
  mv_json_document_begin(&j, fp, 1, MV_JSON_CALIBRATION);
  mv_json_kv_string(&j, "mpi", c->mpi);
  mv_json_kv_string(&j, "engine", c->engine);
  mv_json_kv_int(&j, "np", c->np);
  mv_json_kv_number(&j, "max_size_bytes", c->max_size);
  mv_json_kv_int(&j, "samples", c->samples);
  mv_json_kv_number(&j, "link_latency_s", c->latency_s);
  mv_json_kv_number(&j, "link_bandwidth_Bps", c->bandwidth_Bps);
  mv_json_kv_number(&j, "host_speed_flops", host_flops(c));
  mv_json_kv_number(&j, "eager_threshold_bytes", c->eager_bytes);
  mv_json_kv_number(&j, "test_s", c->test_s);
  mv_json_kv_number(&j, "iprobe_s", c->iprobe_s);
  mv_json_kv_number(&j, "wtime_s", c->wtime_s);
  mv_json_kv_number(&j, "page_touch_s", c->touch_s);
  mv_json_kv_number(&j, "cpu_clock_read_s", c->cpu_clock_s);
  mv_json_key(&j, "fits");
  mv_json_object_begin(&j);
  for (int op = 0; op < MV_CALIB_NNET; op++)
    json_pieces(&j, mv_calib_op_name(op), &c->fit[op]);
  json_pieces(&j, "network", &c->net);
  mv_json_object_end(&j);
  json_windows(&j, &c->win);
  json_kernels(&j, c);
  mv_json_object_end(&j);
  fputc('\n', fp);
  return mv_json_finish(&j);
}
