/* libFuzzer target: the results.csv reader must turn any byte sequence into rows or a clean
 * error, never a crash, leak or hang. */
#include <stdint.h>
#include <stdio.h>

#include "mpivet/error.h"
#include "mpivet/results.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  FILE *fp = fmemopen((void *)data, size ? size : 1, "r");
  if (!fp)
    return 0;
  if (size == 0) {
    fclose(fp);
    return 0;
  }
  struct mv_results_reader *r;
  struct mv_row row;
  int rc = mv_results_reader_open_stream(&r, fp, "fuzz.csv");
  while (rc == 0 && (rc = mv_results_reader_next(r, &row)) == 1)
    ;
  (void)mv_results_reader_error(r)->what;
  mv_results_reader_close(r);
  fclose(fp);
  return 0;
}
