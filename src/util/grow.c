/* Array growth by doubling and whole-stream and whole-file reads (see include/mpivet/grow.h). */
#include "mpivet/grow.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "mpivet/error.h"

int mv_grow(void *ptr, size_t *cap, size_t need, size_t elem, size_t min_cap)
{
  if (need <= *cap)
    return 0;
  size_t n = *cap ? *cap : (min_cap ? min_cap : 1);
  while (n < need) {
    if (n > SIZE_MAX / 2)
      return MV_ENOMEM;
    n *= 2;
  }
  if (elem && n > SIZE_MAX / elem)
    return MV_ENOMEM;
  void **p = ptr;
  void *bigger = realloc(*p, n * elem);
  if (!bigger)
    return MV_ENOMEM;
  *p = bigger;
  *cap = n;
  return 0;
}

int mv_grow_implied(void *ptr, size_t n, size_t need, size_t elem)
{
  size_t cap = n ? 1 : 0;
  while (cap < n)
    cap *= 2;
  return mv_grow(ptr, &cap, need, elem, 1);
}

int mv_read_stream(FILE *fp, char **buf, size_t *len)
{
  char *text = NULL;
  size_t n = 0, cap = 0, got;
  struct stat st;
  size_t limit = fstat(fileno(fp), &st) == 0 && S_ISREG(st.st_mode) ? SIZE_MAX : MV_READ_STREAM_MAX;
  do {
    if (n > limit) {
      free(text);
      return MV_ERANGE;
    }
    if (mv_grow(&text, &cap, n + 65536 + 1, 1, 65536) < 0) {
      free(text);
      return MV_ENOMEM;
    }
    got = fread(text + n, 1, cap - n - 1, fp);
    n += got;
  } while (got > 0);
  if (ferror(fp)) {
    free(text);
    return MV_EIO;
  }
  text[n] = '\0';
  *buf = text;
  *len = n;
  return 0;
}

int mv_read_file(const char *path, size_t max, char **buf, size_t *len, struct mv_error *e)
{
  FILE *fp = fopen(path, "rb");
  if (!fp)
    return mv_error_set(e, errno == ENOENT ? MV_ENOENT : MV_EIO, path, 0, 0, "%s", strerror(errno));
  struct stat st;   /* a regular file too large is refused before it is read */
  if (max && fstat(fileno(fp), &st) == 0 && S_ISREG(st.st_mode) && (uintmax_t)st.st_size > max) {
    fclose(fp);
    return mv_error_set(e, MV_ERANGE, path, 0, 0, "larger than %zu bytes", max);
  }
  int rc = mv_read_stream(fp, buf, len);
  fclose(fp);
  if (rc == 0 && max && *len > max) {
    free(*buf);
    *buf = NULL;
    return mv_error_set(e, MV_ERANGE, path, 0, 0, "larger than %zu bytes", max);
  }
  if (rc == MV_ERANGE)
    return mv_error_set(e, rc, path, 0, 0, "not a regular file, and longer than %zu bytes",
                        MV_READ_STREAM_MAX);
  if (rc)
    return mv_error_set(e, rc, path, 0, 0, "%s", rc == MV_EIO ? "read error" : mv_strerror(rc));
  return 0;
}

int mv_parse_file(const char *path, size_t max, mv_text_parser *parse, void *ctx,
                  struct mv_error *e)
{
  char *text = NULL;
  size_t len = 0;
  int rc = mv_read_file(path, max, &text, &len, e);
  if (rc == 0)
    rc = parse(ctx, path, text, len, e);
  free(text);
  return rc;
}
