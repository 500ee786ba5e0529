/* Text for the error values of include/mpivet/error.h, produced from the same X-macro list, and
 * the error context (struct mv_error). */
#include "mpivet/error.h"

#include <stdarg.h>
#include <stdio.h>

const char *mv_strerror(int err)
{
  switch (err) {
  case MV_OK: return "success";
#define XX(code, text) case MV_E##code: return text;
  MV_ERRNO_MAP(XX)
#undef XX
  default: return "unknown error";
  }
}

int mv_error_set(struct mv_error *e, int code, const char *file, long line, long column,
                 const char *fmt, ...)
{
  if (!e)
    return code;
  e->code = code;
  e->where[0] = '\0';
  if (file && line > 0 && column > 0)
    snprintf(e->where, sizeof e->where, "%s:%ld:%ld", file, line, column);
  else if (file && line > 0)
    snprintf(e->where, sizeof e->where, "%s:%ld", file, line);
  else if (file)
    snprintf(e->where, sizeof e->where, "%s", file);
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(e->what, sizeof e->what, fmt, ap);
  va_end(ap);
  return code;
}

void mv_error_clear(struct mv_error *e)
{
  if (e) {
    e->code = 0;
    e->where[0] = e->what[0] = '\0';
  }
}

int mv_error_ensure(struct mv_error *e, int code, const char *file)
{
  if (e && code < 0 && e->code == 0)
    mv_error_set(e, code, file, 0, 0, "%s", mv_strerror(code));
  return code;
}

const char *mv_error_text(const struct mv_error *e, char *buf, size_t size)
{
  if (e->where[0])
    snprintf(buf, size, "%s: %s", e->where, e->what);
  else
    snprintf(buf, size, "%s", e->what);
  return buf;
}
