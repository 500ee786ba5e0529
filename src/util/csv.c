/* CSV field splitting and quoting (RFC 4180) for results.csv: fields are split in place so a
 * row costs no allocation, and each field remembers its column for error messages. */
#include "csv.h"

#include <string.h>

#include "mpivet/error.h"

int mv__csv_split(char *line, struct mv__csv_fields *f, size_t *bad_col)
{
  char *p = line;
  f->n = 0;
  for (;;) {
    if (f->n == MV__CSV_MAX_FIELDS) {
      *bad_col = (size_t)(p - line) + 1;
      return MV_ERANGE;
    }
    f->column[f->n] = (size_t)(p - line) + 1;
    if (*p == '"') {
      /* Quoted field: unescape "" in place, the field ends at the closing quote. */
      char *out = p, *in = p + 1;
      f->field[f->n] = out;
      for (;;) {
        if (*in == '\0') {
          *bad_col = f->column[f->n];
          return MV_EPARSE;
        }
        if (*in == '"') {
          if (in[1] == '"') {
            *out++ = '"';
            in += 2;
            continue;
          }
          in++;
          break;
        }
        *out++ = *in++;
      }
      if (*in != ',' && *in != '\0') {
        *bad_col = (size_t)(in - line) + 1;
        return MV_EPARSE;
      }
      *out = '\0';
      f->n++;
      if (*in == '\0')
        return 0;
      p = in + 1;
      continue;
    }
    f->field[f->n++] = p;
    char *comma = strchr(p, ',');
    if (!comma)
      return 0;
    *comma = '\0';
    p = comma + 1;
  }
}

int mv__csv_quote(const char *s, char *buf, size_t size)
{
  int needs = s[0] == ' ' || (s[0] && s[strlen(s) - 1] == ' ') || strpbrk(s, ",\"\r\n") != NULL;
  size_t o = 0;
  if (!needs) {
    size_t len = strlen(s);
    if (len + 1 > size)
      return -1;
    memcpy(buf, s, len + 1);
    return (int)len;
  }
  if (size < 3)
    return -1;
  buf[o++] = '"';
  for (; *s; s++) {
    if (o + 3 >= size)
      return -1;
    if (*s == '"')
      buf[o++] = '"';
    buf[o++] = *s;
  }
  buf[o++] = '"';
  buf[o] = '\0';
  return (int)o;
}
