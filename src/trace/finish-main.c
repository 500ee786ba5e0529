/* mpivet-trace-finish DIR: builds the OTF2 archive from the raw per-rank files left in
 * DIR/mpivet-raw when the application did not reach MPI_Finalize (crash, MPI_Abort, kill).
 * `mpivet trace` runs it automatically when the archive is missing after the run (finish.c). */
#include <stdio.h>
#include <string.h>

#include "archive.h"

int main(int argc, char **argv)
{
  if (argc != 2 || strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
    fprintf(stderr, "usage: mpivet-trace-finish DIR\n"
                    "Build DIR/traces.otf2 from the raw files an interrupted traced run left in "
                    "DIR/mpivet-raw.\n");
    return argc == 2 ? 0 : 2;
  }
  char msg[4096];
  int rc = mv__finish_dir(argv[1], msg, sizeof msg);
  fprintf(stderr, "mpivet-trace-finish: %s\n", msg);
  return rc;
}
