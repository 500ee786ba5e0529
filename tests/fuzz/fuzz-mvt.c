/* libFuzzer target: the compressed-trace reader (src/benchgen/mvt-read.c) must accept or refuse
 * any bytes cleanly; what it accepts must dump, check and generate without crashing (the check
 * and the generator refuse what they cannot replay, with an error value). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "mpivet/benchgen.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  struct mv_mvt t;
  char err[512];
  if (mv_mvt_parse(data, size, &t, NULL) != 0)
    return 0;
  char *buf = NULL;
  size_t len = 0;
  FILE *fp = open_memstream(&buf, &len);
  if (fp) {
    mv_mvt_print(&t, fp);
    if (t.nranks <= 256)
      mv_benchgen_check(&t, 100000, err, sizeof err);
    struct mv_benchgen_opts o = {1, 1, "all"};
    mv_benchgen_emit(&t, &o, fp, NULL);
    fclose(fp);
    free(buf);
  }
  mv_mvt_release(&t);
  return 0;
}
