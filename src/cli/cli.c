/* Helpers shared by every command: error messages in the `mpivet <cmd>: ...` form, option
 * errors, number parsing and the final stdout check. */
#include "cli.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mpivet/bench.h"
#include "mpivet/error.h"

static void vreport(const char *cmd, const char *fmt, va_list ap)
{
  fprintf(stderr, "mpivet %s: ", cmd);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
}

int mv_cli_error(const char *cmd, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  vreport(cmd, fmt, ap);
  va_end(ap);
  return MV_EXIT_USAGE;
}

int mv_cli_fail(const char *cmd, int err, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  vreport(cmd, fmt, ap);
  va_end(ap);
  return err == MV_EEXTERN ? MV_EXIT_EXTERNAL : MV_EXIT_USAGE;
}

int mv_cli_bad_option(const char *cmd, char **argv, int optopt)
{
  extern int optind;
  const char *arg = optind > 0 ? argv[optind - 1] : NULL;
  if (arg && strncmp(arg, "--", 2) == 0) {
    /* A long option: optopt is its code (not a character) when it is known. */
    int n = (int)strcspn(arg, "=");
    if (!optopt)
      return mv_cli_error(cmd, "unknown option %.*s (see mpivet %s --help)", n, arg, cmd);
    return mv_cli_error(cmd, "option %.*s %s (see mpivet %s --help)", n, arg,
                        arg[n] == '=' ? "takes no value" : "needs a value", cmd);
  }
  if (optopt > 0 && optopt < 128 && isgraph(optopt))
    return mv_cli_error(cmd, "option -%c needs a value or is unknown (see mpivet %s --help)",
                        optopt, cmd);
  return mv_cli_error(cmd, "unknown option or missing value: %s (see mpivet %s --help)",
                      arg ? arg : "?", cmd);
}

int mv_cli_check_ops(const char *cmd, const char *arg, int sized)
{
  char buf[4096], *save = NULL;
  if (!*arg || strlen(arg) >= sizeof buf)
    return mv_cli_error(cmd, "--ops: expected a list of at most %zu bytes, got %zu", sizeof buf - 1,
                        strlen(arg));
  snprintf(buf, sizeof buf, "%s", arg);
  for (char *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
    if (sized)
      t[strcspn(t, "@")] = '\0';
    if (!mv_bench_op_known(t))
      return mv_cli_error(cmd, "--ops: unknown operation \"%s\" (an MPI collective such as "
                          "MPI_Bcast, a mock-up id such as allreduce_as_reduce_bcast, "
                          "bcast_as_binomial, pingpong, or all|collectives|mockups|memory)", t);
  }
  return 0;
}

int mv_cli_is_help(const char *arg)
{
  return arg && (strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0);
}

int mv_cli_parse_long(const char *s, long *out)
{
  char *end;
  errno = 0;
  long v = strtol(s, &end, 10);
  if (errno || end == s || *end)
    return MV_EPARSE;
  *out = v;
  return 0;
}

int mv_cli_parse_double(const char *s, double *out)
{
  char *end;
  errno = 0;
  double v = strtod(s, &end);
  if (errno || end == s || *end)
    return MV_EPARSE;
  *out = v;
  return 0;
}

int mv_cli_finish(int code)
{
  if (fflush(stdout) != 0 || ferror(stdout)) {
    fprintf(stderr, "mpivet: error writing standard output: %s\n", strerror(errno));
    return MV_EXIT_USAGE;
  }
  return code;
}
