/* Streaming JSON writer: tracks nesting and commas so callers write values in order; strings
 * are escaped per RFC 8259 and numbers round-trip (NaN and infinities become null). */
#include "mpivet/json.h"

#include <math.h>
#include <string.h>

#include "mpivet/error.h"
#include "mpivet/numfmt.h"

void mv_json_init(struct mv_json *j, FILE *fp, int pretty)
{
  memset(j, 0, sizeof *j);
  j->fp = fp;
  j->pretty = pretty;
}

static const struct {
  const char *name;
  int version;
} formats[] = {
#define XX(id, name, version) {name, version},
  MV_JSON_FORMATS(XX)
#undef XX
};

const char *mv_json_format_name(enum mv_json_format f)
{
  return formats[f].name;
}

void mv_json_document_begin(struct mv_json *j, FILE *fp, int pretty, enum mv_json_format f)
{
  mv_json_init(j, fp, pretty);
  mv_json_object_begin(j);
  mv_json_kv_string(j, "format", formats[f].name);
  mv_json_kv_int(j, "version", formats[f].version);
}

static void indent(struct mv_json *j)
{
  if (!j->pretty)
    return;
  fputc('\n', j->fp);
  for (int i = 0; i < j->depth; i++)
    fputs("  ", j->fp);
}

/* Separator before a value: a comma after the previous item unless a key was just written. */
static void before_value(struct mv_json *j)
{
  if (j->after_key) {
    j->after_key = 0;
    return;
  }
  if (j->depth > 0 && j->count[j->depth]++ > 0)
    fputc(',', j->fp);
  if (j->depth > 0)
    indent(j);
}

static void open_scope(struct mv_json *j, char c)
{
  before_value(j);
  fputc(c, j->fp);
  if (j->depth < MV_JSON_DEPTH - 1)
    j->depth++;
  j->count[j->depth] = 0;
}

static void close_scope(struct mv_json *j, char c)
{
  int had = j->count[j->depth] > 0;
  if (j->depth > 0)
    j->depth--;
  if (had)
    indent(j);
  fputc(c, j->fp);
}

void mv_json_object_begin(struct mv_json *j) { open_scope(j, '{'); }
void mv_json_object_end(struct mv_json *j) { close_scope(j, '}'); }
void mv_json_array_begin(struct mv_json *j) { open_scope(j, '['); }
void mv_json_array_end(struct mv_json *j) { close_scope(j, ']'); }

static void write_escaped(FILE *fp, const char *s)
{
  fputc('"', fp);
  for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
    switch (*p) {
    case '"': fputs("\\\"", fp); break;
    case '\\': fputs("\\\\", fp); break;
    case '\n': fputs("\\n", fp); break;
    case '\r': fputs("\\r", fp); break;
    case '\t': fputs("\\t", fp); break;
    default:
      if (*p < 0x20)
        fprintf(fp, "\\u%04x", *p);
      else
        fputc(*p, fp);
    }
  }
  fputc('"', fp);
}

void mv_json_key(struct mv_json *j, const char *key)
{
  before_value(j);
  write_escaped(j->fp, key);
  fputs(j->pretty ? ": " : ":", j->fp);
  j->after_key = 1;
}

void mv_json_string(struct mv_json *j, const char *s)
{
  before_value(j);
  if (s)
    write_escaped(j->fp, s);
  else
    fputs("null", j->fp);
}

void mv_json_number(struct mv_json *j, double v)
{
  before_value(j);
  char num[MV_NUMFMT_SIZE];
  if (isfinite(v))
    fputs(mv_numfmt(v, num), j->fp);
  else
    fputs("null", j->fp);
}

void mv_json_int(struct mv_json *j, long long v)
{
  before_value(j);
  fprintf(j->fp, "%lld", v);
}

void mv_json_bool(struct mv_json *j, int v)
{
  before_value(j);
  fputs(v ? "true" : "false", j->fp);
}

void mv_json_null(struct mv_json *j)
{
  before_value(j);
  fputs("null", j->fp);
}

void mv_json_kv_string(struct mv_json *j, const char *key, const char *s)
{
  mv_json_key(j, key);
  mv_json_string(j, s);
}

void mv_json_kv_number(struct mv_json *j, const char *key, double v)
{
  mv_json_key(j, key);
  mv_json_number(j, v);
}

void mv_json_kv_int(struct mv_json *j, const char *key, long long v)
{
  mv_json_key(j, key);
  mv_json_int(j, v);
}

int mv_json_finish(struct mv_json *j)
{
  fputc('\n', j->fp);
  return ferror(j->fp) ? MV_EIO : 0;
}
