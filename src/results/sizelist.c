/* Comma lists of message sizes in bytes (include/mpivet/sizelist.h): mpivet-bench's --msizes
 * and `mpivet bench`, which checks the list before launching and picks SMPI settings from
 * it. Items are plain decimal integers; no signs, blanks or units. */
#include "mpivet/sizelist.h"

#include <stdio.h>
#include <string.h>

#include "mpivet/error.h"

int mv_size_list_parse(const char *text, int64_t *out, size_t cap, size_t *n, char *bad,
                       size_t badsize)
{
  *n = 0;
  for (const char *p = text;; p++) {
    size_t len = strcspn(p, ",");
    int64_t v = 0;
    size_t i = 0;
    for (; i < len && p[i] >= '0' && p[i] <= '9' && v <= MV_SIZE_LIST_MAX_BYTES; i++)
      v = v * 10 + (p[i] - '0');
    if (len == 0 || i < len || v > MV_SIZE_LIST_MAX_BYTES) {
      if (bad && badsize)
        snprintf(bad, badsize, "%.*s", (int)len, p);
      return MV_EPARSE;
    }
    if (*n == cap)
      return MV_ERANGE;
    out[(*n)++] = v;
    p += len;
    if (!*p)
      return 0;
  }
}
