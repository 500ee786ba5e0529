/* `mpivet analyze` in a build without OTF2: the analyzer is not compiled in, so the command
 * explains how to get it (`--help` still works, as for every command). */
#include <stdio.h>

#include "../cli.h"

int cmd_analyze(int argc, char **argv)
{
  if (argc > 1 && mv_cli_is_help(argv[1])) {
    puts("usage: mpivet analyze TRACE [--json] [--top N] [--cube FILE]\n\n"
         "This build has no OTF2: install libopen-trace-format2-dev and rebuild to analyze traces.");
    return MV_EXIT_OK;
  }
  return mv_cli_error("analyze", "this build has no OTF2 support (apt-get install "
                      "libopen-trace-format2-dev, then rebuild)");
}
