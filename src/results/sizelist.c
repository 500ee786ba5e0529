/* The message-size vocabulary (include/mpivet/sizelist.h): size specs ("800" total, "800p" per
 * process) of plans and expectation files, and comma lists of sizes in bytes for mpivet-bench's
 * --msizes and `mpivet bench`, which checks the list before launching and picks SMPI settings
 * from it. List items are plain decimal integers; no signs, blanks or units. */
#include "mpivet/sizelist.h"

#include <ctype.h>
#include <inttypes.h>
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

static int size_fail(size_t *errcol, size_t col, char *msg, size_t msgsize, const char *text,
                     size_t len)
{
  char got[32];
  snprintf(got, sizeof got, col < len ? "'%c'" : "end of text", col < len ? text[col] : ' ');
  *errcol = col;
  snprintf(msg, msgsize, "expected a size in bytes such as 800 (total) or 800p (per process), "
           "got %s", got);
  return MV_EPARSE;
}

int mv_msize_spec_parse(const char *text, size_t len, struct mv_msize_spec *out, size_t *errcol,
                        char *msg, size_t msgsize)
{
  size_t i = 0;
  int64_t v = 0;
  memset(out, 0, sizeof *out);
  for (; i < len && isdigit((unsigned char)text[i]); i++)
    if ((v = v * 10 + (text[i] - '0')) > MV_MSIZE_MAX) {
      *errcol = 0;
      snprintf(msg, msgsize, "expected a size of at most %" PRId64 " bytes", MV_MSIZE_MAX);
      return MV_EPARSE;
    }
  int pp = i > 0 && i < len && text[i] == 'p';
  if (i == 0 || i + (size_t)pp < len)
    return size_fail(errcol, i + (size_t)pp, msg, msgsize, text, len);
  if (pp && v == 0) {
    *errcol = 0;
    snprintf(msg, msgsize, "expected a size per process > 0, got \"0p\"");
    return MV_EPARSE;
  }
  out->bytes = v;
  out->per_process = pp;
  return 0;
}

int mv_msize_spec_format(const struct mv_msize_spec *s, char *buf, size_t size)
{
  int n = snprintf(buf, size, "%" PRId64 "%s", s->bytes, s->per_process ? "p" : "");
  return n < 0 || (size_t)n >= size ? MV_ERANGE : 0;
}

int64_t mv_msize_spec_total(const struct mv_msize_spec *s, int nprocs)
{
  return s->per_process ? s->bytes * (int64_t)nprocs : s->bytes;
}

int mv_msize_spec_equal(const struct mv_msize_spec *a, const struct mv_msize_spec *b)
{
  return a->bytes == b->bytes && !a->per_process == !b->per_process;
}

int mv_msize_spec_has(const struct mv_msize_spec *s, int64_t msize, int nprocs)
{
  return msize == mv_msize_spec_total(s, nprocs);
}
