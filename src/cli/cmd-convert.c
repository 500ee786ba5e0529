/* `mpivet convert`: results.csv <-> Extra-P text. The input format is detected from its first
 * word, the output format from --to or the output's extension; output is written to a temporary
 * file and renamed, so a failed conversion leaves no half-written file. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "mpivet/paths.h"
#include "mpivet/convert.h"
#include "mpivet/error.h"
#include "mpivet/extrap.h"

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

static int detect_input(const char *path, enum fmt *out)
{
  if (access(path, R_OK) != 0)
    return MV_ENOENT;
  *out = mv_extrap_sniff(path) ? FMT_EXTRAP : FMT_CSV;
  return 0;
}

/* convert reports every input and output failure as a usage error (exit 2). */
static int failed(const struct mv_error *e)
{
  char text[MV_ERROR_TEXT_SIZE];
  return mv_cli_error("convert", "%s", mv_error_text(e, text, sizeof text));
}

static int csv_to_extrap(const char *in, const char *out, const struct mv_convert_options *opt)
{
  struct mv_extrap x;
  struct mv_error e;
  mv_extrap_init(&x);
  int rc = mv_convert_results_to_extrap(in, opt, &x, &e);
  if (rc == 0) {
    errno = 0;
    rc = strcmp(out, "-") == 0 ? mv_extrap_write(&x, NULL, stdout) : mv_extrap_write(&x, out, NULL);
    if (rc == MV_EINVAL)
      mv_error_set(&e, rc, NULL, 0, 0, "some kernel has no values at some point: the Extra-P text "
                   "format needs every kernel measured at every point");
    else if (rc < 0)
      mv_error_set(&e, rc, NULL, 0, 0, "cannot write %s: %s", out, mv_cli_reason(rc));
  }
  mv_extrap_release(&x);
  return rc < 0 ? failed(&e) : MV_EXIT_OK;
}

static int extrap_to_csv(const char *in, const char *out)
{
  struct mv_extrap x;
  struct mv_results_writer *w = NULL;
  struct mv_error e;
  mv_extrap_init(&x);
  int rc = mv_extrap_read(&x, in, &e);
  if (rc == 0) {
    errno = 0;
    rc = strcmp(out, "-") == 0 ? mv_results_writer_open_stream(&w, stdout)
                               : mv_results_writer_open(&w, out, MV_RESULTS_ATOMIC);
    if (rc < 0)
      mv_error_set(&e, rc, NULL, 0, 0, "cannot write %s: %s", out, mv_cli_reason(rc));
  }
  if (rc == 0)
    rc = mv_convert_extrap_to_results(&x, w, &e);
  int crc = mv_results_writer_close(w, rc == 0);
  if (rc == 0 && crc < 0)
    rc = mv_error_set(&e, crc, NULL, 0, 0, "cannot write %s: %s", out, mv_cli_reason(crc));
  mv_extrap_release(&x);
  return rc < 0 ? failed(&e) : MV_EXIT_OK;
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
  enum fmt from;
  if (detect_input(in, &from) < 0)
    return mv_cli_error("convert", "%s: cannot open", in);
  size_t len = strlen(out);
  enum fmt dest = to ? (strcmp(to, "csv") == 0 ? FMT_CSV : FMT_EXTRAP)
                     : (len >= 4 && strcmp(out + len - 4, ".csv") == 0 ? FMT_CSV : FMT_EXTRAP);
  if (dest == from)
    return mv_cli_error("convert", "%s is already in the %s format", in, from == FMT_CSV ? "csv" : "extrap");
  struct stat si, so;
  if (!mv_path_is_special(out) && stat(out, &so) == 0) {
    /* Never replace a file convert did not create, least of all its own input. */
    int same = stat(in, &si) == 0 && si.st_dev == so.st_dev && si.st_ino == so.st_ino;
    return mv_cli_error("convert", "%s: %s: choose another output name", out,
                        same ? "is the input file" : "already exists");
  }
  return from == FMT_CSV ? csv_to_extrap(in, out, &a.copt) : extrap_to_csv(in, out);
}
