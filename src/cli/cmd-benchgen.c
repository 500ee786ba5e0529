/* `mpivet benchgen DIR [-o FILE.c] [--print] [options]`: the compressed trace of DIR
 * (DIR/compressed.mvt, or the file itself) dumped, checked and turned into a C+MPI benchmark. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "mpivet/benchgen.h"
#include "mpivet/error.h"

static const char usage[] =
  "usage: mpivet benchgen DIR [-o FILE.c] [--print] [--compute-scale X] [--msg-scale Y]\n"
  "                           [--coll-as-p2p OP] [--no-check] [--force]\n"
  "       mpivet benchgen DIR --compare OTHER\n"
  "       mpivet benchgen DIR1 DIR2 DIR3... [-o FILE.c] [options]\n"
  "       mpivet benchgen RUN1 RUN2 RUN3... [-o FILE.c] [options]\n\n"
  "Turn the compressed trace DIR/compressed.mvt (written by mpivet trace) into one standalone\n"
  "C+MPI benchmark that makes the same MPI calls with the same peers, tags and sizes, in loops,\n"
  "and replays the computation between them. Build it with mpicc or smpicc; it takes no\n"
  "argument (optional: compute scale, message scale) and prints its elapsed time in seconds.\n"
  "With traces of one regular program at 3 or more process counts, the benchmark runs on any\n"
  "number of ranks: each rank plays the ranks of its region (rank 0, interior, last of a line,\n"
  "or corners, edges, interior of the grid MPI_Dims_create makes), and peers, sizes, repeat\n"
  "counts and computation follow forms a + b*x (x = 1, P, D1, D0, 1/P, log2 P, floor or\n"
  "ceil of log2 P) of the size P (grid D0 x D1)"
  " fitted to the traces; what does not fit is refused by name.\n"
  "With traces of repeated runs at one process count (the same calls), the benchmark is\n"
  "generated from the run of the median span (a run's computation moves between runs).\n\n"
  "  -o, --output FILE.c     write the program there (default: stdout); an existing file is\n"
  "                          kept unless --force\n"
  "  --print                 dump the compressed trace for humans instead\n"
  "  --compute-scale X       computation replayed X times as long (default 1)\n"
  "  --msg-scale Y           messages Y times as large (default 1)\n"
  "  --coll-as-p2p OP        replay collective OP (e.g. MPI_Allreduce, or all) with point-to-point\n"
  "  --compare OTHER         compare DIR's calls with OTHER's (a folder or .mvt file; e.g. the\n"
  "                          generated benchmark re-traced): per rank and call the function,\n"
  "                          communicator members, peer, tag, bytes, root; and the time (s, %)\n"
  "  --no-check              skip the matching check (potential deadlocks, misaligned collectives)\n"
  "  --force                 overwrite FILE.c\n"
  "Exit status: 0 written (or the same calls); 1 the calls differ, or the trace could deadlock or its collectives do not align (the\n"
  "ranks and calls are named); 2 usage, unreadable trace or a call benchgen cannot replay.\n";

struct opts {
  const char *out, *dir, *compare;
  char **dirs;                      /* all trace folders (ndirs > 1: for any process count) */
  int ndirs;
  int print, check, force;
  struct mv_benchgen_opts gen;
};

static int option(void *ctx, int c, const char *arg)
{
  struct opts *o = ctx;
  double *scale = c == 'c' ? &o->gen.compute_scale : &o->gen.msg_scale;
  switch (c) {
  case 'o': o->out = arg; return 0;
  case 'p': o->print = 1; return 0;
  case 'n': o->check = 0; return 0;
  case 'f': o->force = 1; return 0;
  case 'C': o->compare = arg; return 0;
  case 'a': o->gen.coll_as_p2p = arg; return 0;
  case 'c':
  case 'm':
    if (mv_cli_parse_double(arg, scale) || !(*scale >= 0) || *scale > 1e6)
      return mv_cli_error("benchgen", "--%s: expected a factor between 0 and 1e6, got \"%s\"",
                          c == 'c' ? "compute-scale" : "msg-scale", arg);
    return 0;
  }
  return MV_EXIT_USAGE;
}

static int parse(int argc, char **argv, struct opts *o)
{
  static const struct option longopts[] = {
    {"output", required_argument, 0, 'o'}, {"print", no_argument, 0, 'p'},
    {"compute-scale", required_argument, 0, 'c'}, {"msg-scale", required_argument, 0, 'm'},
    {"coll-as-p2p", required_argument, 0, 'a'}, {"no-check", no_argument, 0, 'n'},
    {"force", no_argument, 0, 'f'}, {"compare", required_argument, 0, 'C'}, {"help", no_argument, 0, 'h'}, {0, 0, 0, 0}};
  int rc = mv_cli_options("benchgen", argc, argv, "o:h", longopts, usage, option, o);
  if (rc)
    return rc;
  if (optind >= argc)
    return mv_cli_error("benchgen", "expected a trace folder (see --help)");
  o->dir = argv[optind], o->dirs = argv + optind, o->ndirs = argc - optind;
  if (o->ndirs > 1 && (o->print || o->compare))
    return mv_cli_error("benchgen", "--print and --compare take one trace folder");
  return 0;
}

static int load(const char *dir, struct mv_mvt *t)
{
  char path[4096];
  struct mv_error e;
  struct stat st;
  if (stat(dir, &st) == 0 && S_ISDIR(st.st_mode))
    snprintf(path, sizeof path, "%s/compressed.mvt", dir);
  else
    snprintf(path, sizeof path, "%s", dir);
  int rc = mv_mvt_read(path, t, &e);
  if (rc == MV_ENOENT)
    return mv_cli_error("benchgen", "%s: no compressed trace (trace with mpivet trace; "
                        "MPIVET_TRACE_FORMAT must include mvt)", path);
  return rc ? mv_cli_fail_error("benchgen", &e) : 0;
}

struct emit {
  const struct mv_mvt *const *t;
  size_t n;
  const struct mv_benchgen_opts *gen;
  struct mv_error *err;
};

static int emit(FILE *fp, void *arg)
{
  const struct emit *e = arg;
  return e->n == 1 ? mv_benchgen_emit(e->t[0], e->gen, fp, e->err)
                   : mv_benchgen_emit_scaled(e->t, e->n, e->gen, fp, e->err);
}

static int generate(const struct opts *o, const struct mv_mvt *const *t, size_t n)
{
  struct mv_error err;
  mv_error_clear(&err);
  struct emit e = {t, n, &o->gen, &err};
  int rc = !o->out  ? emit(stdout, &e)
           : o->force ? mv_cli_write_file("benchgen", o->out, emit, &e)
                      : mv_cli_write_new_file("benchgen", o->out, "--force to replace it", emit, &e);
  if (rc < 0) {
    mv_error_ensure(&err, rc, NULL);
    return mv_cli_fail_error("benchgen", &err);
  }
  return rc ? rc : mv_cli_finish(MV_EXIT_OK);
}

static int compare(const struct opts *o, const struct mv_mvt *a)
{
  struct mv_mvt b;
  int rc = load(o->compare, &b);
  if (rc)
    return rc;
  char msg[1024] = "";
  uint64_t calls = 0;
  rc = mv_benchgen_compare(a, &b, &calls, msg, sizeof msg);
  if (rc == 1)
    fprintf(stderr, "mpivet benchgen: the calls differ: %s\n", msg);
  else if (rc == 0) {
    double x = (double)a->elapsed_ns / 1e9, y = (double)b.elapsed_ns / 1e9;
    printf("same calls: %llu calls on %u ranks; longest span %.6f s against %.6f s (%+.2f %%)\n",
           (unsigned long long)calls, (unsigned)a->nranks, x, y, x > 0 ? 100 * (y - x) / x : 0.0);
  }
  mv_mvt_release(&b);
  if (rc < 0)
    return mv_cli_fail("benchgen", rc, "%s", mv_strerror(rc));
  return rc ? MV_EXIT_VERDICT : mv_cli_finish(MV_EXIT_OK);
}

/* The matching check of one trace: 0 to go on, or the exit code. */
static int check(const struct opts *o, const char *dir, const struct mv_mvt *t)
{
  char msg[1024] = "";
  int rc = o->check ? mv_benchgen_check(t, 2000000000ull, msg, sizeof msg) : 0;
  if (rc == 1) {
    fprintf(stderr, "mpivet benchgen: %s: %s\n", dir, msg);
    return MV_EXIT_VERDICT;
  }
  if (rc == MV_ERANGE)
    fprintf(stderr, "mpivet benchgen: %s: not checked: %s\n", dir, msg);
  else if (rc)
    return mv_cli_fail("benchgen", rc, "%s: %s", dir, msg);
  return 0;
}

/* Repeated runs at one count: the benchmark of the run of the median span. */
static int generate_median(const struct opts *o, const struct mv_mvt *const *t)
{
  struct mv_error err;
  size_t k = 0;
  mv_error_clear(&err);
  int rc = mv_benchgen_median_run(t, (size_t)o->ndirs, &k, &err);
  if (rc)
    return mv_cli_fail_error("benchgen", &err);
  fprintf(stderr, "mpivet benchgen: %d runs of %u ranks, spans", o->ndirs, (unsigned)t[0]->nranks);
  for (int i = 0; i < o->ndirs; i++)
    fprintf(stderr, " %.6f", (double)t[i]->elapsed_ns / 1e9);
  fprintf(stderr, " s: generated from %s (the median, %.6f s)\n", o->dirs[k],
          (double)t[k]->elapsed_ns / 1e9);
  return (rc = check(o, o->dirs[k], t[k])) ? rc : generate(o, t + k, 1);
}

/* Traces at several process counts: loaded, checked, one benchmark for any count; or repeated
 * runs at one count (every trace of the first one's size). */
static int generate_scaled(const struct opts *o)
{
  struct mv_mvt *t = calloc((size_t)o->ndirs, sizeof *t);
  const struct mv_mvt **pt = calloc((size_t)o->ndirs, sizeof *pt);
  int rc = t && pt ? 0 : mv_cli_fail("benchgen", MV_ENOMEM, "%s", mv_strerror(MV_ENOMEM)), n = 0;
  int same = 1;
  for (; !rc && n < o->ndirs; n++) {
    if ((rc = load(o->dirs[n], &t[n])) != 0)
      break;
    pt[n] = &t[n];
    same &= t[n].nranks == t[0].nranks;
  }
  if (!rc && same)
    rc = generate_median(o, pt);
  for (int i = 0; !rc && !same && i < n; i++)
    rc = check(o, o->dirs[i], &t[i]);
  if (!rc && !same)
    rc = generate(o, pt, (size_t)o->ndirs);
  for (int i = 0; i < n && t; i++)
    mv_mvt_release(&t[i]);
  free(t);
  free(pt);
  return rc;
}

int cmd_benchgen(int argc, char **argv)
{
  struct opts o = {.check = 1, .gen = {1, 1, NULL}};
  int rc = parse(argc, argv, &o);
  if (rc)
    return rc == MV_CLI_HELP ? mv_cli_finish(MV_EXIT_OK) : rc;
  if (o.ndirs > 1)
    return generate_scaled(&o);
  struct mv_mvt t;
  if ((rc = load(o.dir, &t)) != 0)
    return rc;
  if (o.compare) {
    rc = compare(&o, &t);
    mv_mvt_release(&t);
    return rc;
  }
  if (o.print) {
    rc = mv_mvt_print(&t, stdout);
    mv_mvt_release(&t);
    return rc ? mv_cli_fail("benchgen", rc, "stdout: %s", mv_strerror(rc)) : mv_cli_finish(MV_EXIT_OK);
  }
  const struct mv_mvt *pt = &t;
  if ((rc = check(&o, o.dir, &t)) == 0)
    rc = generate(&o, &pt, 1);
  mv_mvt_release(&t);
  return rc;
}
