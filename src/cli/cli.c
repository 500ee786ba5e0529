/* Helpers shared by every command: error messages in the `mpivet <cmd>: ...` form, option
 * errors, number parsing and the final stdout check. */
#include "cli.h"

#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <math.h>
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

int mv_cli_fail_error(const char *cmd, const struct mv_error *e)
{
  char text[MV_ERROR_TEXT_SIZE];
  return mv_cli_fail(cmd, e->code, "%s", mv_error_text(e, text, sizeof text));
}

/* The long name of short option c, or NULL. */
static const char *long_name(const struct option *longopts, int c)
{
  for (const struct option *o = longopts; o && o->name; o++)
    if (!o->flag && o->val == c)
      return o->name;
  return NULL;
}

/* The message for a getopt_long failure: ret is ':' (missing value) or '?' (anything else). */
static int bad_option(const char *cmd, char **argv, const struct option *longopts, int ret)
{
  const char *arg = optind > 0 ? argv[optind - 1] : NULL;
  if (arg && strncmp(arg, "--", 2) == 0) {
    int n = (int)strcspn(arg, "=");
    if (ret == ':')
      return mv_cli_error(cmd, "option %.*s needs a value (see mpivet %s --help)", n, arg, cmd);
    /* optopt is the option's code when the name was known, so the value was the fault. */
    if (optopt)
      return mv_cli_error(cmd, "option %.*s takes no value (see mpivet %s --help)", n, arg, cmd);
    return mv_cli_error(cmd, "unknown option %.*s (see mpivet %s --help)", n, arg, cmd);
  }
  if (optopt > 0 && optopt < 128 && isgraph(optopt)) {
    const char *name = long_name(longopts, optopt);
    if (ret == ':')
      return mv_cli_error(cmd, "option -%c%s%s%s needs a value (see mpivet %s --help)", optopt,
                          name ? " (--" : "", name ? name : "", name ? ")" : "", cmd);
    return mv_cli_error(cmd, "unknown option -%c (see mpivet %s --help)", optopt, cmd);
  }
  return mv_cli_error(cmd, "unknown option %s (see mpivet %s --help)", arg ? arg : "?", cmd);
}

int mv_cli_getopt(const char *cmd, int argc, char **argv, const char *shortopts,
                  const struct option *longopts, int *longindex)
{
  /* A leading ':' (after a '+', which must come first) makes getopt tell a missing value (':')
   * from an unknown option ('?'). */
  char spec[64];
  int plus = shortopts[0] == '+';
  snprintf(spec, sizeof spec, "%s:%s", plus ? "+" : "", shortopts + plus);
  opterr = 0;
  int c = getopt_long(argc, argv, spec, longopts, longindex);
  if (c == '?' || c == ':') {
    bad_option(cmd, argv, longopts, c);
    return '?';
  }
  return c;
}

int mv_cli_options(const char *cmd, int argc, char **argv, const char *shortopts,
                   const struct option *longopts, const char *usage,
                   int (*fn)(void *ctx, int c, const char *arg), void *ctx)
{
  int c, rc = 0;
  while (!rc && (c = mv_cli_getopt(cmd, argc, argv, shortopts, longopts, NULL)) != -1) {
    if (c == 'h') {
      fputs(usage, stdout);
      return MV_CLI_HELP;
    }
    rc = c == '?' ? MV_EXIT_USAGE : fn(ctx, c, optarg);
  }
  return rc;
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
  if (errno || end == s || *end || !isfinite(v))   /* nan and inf are no option values */
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
