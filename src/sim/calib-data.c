/* The operation table of the calibration and the reader of mpivet-calib's CSV: one row per
 * measurement (order,op,rank,host,pair,bytes,m,n,k,rep,seconds), grouped by operation, with every
 * malformed field reported as file:line:column. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mpivet/calib.h"
#include "mpivet/error.h"
#include "mpivet/grow.h"
#include "util/csv.h"

static const char *const names[] = {
#define XX(id, name, shape, what) name,
  MV_CALIB_OPS(XX)
#undef XX
};
static const char *const whats[] = {
#define XX(id, name, shape, what) what,
  MV_CALIB_OPS(XX)
#undef XX
};
static const int shapes[] = {
#define XX(id, name, shape, what) shape,
  MV_CALIB_OPS(XX)
#undef XX
};

static const char header[] = "order,op,rank,host,pair,bytes,m,n,k,rep,seconds";
enum { F_ORDER, F_OP, F_RANK, F_HOST, F_PAIR, F_BYTES, F_M, F_N, F_K, F_REP, F_SECONDS, F_COUNT };

const char *mv_calib_op_name(enum mv_calib_op op) { return op < MV_CALIB_NOPS ? names[op] : "?"; }
const char *mv_calib_op_what(enum mv_calib_op op) { return op < MV_CALIB_NOPS ? whats[op] : "?"; }

int mv_calib_op_shape(enum mv_calib_op op) { return op < MV_CALIB_NOPS ? shapes[op] : 0; }

int mv_calib_op_find(const char *name)
{
  for (int i = 0; i < MV_CALIB_NOPS; i++)
    if (strcmp(name, names[i]) == 0)
      return i;
  return -1;
}

void mv_calib_data_init(struct mv_calib_data *d) { memset(d, 0, sizeof *d); }

void mv_calib_data_release(struct mv_calib_data *d)
{
  for (int i = 0; i < MV_CALIB_NOPS; i++)
    free(d->s[i]);
  mv_calib_data_init(d);
}

static int push(struct mv_calib_data *d, int op, const struct mv_calib_sample *s)
{
  if (mv_grow(&d->s[op], &d->cap[op], d->n[op] + 1, sizeof *d->s[op], 256))
    return MV_ENOMEM;
  d->s[op][d->n[op]++] = *s;
  return 0;
}

static int host_index(struct mv_calib_data *d, const char *name)
{
  for (int i = 0; i < d->nhosts; i++)
    if (strcmp(d->hosts[i], name) == 0)
      return i;
  if (d->nhosts == MV_CALIB_MAX_HOSTS || strlen(name) >= sizeof d->hosts[0])
    return -1;
  strcpy(d->hosts[d->nhosts], name);
  return d->nhosts++;
}

/* Whole-field non-negative finite number. */
static int number(const char *s, double max, double *v)
{
  char *end;
  *v = strtod(s, &end);
  return end == s || *end || !isfinite(*v) || *v < 0 || *v > max ? -1 : 0;
}

#define BAD(col, what, got) \
  mv_error_set(e, MV_EPARSE, name, line, (long)(col), "expected %s, got \"%.40s\"", what, got)

static int row(struct mv_calib_data *d, struct mv__csv_fields *f, const char *name, long line,
               struct mv_error *e)
{
  struct mv_calib_sample s = {0};
  double v[F_COUNT];
  if (f->n != F_COUNT)
    return BAD(f->column[0], "11 fields", f->field[0]);
  int op = mv_calib_op_find(f->field[F_OP]);
  if (op < 0)
    return BAD(f->column[F_OP], "an operation such as pingpong or dgemm", f->field[F_OP]);
  for (int i = F_BYTES; i < F_COUNT; i++)
    if (number(f->field[i], i == F_SECONDS ? 1e6 : 4e9, &v[i]))
      return BAD(f->column[i], i == F_SECONDS ? "seconds >= 0" : "a count >= 0", f->field[i]);
  if ((s.host = host_index(d, f->field[F_HOST])) < 0)
    return BAD(f->column[F_HOST], "at most 16 host names of < 64 characters", f->field[F_HOST]);
  if (!shapes[op] && strcmp(f->field[F_PAIR], "same") && strcmp(f->field[F_PAIR], "other"))
    return BAD(f->column[F_PAIR], "same or other", f->field[F_PAIR]);
  s.other = strcmp(f->field[F_PAIR], "other") == 0;
  s.bytes = v[F_BYTES];
  s.m = (int)v[F_M];
  s.n = (int)v[F_N];
  s.k = (int)v[F_K];
  s.seconds = v[F_SECONDS];
  return push(d, op, &s);
}

int mv_calib_data_read(FILE *fp, const char *name, struct mv_calib_data *d, struct mv_error *e)
{
  char buf[1024];
  long line = 0;
  struct mv__csv_fields f;
  size_t bad;
  while (fgets(buf, sizeof buf, fp)) {
    line++;
    size_t len = strlen(buf);
    if (len && buf[len - 1] == '\n')
      buf[--len] = '\0';
    else if (!feof(fp))
      return BAD((size_t)1, "a line of < 1024 characters", "...");
    if (line == 1) {
      if (strcmp(buf, header) != 0)
        return BAD((size_t)1, "the header " "order,op,rank,host,pair,bytes,m,n,k,rep,seconds", buf);
      continue;
    }
    int rc = mv__csv_split(buf, &f, &bad);
    if (rc)
      return BAD(bad, "CSV fields", buf + (bad ? bad - 1 : 0));
    if ((rc = row(d, &f, name, line, e)) != 0)
      return rc;
  }
  if (ferror(fp))
    return mv_error_set(e, MV_EIO, name, 0, 0, "read error");
  if (line < 2)
    return BAD((size_t)1, "a header and measurements", line ? "only the header" : "an empty file");
  return 0;
}

int mv_calib_data_take_kernels(struct mv_calib_data *d, const struct mv_calib_data *rec)
{
  for (int op = 0; op < MV_CALIB_NOPS; op++) {
    if (!shapes[op] || rec->n[op] == 0)
      continue;
    d->n[op] = 0;
    for (size_t i = 0; i < rec->n[op]; i++) {
      struct mv_calib_sample s = rec->s[op][i];
      if ((s.host = host_index(d, rec->hosts[s.host])) < 0)
        return MV_EINVAL;
      if (push(d, op, &s))
        return MV_ENOMEM;
    }
  }
  return 0;
}
