/* libFuzzer target: the Extra-P text parser must accept or reject any input cleanly, and what
 * it accepts must write out and parse back. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "mpivet/extrap.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  struct mv_extrap x;
  mv_extrap_init(&x);
  if (mv_extrap_parse(&x, "fuzz.txt", (const char *)data, size, NULL) == 0) {
    char *buf = NULL;
    size_t len = 0;
    FILE *fp = open_memstream(&buf, &len);
    if (fp) {
      int rc = mv_extrap_write(&x, NULL, fp);
      fclose(fp);
      struct mv_extrap y;
      mv_extrap_init(&y);
      if (rc == 0 && mv_extrap_parse(&y, "again", buf, len, NULL) != 0)
        abort(); /* what we wrote must parse */
      mv_extrap_release(&y);
      free(buf);
    }
  }
  mv_extrap_release(&x);
  return 0;
}
