/* libFuzzer target: the calibration readers (mpivet-calib's CSV, calibration.json's member
 * scanner and its "windows" reader) must accept or reject any input cleanly; accepted
 * measurements must fit or fail with an error value, never crash. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpivet/calib.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  char *text = malloc(size + 1), v[64];
  if (!text)
    return 0;
  memcpy(text, data, size);
  text[size] = '\0';
  mv_calib_json_member(text, "format", v, sizeof v);
  mv_calib_json_member(text, "version", v, sizeof v);
  struct mv_calib_windows w;
  if (mv_calib_json_windows(text, &w) == 0)
    for (int i = 0; i < MV_CALIB_NWIN; i++)
      mv_piecewise_eval(&w.fit[i], 4096);
  FILE *fp = fmemopen(text, size ? size : 1, "r");
  struct mv_calib_data d;
  mv_calib_data_init(&d);
  if (fp && mv_calib_data_read(fp, "fuzz.csv", &d, NULL) == 0) {
    struct mv_calibration c = {.family = 2, .noise = 2};
    mv_calib_fit_network(&d, &c);
    mv_calib_fit_kernels(&d, &c);
  }
  if (fp)
    fclose(fp);
  mv_calib_data_release(&d);
  free(text);
  return 0;
}
