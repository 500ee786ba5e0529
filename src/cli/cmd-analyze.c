/* `mpivet analyze TRACE [--json] [--top N] [--cube FILE] [--html FILE]`: wait-state analysis of an OTF2 archive (a folder
 * holding traces.otf2, or the anchor file itself). Exit 0 with the report, 2 when the archive
 * cannot be read; a truncated trace is analyzed as far as it goes and the report says so. */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "mpivet/analyze.h"
#include "mpivet/error.h"
#include "mpivet/launch.h"
#include "mpivet/paths.h"

static const char usage[] =
  "usage: mpivet analyze TRACE [--json] [--top N] [--cube FILE.cubex] [--html FILE.html] [--verbose]\n"
  "                      [--np P [--mpi F]]\n"
  "       mpivet analyze TRACE --value METRIC [--rank R] [--region NAME]\n\n"
  "Find wait states in an OTF2 trace (ours or Score-P's) by replaying its MPI communication:\n"
  "Late Sender (and Wrong Order), Late Receiver, Wait at Barrier, Wait at N x N, Late Broadcast,\n"
  "Early Reduce; RMA: Wait at Window Create/Free, Wait at Fence, Early Fence, Late Post, Early\n"
  "Wait, Late Complete, Lock Contention, Wait for Progress (lower and upper bound), pairwise\n"
  "synchronization counts. TRACE is the archive folder or its traces.otf2 anchor file.\n\n"
  "  --json      the whole metric x call path x rank cube as JSON on stdout\n"
  "  --top N     wait states listed in the text report (default 10)\n"
  "  --cube FILE also write the cube as a CUBE4 report (.cubex) for the Cube GUI\n"
  "  --html FILE also write one self-contained page (no network): the timeline of every rank\n"
  "              (MPI calls, computation, wait states, messages, the critical path; zoom and\n"
  "              pan; binned when larger than 400000 items), the metric x call path x rank\n"
  "              panes and the root causes; an existing FILE is not overwritten;\n"
  "              FILE#view=A,B opens the timeline at A to B seconds\n"
  "  --value METRIC [--rank R] [--region NAME]\n"
  "              print only the inclusive value of one metric (e.g. late_sender, in seconds;\n"
  "              counters in occurrences), optionally of one rank and of call paths ending\n"
  "              in one region; the metric keys are listed by --json\n"
  "  --verbose   print each analysis pass's wall time (seconds) on stderr: reading and\n"
  "              replay (wait states), merging, root causes, critical path (one process only),\n"
  "              and the memory kept for the backward passes (bytes per event)\n"
  "  -h, --help  this text\n\n"
  "  --np P      analyze in parallel: P processes of mpivet-analyze-mpi under mpirun\n"
  "              (same result as one process; for large traces)\n"
  "  --mpi F     MPI flavor of the parallel analyzer: openmpi (default) or mpich\n";

/* A folder means its traces.otf2. The anchor must be a regular file: OTF2 reads it by name, and
 * every process of --np opens it (a FIFO fed one reader and left the others waiting forever). */
static int anchor_of(const char *arg, char *buf, size_t size)
{
  struct stat st;
  if (stat(arg, &st) != 0)
    return MV_ENOENT;
  int n = S_ISDIR(st.st_mode) ? snprintf(buf, size, "%s/traces.otf2", arg) : snprintf(buf, size, "%s", arg);
  if (n < 0 || (size_t)n >= size)
    return MV_ERANGE;
  return stat(buf, &st) == 0 && S_ISREG(st.st_mode) ? 0 : MV_ENOENT;
}

/* The parallel analyzer of flavor `mpi` under mpirun, its report on our stdout. */
static int parallel(const char *anchor, int np, const char *mpi, int json, long top, const char *cube)
{
  char prog[4096], topstr[32];
  if (mv_path_mpi(mpi, "mpivet-analyze-mpi", prog, sizeof prog) != 0)
    return mv_cli_error("analyze", "mpivet-analyze-mpi is not built for %s", mpi);
  snprintf(topstr, sizeof topstr, "%ld", top);
  const char *args[6] = {anchor, "--top", topstr, NULL, NULL, NULL};
  if (json)
    args[1] = "--json", args[2] = NULL;
  if (cube)
    args[json ? 2 : 3] = "--cube", args[json ? 3 : 4] = cube;
  struct mv_launch_spec spec = {.engine = "mpirun", .mpi = mpi, .np = np, .program = prog, .args = args};
  struct mv_cmdline cmd;
  mv_cmdline_init(&cmd);
  int rc = mv_launch_command(&spec, &cmd);
  if (rc == 0) {
    fflush(stdout);
    rc = mv_launch_exec(&cmd, NULL, 0, NULL);
  }
  mv_cmdline_release(&cmd);
  if (rc != 0)
    return mv_cli_fail("analyze", MV_EEXTERN, "the parallel analysis (%d processes of %s) failed", np, prog);
  return MV_EXIT_OK;
}

/* The HTML page into a new file (never over an existing one: it may be the user's). */
struct page {
  const struct mv_analysis *a;
  char title[4200];
};

static int emit_html(FILE *fp, void *arg)
{
  const struct page *p = arg;
  return mv_analysis_write_html(p->a, fp, p->title);
}

/* The HTML page into a new file (never over an existing one: it may be the user's). */
static int write_html(const struct mv_analysis *a, const char *path, const char *trace)
{
  struct page p = {a, ""};
  snprintf(p.title, sizeof p.title, "mpivet analyze %s", trace);
  int rc = mv_cli_write_new_file("analyze", path, "choose another --html FILE", emit_html, &p);
  return rc < 0 ? mv_cli_write_failed("analyze", path, rc) : rc;
}

static int write_cube(const struct mv_analysis *a, const char *path)
{
  errno = 0;
  int rc = mv_analysis_save_cube(a, path);
  return rc < 0 ? mv_cli_write_failed("analyze", path, rc) : rc;
}

/* An analysis that read no event, or a --rank or --region the trace does not have, would
 * print zeros that look like "no wait states": exit 2 instead. Warns about a partial one. */
static int judgeable(const struct mv_analysis *a, const char *trace, long rank, const char *region)
{
  const char *note;
  int partial = mv_analysis_partial(a, &note);
  if (mv_analysis_events(a) == 0)
    return mv_cli_error("analyze", "%s: no events could be read%s%s: nothing to analyze", trace,
                        partial ? ": " : "", partial ? note : "");
  if (partial)
    fprintf(stderr, "mpivet analyze: warning: partial analysis, the trace is truncated: %s\n", note);
  if (rank >= 0 && !mv_analysis_has_rank(a, (int)rank))
    return mv_cli_error("analyze", "--rank %ld: %s has no such rank", rank, trace);
  if (region && !mv_analysis_has_region(a, region))
    return mv_cli_error("analyze", "--region %s: %s has no region of that name (e.g. MPI_Recv; "
                        "see the call paths in --json)", region, trace);
  return 0;
}

struct args {
  int json, verbose;
  long top, rank, np;
  const char *value, *region, *mpi, *cube, *html;
};

static int option(void *ctx, int c, const char *arg)
{
  struct args *a = ctx;
  switch (c) {
  case 'j': a->json = 1; return 0;
  case 'V': a->verbose = 1; return 0;
  case 'v': a->value = arg; return 0;
  case 'c': a->cube = arg; return 0;
  case 'H': a->html = arg; return 0;
  case 'g': a->region = arg; return 0;
  case 't':
    if (mv_cli_parse_long(arg, &a->top) != 0 || a->top < 0)
      return mv_cli_error("analyze", "--top: expected a non-negative integer, got \"%s\"", arg);
    return 0;
  case 'n':
    if (mv_cli_parse_long(arg, &a->np) != 0 || a->np < 1 || a->np > 4096)
      return mv_cli_error("analyze", "--np: expected a process count in 1..4096, got \"%s\"", arg);
    return 0;
  case 'm':
    if (strcmp(arg, "openmpi") && strcmp(arg, "mpich"))
      return mv_cli_error("analyze", "--mpi: expected openmpi or mpich, got \"%s\"", arg);
    a->mpi = arg;
    return 0;
  case 'r':
    if (mv_cli_parse_long(arg, &a->rank) != 0 || a->rank < 0)
      return mv_cli_error("analyze", "--rank: expected a non-negative integer, got \"%s\"", arg);
    return 0;
  }
  return MV_EXIT_USAGE;
}

int cmd_analyze(int argc, char **argv)
{
  static const struct option opts[] = {
    {"json", no_argument, NULL, 'j'}, {"top", required_argument, NULL, 't'},
    {"value", required_argument, NULL, 'v'}, {"rank", required_argument, NULL, 'r'},
    {"region", required_argument, NULL, 'g'}, {"np", required_argument, NULL, 'n'},
    {"mpi", required_argument, NULL, 'm'}, {"cube", required_argument, NULL, 'c'},
    {"html", required_argument, NULL, 'H'}, {"verbose", no_argument, NULL, 'V'},
    {"help", no_argument, NULL, 'h'}, {NULL, 0, NULL, 0}};
  struct args o = {.top = 10, .rank = -1, .mpi = "openmpi"};
  int rc = mv_cli_options("analyze", argc, argv, "h", opts, usage, option, &o);
  if (rc)
    return rc == MV_CLI_HELP ? mv_cli_finish(MV_EXIT_OK) : rc;
  if (optind != argc - 1)
    return mv_cli_error("analyze", "expected one TRACE argument (see mpivet analyze --help)");
  if ((o.rank >= 0 || o.region) && !o.value)
    return mv_cli_error("analyze", "--rank and --region select what --value prints: give --value "
                        "METRIC too");
  char anchor[4096];
  struct mv_error e;
  if (anchor_of(argv[optind], anchor, sizeof anchor) != 0)
    return mv_cli_error("analyze", "%s: no OTF2 archive here (expected a folder with traces.otf2)",
                        argv[optind]);
  if (o.np) {
    if (o.value || o.html || o.verbose)
      return mv_cli_error("analyze", "--%s works in one process only (drop --np)",
                          o.value ? "value" : o.html ? "html" : "verbose");
    return parallel(anchor, (int)o.np, o.mpi, o.json, o.top, o.cube);
  }
  struct mv_analysis *a = NULL;
  rc = mv_analyze_trace(anchor, NULL, &a, &e);
  if (rc != 0)
    return mv_cli_fail_error("analyze", &e);
  const char *note;
  for (int i = 0; o.verbose; i++) {
    double sec = mv_analysis_pass_time(a, i, &note);
    if (sec < 0)
      break;
    fprintf(stderr, "mpivet analyze: pass %d, %s: %.3f s\n", i + 1, note, sec);
  }
  if (o.verbose) {
    uint64_t n[4], b[4], all = mv_analysis_kept(a, n, b), ev = mv_analysis_events(a);
    fprintf(stderr, "mpivet analyze: kept for the backward passes: %" PRIu64 " timeline points (%.3f MB), %" PRIu64
                    " wait states (%.3f MB), %" PRIu64 " synchronization points (%.3f MB), %" PRIu64
                    " messages (%.3f MB): %.3f MB, %.2f bytes per event\n",
            n[0], (double)b[0] / 1e6, n[1], (double)b[1] / 1e6, n[2], (double)b[2] / 1e6, n[3], (double)b[3] / 1e6,
            (double)all / 1e6, ev ? (double)all / (double)ev : 0.0);
    static const char *const kinds[] = {"timelines", "wait states", "synchronization points"};
    uint64_t v[6];
    for (int k = 0; k < 3; k++) {
      const char *dir = mv_analysis_spill(a, k, v);
      fprintf(stderr, "mpivet analyze: %s in %s%s: %.3f MB in %" PRIu64 " blocks of up to %" PRIu64
                      " %s, %" PRIu64 " blocks read back through a cache of %.3f MB",
              kinds[k], *dir ? "a temporary file in " : "memory", dir, (double)v[0] / 1e6, v[1], v[2],
              k ? "items" : "points", v[3], (double)v[4] / 1e6);
      if (k)
        fprintf(stderr, ", %" PRIu64 " out of order by more than a block", v[5]);
      fputc('\n', stderr);
    }
  }
  if ((rc = judgeable(a, argv[optind], o.rank, o.region)) != 0) {
    mv_analysis_free(a);
    return rc;
  }
  if (o.value) {
    double v = mv_analysis_value(a, o.value, (int)o.rank, o.region);
    mv_analysis_free(a);
    if (v != v)
      return mv_cli_error("analyze", "--value: unknown metric \"%s\" (see the keys in --json)", o.value);
    printf("%.9f\n", v);
    return MV_EXIT_OK;
  }
  if ((o.cube && (rc = write_cube(a, o.cube)) != 0) || (o.html && (rc = write_html(a, o.html, argv[optind])) != 0)) {
    mv_analysis_free(a);
    return rc;
  }
  rc = o.json ? mv_analysis_write_json(a, stdout) : mv_analysis_write_text(a, stdout, (int)o.top);
  mv_analysis_free(a);
  if (rc != 0)
    return mv_cli_fail("analyze", rc, "writing the report: %s", mv_strerror(rc));
  return MV_EXIT_OK;
}
