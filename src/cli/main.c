/* mpivet's entry point: git-style dispatch of `mpivet <command> [options]` through the
 * table in commands.def, plus --help and --version at the top level. */
#include <stdio.h>
#include <string.h>

#include <gsl/gsl_errno.h>

#include "cli.h"

struct command {
  const char *name;
  int (*fn)(int argc, char **argv);
  const char *summary;
};

static const struct command commands[] = {
#define MV_COMMAND(name, summary) {#name, cmd_##name, summary},
#include "commands.def"
#undef MV_COMMAND
};

static void usage(FILE *fp)
{
  fprintf(fp, "usage: mpivet <command> [options]\n"
              "       mpivet --help | --version\n\n"
              "MPI performance validation: benchmarks, scaling models, guidelines, traces.\n\n"
              "commands:\n");
  for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
    fprintf(fp, "  %-11s %s\n", commands[i].name, commands[i].summary);
  fprintf(fp, "\n`mpivet <command> --help` describes each command.\n"
              "exit codes: 0 ok, 1 a verdict failed, 2 usage or input error, "
              "3 an external program failed\n");
}

int main(int argc, char **argv)
{
  /* GSL's default handler aborts; mpivet checks GSL's return values instead. */
  gsl_set_error_handler_off();
  if (argc < 2) {
    usage(stderr);
    return MV_EXIT_USAGE;
  }
  const char *name = argv[1];
  if (mv_cli_is_help(name) || strcmp(name, "help") == 0) {
    usage(stdout);
    return mv_cli_finish(MV_EXIT_OK);
  }
  if (strcmp(name, "--version") == 0 || strcmp(name, "version") == 0) {
    printf("mpivet %s (git %s)\n", MV_VERSION, MV_GIT_REVISION);
    return mv_cli_finish(MV_EXIT_OK);
  }
  for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
    if (strcmp(commands[i].name, name) == 0)
      return mv_cli_finish(commands[i].fn(argc - 1, argv + 1));
  fprintf(stderr, "mpivet: '%s' is not a command (see mpivet --help)\n", name);
  return MV_EXIT_USAGE;
}
