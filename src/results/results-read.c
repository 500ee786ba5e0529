/* Streaming reader of results.csv: the header maps columns (any order, extra columns ignored),
 * every cell is validated and a failure names file:line:column and what was expected.
 * Memory stays bounded by the longest line, whatever the number of rows. */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/csv.h"
#include "mpivet/error.h"
#include "mpivet/grow.h"
#include "mpivet/results.h"

#define MAX_LINE (1 << 20)

enum col {
#define XX(name) COL_##name,
  MV_RESULTS_COLUMNS(XX)
#undef XX
  NCOLS
};

static const char *const col_names[NCOLS] = {
#define XX(name) #name,
  MV_RESULTS_COLUMNS(XX)
#undef XX
};

struct mv_results_reader {
  FILE *fp;
  int own;
  char *path;
  char *line;
  size_t cap;
  long lineno;
  long rows;
  size_t nfields;           /* columns in the header */
  int index[NCOLS];         /* field index of each known column */
  struct mv_error error;
};

static int fail(struct mv_results_reader *r, size_t col, int err, const char *fmt, ...)
  __attribute__((format(printf, 4, 5)));

static int fail(struct mv_results_reader *r, size_t col, int err, const char *fmt, ...)
{
  char what[MV_ERROR_PART_SIZE];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(what, sizeof what, fmt, ap);
  va_end(ap);
  return mv_error_set(&r->error, err, r->path, r->lineno, (long)col, "%s", what);
}

/* Read one line into r->line without its newline; 1 read, 0 EOF, <0 error. */
static int read_line(struct mv_results_reader *r)
{
  size_t len = 0;
  int c;
  r->lineno++;  /* before reading, so that an error inside the line names it */
  while ((c = getc(r->fp)) != EOF && c != '\n') {
    if (len + 2 > r->cap) {
      if (r->cap >= MAX_LINE)
        return fail(r, len + 1, MV_ERANGE, "expected a line shorter than %d bytes", MAX_LINE);
      if (mv_grow(&r->line, &r->cap, len + 2, 1, 256) < 0)
        return MV_ENOMEM;
    }
    r->line[len++] = (char)c;
  }
  if (ferror(r->fp))
    return fail(r, 1, MV_EIO, "read error: %s", strerror(errno));
  if (c == EOF && len == 0) {
    r->lineno--;
    return 0;
  }
  if (len && r->line[len - 1] == '\r')
    len--;
  if (!r->line) {
    r->line = malloc(1);
    if (!r->line)
      return MV_ENOMEM;
    r->cap = 1;
  }
  r->line[len] = '\0';
  return 1;
}

static int parse_header(struct mv_results_reader *r)
{
  int rc = read_line(r);
  if (rc == 0) {
    r->lineno = 1;   /* where the header should be */
    return fail(r, 1, MV_EPARSE, "expected a header line (%s), got an empty file", mv_results_header());
  }
  if (rc < 0)
    return rc;
  /* Spreadsheets start a UTF-8 file with a byte-order mark: not part of the first name. */
  static const char bom[] = "\xEF\xBB\xBF";
  size_t skip = strncmp(r->line, bom, 3) == 0 ? 3 : 0;
  if (skip)
    memmove(r->line, r->line + skip, strlen(r->line + skip) + 1);
  struct mv__csv_fields f;
  size_t bad;
  if ((rc = mv__csv_split(r->line, &f, &bad)) < 0)
    return fail(r, bad, MV_EPARSE, "expected a valid CSV header");
  for (int c = 0; c < NCOLS; c++)
    r->index[c] = -1;
  for (size_t i = 0; i < f.n; i++)
    for (int c = 0; c < NCOLS; c++)
      if (strcmp(f.field[i], col_names[c]) == 0) {
        if (r->index[c] >= 0)
          return fail(r, f.column[i], MV_EPARSE, "column \"%s\" appears twice", col_names[c]);
        r->index[c] = (int)i;
      }
  for (int c = 0; c < NCOLS; c++)
    if (r->index[c] < 0)
      return fail(r, 1, MV_EPARSE, "expected a column \"%s\" in the header (%s)", col_names[c],
                  mv_results_header());
  r->nfields = f.n;
  return 0;
}

int mv_results_reader_open(struct mv_results_reader **out, const char *path)
{
  struct mv_results_reader *r = calloc(1, sizeof *r);
  if (!r)
    return MV_ENOMEM;
  r->path = strdup(path);
  if (!r->path) {
    free(r);
    return MV_ENOMEM;
  }
  if (strcmp(path, "-") == 0) {
    r->fp = stdin;
  } else {
    r->fp = fopen(path, "r");
    r->own = 1;
  }
  *out = r;
  if (!r->fp) {
    int err = errno == ENOENT ? MV_ENOENT : MV_EIO;
    return mv_error_set(&r->error, err, path, 0, 0, "cannot open: %s", strerror(errno));
  }
  return parse_header(r);
}

static int get_long(struct mv_results_reader *r, const struct mv__csv_fields *f, int c,
                    long lo, long hi, long *out)
{
  const char *s = f->field[r->index[c]];
  size_t col = f->column[r->index[c]];
  char *end;
  errno = 0;
  long long v = strtoll(s, &end, 10);
  if (!*s || *end || errno)
    return fail(r, col, MV_EPARSE, "expected an integer in column \"%s\", got \"%s\"", col_names[c], s);
  if (v < lo || v > hi)
    return fail(r, col, MV_ERANGE, "expected %s in [%ld, %ld], got %s", col_names[c], lo, hi, s);
  *out = (long)v;
  return 0;
}

static int get_name(struct mv_results_reader *r, const struct mv__csv_fields *f, int c,
                    int allow_empty, char *dst)
{
  const char *s = f->field[r->index[c]];
  size_t len = strlen(s);
  if (!allow_empty && len == 0)
    return fail(r, f->column[r->index[c]], MV_EPARSE, "expected a non-empty \"%s\"", col_names[c]);
  if (len >= MV_NAME_MAX)
    return fail(r, f->column[r->index[c]], MV_ERANGE, "expected \"%s\" shorter than %d characters",
                col_names[c], MV_NAME_MAX);
  memcpy(dst, s, len + 1);
  return 0;
}

int mv_results_metric_nonnegative(const char *metric)
{
  static const char *const names[] = {"time_s", "mem_bytes", "rss_bytes"};
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
    if (strcmp(metric, names[i]) == 0)
      return 1;
  return 0;
}

static int parse_row(struct mv_results_reader *r, struct mv__csv_fields *f, struct mv_row *row)
{
  long v;
  int rc;
  if ((rc = get_long(r, f, COL_run, 0, INT_MAX, &v)) < 0) return rc;
  row->run = (int)v;
  if ((rc = get_long(r, f, COL_nprocs, 1, INT_MAX, &v)) < 0) return rc;
  row->nprocs = (int)v;
  if ((rc = get_long(r, f, COL_ppn, 1, INT_MAX, &v)) < 0) return rc;
  row->ppn = (int)v;
  if ((rc = get_long(r, f, COL_msize, 0, LONG_MAX, &v)) < 0) return rc;
  row->msize = v;
  if ((rc = get_long(r, f, COL_rep, 0, INT_MAX, &v)) < 0) return rc;
  row->rep = (int)v;
  if ((rc = get_long(r, f, COL_valid, 0, 1, &v)) < 0) return rc;
  row->valid = (int)v;
  if ((rc = get_name(r, f, COL_engine, 0, row->engine)) < 0) return rc;
  if ((rc = get_name(r, f, COL_library, 1, row->library)) < 0) return rc;
  if ((rc = get_name(r, f, COL_op, 0, row->op)) < 0) return rc;
  if ((rc = get_name(r, f, COL_impl, 0, row->impl)) < 0) return rc;
  if ((rc = get_name(r, f, COL_metric, 0, row->metric)) < 0) return rc;
  const char *s = f->field[r->index[COL_value]];
  char *end;
  errno = 0;
  row->value = strtod(s, &end);
  if (!*s || *end || errno == ERANGE || !isfinite(row->value))
    return fail(r, f->column[r->index[COL_value]], MV_EPARSE,
                "expected a finite number in column \"value\", got \"%s\"", s);
  if (row->value < 0 && mv_results_metric_nonnegative(row->metric))
    return fail(r, f->column[r->index[COL_value]], MV_ERANGE,
                "expected a %s >= 0 in column \"value\", got \"%s\"", row->metric, s);
  return 0;
}

int mv_results_reader_next(struct mv_results_reader *r, struct mv_row *row)
{
  for (;;) {
    int rc = read_line(r);
    if (rc <= 0)
      return rc;
    if (r->line[0] == '\0')
      continue; /* blank line */
    struct mv__csv_fields f;
    size_t bad;
    if ((rc = mv__csv_split(r->line, &f, &bad)) == MV_ERANGE)
      return fail(r, bad, MV_EPARSE, "expected at most %d fields", MV__CSV_MAX_FIELDS);
    if (rc < 0)
      return fail(r, bad, MV_EPARSE, "expected a closing quote");
    if (f.n != r->nfields)
      return fail(r, f.column[f.n - 1], MV_EPARSE, "expected %zu fields as in the header, got %zu",
                  r->nfields, f.n);
    if ((rc = parse_row(r, &f, row)) < 0)
      return rc;
    r->rows++;
    return 1;
  }
}

int mv_results_reader_open_stream(struct mv_results_reader **out, FILE *fp, const char *name)
{
  struct mv_results_reader *r = calloc(1, sizeof *r);
  if (!r)
    return MV_ENOMEM;
  r->path = strdup(name);
  r->fp = fp;
  *out = r;
  if (!r->path)
    return MV_ENOMEM;
  return parse_header(r);
}

const struct mv_error *mv_results_reader_error(const struct mv_results_reader *r)
{
  return &r->error;
}

long mv_results_reader_rows(const struct mv_results_reader *r)
{
  return r->rows;
}

void mv_results_reader_close(struct mv_results_reader *r)
{
  if (!r)
    return;
  if (r->own && r->fp)
    fclose(r->fp);
  free(r->line);
  free(r->path);
  free(r);
}
