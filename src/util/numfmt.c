/* Round-trip number formatting shared by every writer (results.csv, Extra-P text, JSON). */
#include "mpivet/numfmt.h"

#include <stdio.h>
#include <stdlib.h>

char *mv_numfmt(double v, char *buf)
{
  for (int digits = 15; digits <= 17; digits++) {
    snprintf(buf, MV_NUMFMT_SIZE, "%.*g", digits, v);
    if (strtod(buf, NULL) == v)
      break;
  }
  return buf;
}
