/* `mpivet convert`: results.csv <-> Extra-P text. The input format is detected from its first
 * word, the output format from --to or the output's extension. The input is read once, whole
 * (a pipe can be read only once); the output is a new file written to a temporary and linked
 * into place without replacing anything (util/atomic.c), so a failed conversion leaves no
 * half-written file and of two conversions into one new file the second is refused. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "mpivet/paths.h"
#include "mpivet/convert.h"
#include "mpivet/error.h"
#include "mpivet/extrap.h"
#include "mpivet/grow.h"

static const char usage[] =
  "usage: mpivet convert INPUT -o OUTPUT [--to csv|extrap] [--library NAME]\n"
  "\n"
  "Convert between results.csv and the Extra-P text format (PARAMETER/POINTS/REGION/METRIC/DATA).\n"
  "The input format is detected from its content; the output format comes from --to, else from\n"
  "OUTPUT's extension (.csv: results.csv, anything else: Extra-P text). OUTPUT '-' is stdout.\n"
  "\n"
  "  -o, --output FILE   where to write (required)\n"
  "      --to FORMAT     csv or extrap\n"
  "      --library NAME  with results.csv input: keep only this library's rows\n"
  "  -h, --help          this text\n"
  "\n"
  "results.csv -> Extra-P: one region per op (op:impl for mock-ups) and metric; parameter p\n"
  "(nprocs), plus msize when several message sizes are present; rows with valid=0 are left out.\n"
  "Extra-P -> results.csv: a parameter named p/nprocs/np is nprocs, msize/size/bytes is msize\n"
  "(else by position); values keep their order as rep; run is 0 and engine 'extrap'.\n";

enum fmt { FMT_CSV, FMT_EXTRAP };

/* convert reports every input and output failure as a usage error (exit 2). */
static int failed(const struct mv_error *e)
{
  char text[MV_ERROR_TEXT_SIZE];
  return mv_cli_error("convert", "%s", mv_error_text(e, text, sizeof text));
}

struct job {
  const char *out;
  struct mv_extrap x;
  struct mv_error e;
};

static int emit_extrap(FILE *fp, void *arg)
{
  struct job *j = arg;
  int rc = mv_extrap_write(&j->x, NULL, fp);
  if (rc == MV_EINVAL)
    mv_error_set(&j->e, rc, NULL, 0, 0, "some kernel has no values at some point: the Extra-P text "
                 "format needs every kernel measured at every point");
  return rc;
}

static int emit_csv(FILE *fp, void *arg)
{
  struct job *j = arg;
  struct mv_results_writer *w = NULL;
  int rc = mv_results_writer_open_stream(&w, fp);
  if (rc == 0)
    rc = mv_convert_extrap_to_results(&j->x, w, &j->e);
  int crc = mv_results_writer_close(w, rc == 0);
  return rc ? rc : crc;
}

/* Write j->x to j->out (a new file, or stdout for "-"). The exit code. */
static int write_out(struct job *j, int (*emit)(FILE *fp, void *arg))
{
  errno = 0;
  int rc = strcmp(j->out, "-") == 0
               ? emit(stdout, j)
               : mv_cli_write_new_file("convert", j->out, "choose another output name", emit, j);
  if (rc > 0)
    return rc;   /* already said */
  if (rc < 0 && j->e.code == 0)
    mv_error_set(&j->e, rc, NULL, 0, 0, "cannot write %s: %s", j->out, mv_cli_reason(rc));
  return rc < 0 ? failed(&j->e) : MV_EXIT_OK;
}

/* The input was read once (a pipe can be read only once): converted from memory. */
static int convert(const char *in, const char *text, size_t len, enum fmt from, const char *out,
                   const struct mv_convert_options *opt)
{
  struct job j = {.out = out};
  mv_extrap_init(&j.x);
  mv_error_clear(&j.e);
  int rc = from == FMT_CSV ? mv_convert_results_to_extrap(in, text, len, opt, &j.x, &j.e)
                           : mv_extrap_parse(&j.x, in, text, len, &j.e);
  if (rc == 0) {
    mv_error_clear(&j.e);
    rc = write_out(&j, from == FMT_CSV ? emit_extrap : emit_csv);
  } else {
    rc = failed(&j.e);
  }
  mv_extrap_release(&j.x);
  return rc;
}

struct args {
  const char *out, *to;
  struct mv_convert_options copt;
};

static int option(void *ctx, int c, const char *arg)
{
  struct args *a = ctx;
  switch (c) {
  case 'o': a->out = arg; return 0;
  case 't': a->to = arg; return 0;
  case 'l': a->copt.library = arg; return 0;
  }
  return MV_EXIT_USAGE;
}

int cmd_convert(int argc, char **argv)
{
  static const struct option opts[] = {
    {"output", required_argument, NULL, 'o'}, {"to", required_argument, NULL, 't'},
    {"library", required_argument, NULL, 'l'}, {"help", no_argument, NULL, 'h'}, {0, 0, 0, 0}};
  struct args a = {0};
  int rc = mv_cli_options("convert", argc, argv, "o:h", opts, usage, option, &a);
  if (rc)
    return rc == MV_CLI_HELP ? mv_cli_finish(MV_EXIT_OK) : rc;
  const char *out = a.out, *to = a.to;
  if (optind != argc - 1)
    return mv_cli_error("convert", "expected exactly one INPUT file (see mpivet convert --help)");
  if (!out)
    return mv_cli_error("convert", "missing -o OUTPUT (see mpivet convert --help)");
  if (to && strcmp(to, "csv") != 0 && strcmp(to, "extrap") != 0)
    return mv_cli_error("convert", "--to expects csv or extrap, got \"%s\"", to);
  const char *in = argv[optind];
  size_t len = strlen(out);
  enum fmt dest = to ? (strcmp(to, "csv") == 0 ? FMT_CSV : FMT_EXTRAP)
                     : (len >= 4 && strcmp(out + len - 4, ".csv") == 0 ? FMT_CSV : FMT_EXTRAP);
  struct stat si, so;
  if (!mv_path_is_special(out) && stat(out, &so) == 0) {
    /* Never replace a file convert did not create, least of all its own input (the writer
     * refuses one that appears meanwhile: write_out). */
    int same = stat(in, &si) == 0 && si.st_dev == so.st_dev && si.st_ino == so.st_ino;
    return mv_cli_error("convert", "%s: %s: choose another output name", out,
                        same ? "is the input file" : "already exists");
  }
  char *text = NULL;
  struct mv_error e;
  if (mv_read_file(in, 0, &text, &len, &e) < 0)
    return failed(&e);
  enum fmt from = mv_extrap_sniff_text(text, len) ? FMT_EXTRAP : FMT_CSV;
  rc = dest == from ? mv_cli_error("convert", "%s is already in the %s format", in,
                                   from == FMT_CSV ? "csv" : "extrap")
                    : convert(in, text, len, from, out, &a.copt);
  free(text);
  return rc;
}
