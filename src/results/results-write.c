/* Writing results.csv: row formatting (lossless shortest numbers, quoted names), an append mode
 * that repairs a torn last line and fsyncs each batch, and an atomic mode (util/atomic.c: temporary + fsync + rename)
 * so a failed conversion never leaves a half-written file. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/csv.h"
#include "mpivet/atomic.h"
#include "mpivet/error.h"
#include "mpivet/numfmt.h"
#include "mpivet/results.h"

#define HEADER "run,engine,library,nprocs,ppn,op,impl,msize,metric,rep,value,valid"

struct mv_results_writer {
  FILE *fp;
  int own;
  enum mv_results_mode mode;
  struct mv_atomic_file atomic;   /* MV_RESULTS_ATOMIC on a path: atomic.fp is fp */
  int failed;
};

const char *mv_results_header(void)
{
  return HEADER;
}

void mv_row_init(struct mv_row *row)
{
  memset(row, 0, sizeof *row);
  strcpy(row->impl, "default");
  strcpy(row->metric, "time_s");
  row->ppn = 1;
  row->nprocs = 1;
  row->valid = 1;
}

int mv_row_format(const struct mv_row *row, char *buf, size_t size)
{
  char engine[2 * MV_NAME_MAX + 3], library[2 * MV_NAME_MAX + 3], op[2 * MV_NAME_MAX + 3];
  char impl[2 * MV_NAME_MAX + 3], metric[2 * MV_NAME_MAX + 3];
  if (mv__csv_quote(row->engine, engine, sizeof engine) < 0 ||
      mv__csv_quote(row->library, library, sizeof library) < 0 ||
      mv__csv_quote(row->op, op, sizeof op) < 0 || mv__csv_quote(row->impl, impl, sizeof impl) < 0 ||
      mv__csv_quote(row->metric, metric, sizeof metric) < 0)
    return MV_ERANGE;
  char value[MV_NUMFMT_SIZE];
  int n = snprintf(buf, size, "%d,%s,%s,%d,%d,%s,%s,%" PRId64 ",%s,%d,%s,%d", row->run, engine,
                   library, row->nprocs, row->ppn, op, impl, row->msize, metric, row->rep,
                   mv_numfmt(row->value, value), row->valid);
  if (n < 0 || (size_t)n >= size)
    return MV_ERANGE;
  return n;
}

/* An interrupted writer can leave a last line without newline: it was never a whole row, so cut
 * it off before appending. Also check that a non-empty file starts with our header. */
static int prepare_append(FILE *fp, const char *path, int *empty)
{
  struct stat st;
  if (fstat(fileno(fp), &st) < 0)
    return MV_EIO;
  *empty = st.st_size == 0;
  if (*empty)
    return 0;
  char head[sizeof HEADER + 1] = {0};
  if (pread(fileno(fp), head, sizeof HEADER, 0) < 0)
    return MV_EIO;
  if (strncmp(head, HEADER, sizeof HEADER - 1) != 0 || (head[sizeof HEADER - 1] != '\n' &&
                                                       head[sizeof HEADER - 1] != '\r'))
    return MV_EPARSE;
  off_t end = st.st_size;
  char c;
  while (end > 0 && pread(fileno(fp), &c, 1, end - 1) == 1 && c != '\n')
    end--;
  if (end != st.st_size && ftruncate(fileno(fp), end) < 0)
    return MV_EIO;
  (void)path;
  return 0;
}

static int writer_new(struct mv_results_writer **out, FILE *fp, int own, enum mv_results_mode mode)
{
  struct mv_results_writer *w = calloc(1, sizeof *w);
  if (!w)
    return MV_ENOMEM;
  w->fp = fp;
  w->own = own;
  w->mode = mode;
  *out = w;
  return 0;
}

int mv_results_writer_open_stream(struct mv_results_writer **out, FILE *fp)
{
  int rc = writer_new(out, fp, 0, MV_RESULTS_ATOMIC);
  if (rc == 0 && fprintf(fp, "%s\n", HEADER) < 0)
    rc = MV_EIO;
  return rc;
}

static int open_append(struct mv_results_writer *w, const char *path)
{
  w->fp = fopen(path, "a+");
  if (!w->fp)
    return errno == ENOENT ? MV_ENOENT : MV_EIO;
  int empty, rc = prepare_append(w->fp, path, &empty);
  if (rc < 0)
    return rc;
  if (empty && fprintf(w->fp, "%s\n", HEADER) < 0)
    return MV_EIO;
  return 0;
}

static int open_atomic(struct mv_results_writer *w, const char *path)
{
  int rc = mv_atomic_open(&w->atomic, path);
  if (rc < 0)
    return rc;
  w->fp = w->atomic.fp;
  return fprintf(w->fp, "%s\n", HEADER) < 0 ? MV_EIO : 0;
}

int mv_results_writer_open(struct mv_results_writer **out, const char *path, enum mv_results_mode mode)
{
  struct mv_results_writer *w;
  int rc = writer_new(&w, NULL, 1, mode);
  if (rc < 0)
    return rc;
  rc = mode == MV_RESULTS_APPEND ? open_append(w, path) : open_atomic(w, path);
  if (rc < 0) {
    mv_results_writer_close(w, 0);
    return rc;
  }
  *out = w;
  return 0;
}

int mv_results_writer_write(struct mv_results_writer *w, const struct mv_row *row)
{
  char line[8 * MV_NAME_MAX + 128];
  int n = mv_row_format(row, line, sizeof line);
  if (n < 0)
    return n;
  line[n] = '\n';
  if (fwrite(line, 1, (size_t)n + 1, w->fp) != (size_t)n + 1) {
    w->failed = 1;
    return MV_EIO;
  }
  return 0;
}

static int writer_put(void *ctx, const struct mv_row *row)
{
  return mv_results_writer_write(ctx, row);
}

struct mv_row_sink mv_results_writer_sink(struct mv_results_writer *w)
{
  return (struct mv_row_sink){writer_put, w};
}

int mv_results_writer_flush(struct mv_results_writer *w)
{
  if (fflush(w->fp) != 0) {
    w->failed = 1;
    return MV_EIO;
  }
  if (w->own && fsync(fileno(w->fp)) < 0 && errno != EINVAL)
    return MV_EIO;
  return 0;
}

int mv_results_writer_close(struct mv_results_writer *w, int commit)
{
  if (!w)
    return 0;
  int rc = w->failed ? MV_EIO : 0;
  if (w->atomic.fp) {
    if (commit && rc == 0)
      rc = mv_atomic_commit(&w->atomic);
    else
      mv_atomic_abort(&w->atomic);
  } else if (w->fp) {
    if (commit && mv_results_writer_flush(w) < 0)
      rc = MV_EIO;
    if (w->own && fclose(w->fp) != 0)
      rc = MV_EIO;
    else if (!w->own && ferror(w->fp))
      rc = MV_EIO;
  }
  free(w);
  return rc;
}
