/* results.csv: one row per measured repetition (docs/formats.md, ARCHITECTURE.md section 3).
 * A streaming reader with strict validation (errors name file:line:column) and a writer that
 * either appends with a flush per batch or writes a temporary file renamed into place on close. */
#ifndef MPIVET_RESULTS_H
#define MPIVET_RESULTS_H

#include <stdint.h>
#include <stdio.h>

#define MV_NAME_MAX 128

/* The columns of the format, in their canonical order. */
#define MV_RESULTS_COLUMNS(XX) \
  XX(run) XX(engine) XX(library) XX(nprocs) XX(ppn) XX(op) XX(impl) \
  XX(msize) XX(metric) XX(rep) XX(value) XX(valid)

struct mv_row {
  int run;                       /* launch index 0..R-1 */
  char engine[MV_NAME_MAX];      /* mpirun, srun, smpi */
  char library[MV_NAME_MAX];     /* "Open MPI 4.1.4" */
  int nprocs;
  int ppn;
  char op[MV_NAME_MAX];          /* MPI_Allreduce */
  char impl[MV_NAME_MAX];        /* default or a mock-up id */
  int64_t msize;                 /* bytes */
  char metric[MV_NAME_MAX];      /* time_s, mem_bytes, rss_bytes */
  int rep;                       /* repetition inside the launch */
  double value;
  int valid;                     /* 1, or 0 when the window start failed */
};

/* 1 for the metrics mpivet measures that cannot be negative (time_s, mem_bytes, rss_bytes):
 * the reader refuses a negative value of one of them. */
int mv_results_metric_nonnegative(const char *metric);

/* Fill a row with neutral defaults (impl "default", valid 1, metric "time_s", ppn 1). */
void mv_row_init(struct mv_row *row);

struct mv_results_reader;

/* Open a results.csv for streaming; "-" reads stdin. The header is read and checked here. */
int mv_results_reader_open(struct mv_results_reader **out, const char *path);
/* Read from an open stream (not closed by the reader); name is used in error messages. */
int mv_results_reader_open_stream(struct mv_results_reader **out, FILE *fp, const char *name);
/* Read the next row: returns 1 with *row filled, 0 at end of file, negative MV_E* on error. */
int mv_results_reader_next(struct mv_results_reader *r, struct mv_row *row);
/* After an error: where "file:line:column", what "expected ..., got ..." (code 0 when the
 * failure had no context, e.g. out of memory); valid until the next call. */
struct mv_error;
const struct mv_error *mv_results_reader_error(const struct mv_results_reader *r);
/* Number of data rows read so far. */
long mv_results_reader_rows(const struct mv_results_reader *r);
void mv_results_reader_close(struct mv_results_reader *r);

struct mv_results_writer;

/* MV_RESULTS_APPEND: append to an existing file (header written only if the file is empty);
 * each row is flushed with mv_results_writer_flush. MV_RESULTS_ATOMIC: write to path.tmp.PID.N
 * and rename onto path in mv_results_writer_close(); on error nothing replaces path. */
enum mv_results_mode { MV_RESULTS_APPEND = 1, MV_RESULTS_ATOMIC = 2 };

int mv_results_writer_open(struct mv_results_writer **out, const char *path,
                           enum mv_results_mode mode);
/* Write to an existing stream (stdout); the caller owns the stream. */
int mv_results_writer_open_stream(struct mv_results_writer **out, FILE *fp);
int mv_results_writer_write(struct mv_results_writer *w, const struct mv_row *row);
/* Flush to the kernel and fsync (APPEND mode: a finished launch survives kill -9). */
int mv_results_writer_flush(struct mv_results_writer *w);
/* commit != 0: finish (rename in ATOMIC mode); commit == 0: abandon (remove the temporary). */
int mv_results_writer_close(struct mv_results_writer *w, int commit);

/* Where parsed rows go (a results writer, a launch's row buffer, a data set): a row is parsed
 * once and handed on. put returns 0, or a negative MV_E* that stops the producer. */
struct mv_row_sink {
  int (*put)(void *ctx, const struct mv_row *row);
  void *ctx;
};
/* A sink writing each row into w (flush with mv_results_writer_flush when a batch is done). */
struct mv_row_sink mv_results_writer_sink(struct mv_results_writer *w);

/* Format one row as a CSV line without newline into buf; returns length or MV_ERANGE. */
int mv_row_format(const struct mv_row *row, char *buf, size_t size);
/* The header line without newline. */
const char *mv_results_header(void);

#endif
