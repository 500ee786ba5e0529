/* `mpivet bench`: placeholder until the component lands; it says so and exits 2.
 * The real command replaces this file. */
#include <stdio.h>

#include "cli.h"

int cmd_bench(int argc, char **argv)
{
  (void)argc;
  (void)argv;
  return mv_cli_error("bench", "not implemented in this build yet");
}
