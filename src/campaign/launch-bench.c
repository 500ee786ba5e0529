/* One launch of mpivet-bench: its own CSV, meta JSON and log in the work folder, then the rows
 * handed to the caller's row sink with the launch index in the `run` column. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "launch-engine.h"
#include "mpivet/error.h"
#include "mpivet/progress.h"
#include "mpivet/results.h"

int mv_launch_capture(const char *csv_path, int run, const struct mv_row_sink *sink, long *rows)
{
  struct mv_results_reader *r;
  struct mv_row row;
  int rc = mv_results_reader_open(&r, csv_path);
  *rows = 0;
  if (rc)
    return rc;
  while ((rc = mv_results_reader_next(r, &row)) == 1) {
    row.run = run;
    if ((rc = sink->put(sink->ctx, &row)) != 0)
      break;
    (*rows)++;
  }
  mv_results_reader_close(r);
  return rc < 0 ? rc : 0;
}

/* spec->args followed by the output options the launcher owns. */
static int bench_args(const struct mv_launch_spec *spec, const struct mv_launch_result *res,
                      struct mv_cmdline *args)
{
  char ppn[32], np[32];
  snprintf(ppn, sizeof ppn, "%d", spec->ppn);
  snprintf(np, sizeof np, "%d", spec->np);
  /* --np: the bench refuses a world of another size (singletons of a launcher without PMI) */
  const char *own[] = {"--out", res->csv, "--meta", res->meta, "--engine", spec->engine,
                       "--np", np, spec->ppn > 0 ? "--ppn" : NULL, ppn, NULL};
  mv_cmdline_init(args);
  int rc = mv__cmdline_add_all(args, spec->args);
  return rc ? rc : mv__cmdline_add_all(args, own);
}

/* Why a launch failed, from its log: mpivet-bench's first error line ("mpivet-bench: ...",
 * prefix dropped), else the launcher's last line (srun: "srun: error: ..."). Under a launcher
 * the exit status says little (srun and mpirun report their own codes). */
static void launch_error(const char *log, char *out, size_t size)
{
  static const char prefix[] = "mpivet-bench: ";
  char line[1024], last[1024] = "";
  int found = 0;
  FILE *fp = fopen(log, "r");
  while (fp && !found && fgets(line, sizeof line, fp)) {
    line[strcspn(line, "\n")] = '\0';
    found = strncmp(line, prefix, sizeof prefix - 1) == 0;
    if (found || line[0])
      snprintf(last, sizeof last, "%s", found ? line + sizeof prefix - 1 : line);
  }
  if (fp)
    fclose(fp);
  snprintf(out, size, "%s", last);
}

int mv_launch_bench(const struct mv_launch_spec *spec, int run, const struct mv_row_sink *sink,
                    struct mv_launch_result *res)
{
  struct mv_cmdline args, cmd;
  memset(res, 0, sizeof *res);
  if (!spec->workdir)
    return MV_EINVAL;
  snprintf(res->csv, sizeof res->csv, "%s/run-%d.csv", spec->workdir, run);
  snprintf(res->meta, sizeof res->meta, "%s/run-%d.json", spec->workdir, run);
  snprintf(res->log, sizeof res->log, "%s/run-%d.log", spec->workdir, run);
  unlink(res->csv);
  unlink(res->log);
  int rc = bench_args(spec, res, &args);
  if (rc) {
    mv_cmdline_release(&args);
    return rc;
  }
  struct mv_launch_spec s = *spec;
  s.args = (const char *const *)args.argv;
  rc = mv_launch_command(&s, &cmd);
  mv_cmdline_release(&args);
  if (rc)
    return rc;
  mv_cmdline_format(&cmd, res->command, sizeof res->command);
  double t0 = mv_now();
  rc = mv_launch_exec(&cmd, res->log, spec->timeout_s, &res->timed_out);
  res->seconds = mv_now() - t0;
  mv_cmdline_release(&cmd);
  if (rc) {
    char line[MV_ERROR_PART_SIZE];
    launch_error(res->log, line, sizeof line);
    return mv_error_set(&res->error, rc, res->log, 0, 0, "%s", line);
  }
  rc = mv_launch_capture(res->csv, run, sink, &res->rows);
  return rc == MV_ENOENT || rc == MV_EIO ? MV_EEXTERN : rc;
}
