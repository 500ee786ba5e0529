/* Running a campaign: each pending launch's rows are appended to results.csv and flushed to
 * disk, then the launch is recorded in campaign.journal with the file size it ends at. The
 * journal is the commit point: rows after the last recorded size belong to no finished launch. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "mpivet/campaign.h"
#include "mpivet/error.h"
#include "mpivet/grow.h"
#include "mpivet/results.h"
#include "state.h"

void mv_rowbuf_init(struct mv_rowbuf *b)
{
  memset(b, 0, sizeof *b);
}

void mv_rowbuf_release(struct mv_rowbuf *b)
{
  free(b->rows);
  mv_rowbuf_init(b);
}

int mv_rowbuf_push(struct mv_rowbuf *b, const struct mv_row *row)
{
  if (mv_grow(&b->rows, &b->cap, b->n + 1, sizeof *b->rows, 256) < 0)
    return MV_ENOMEM;
  b->rows[b->n++] = *row;
  return 0;
}

static int rowbuf_put(void *ctx, const struct mv_row *row)
{
  return mv_rowbuf_push(ctx, row);
}

struct mv_row_sink mv_rowbuf_sink(struct mv_rowbuf *b)
{
  return (struct mv_row_sink){rowbuf_put, b};
}

int mv__journal_read(struct mv_campaign *c)
{
  char path[MV_CAMPAIGN_PATH_MAX + 32];
  int rc = mv_campaign_path(c, "campaign.journal", path, sizeof path);
  if (rc)
    return rc;
  FILE *fp = fopen(path, "r");
  if (!fp)
    return errno == ENOENT ? 0 : MV_EIO;
  char line[128];
  long good = 0;   /* bytes of complete, valid lines */
  while (fgets(line, sizeof line, fp)) {
    int index;
    long long bytes;
    char tail;
    if (!strchr(line, '\n') ||
        sscanf(line, "done %d %lld%c", &index, &bytes, &tail) != 3 || tail != '\n' ||
        index < 0 || (size_t)index >= c->plan.n_items || bytes < 0)
      break;   /* a torn last line from a kill: everything after it is dropped */
    if (!c->done[index]) {
      c->done[index] = 1;
      c->n_done++;
    }
    c->results_size = bytes;
    good = ftell(fp);
  }
  fclose(fp);
  if (truncate(path, good) != 0) {
    return mv_error_set(&c->error, MV_EIO, path, 0, 0, "cannot truncate: %s", strerror(errno));
  }
  return 0;
}

int mv__journal_append(struct mv_campaign *c, int index, long long bytes)
{
  char path[MV_CAMPAIGN_PATH_MAX + 32];
  int rc = mv_campaign_path(c, "campaign.journal", path, sizeof path);
  if (rc)
    return rc;
  int fd = open(path, O_WRONLY | O_APPEND | O_CREAT, 0666);
  if (fd < 0)
    return MV_EIO;
  char line[64];
  int len = snprintf(line, sizeof line, "done %d %lld\n", index, bytes);
  int bad = write(fd, line, (size_t)len) != len || fsync(fd) != 0;
  bad |= close(fd) != 0;
  return bad ? MV_EIO : 0;
}

/* Append one launch's rows and commit them; returns the new size of results.csv. */
static int commit_launch(struct mv_campaign *c, struct mv_results_writer *w, const char *results,
                         const struct mv_launch_item *item, struct mv_rowbuf *rows)
{
  int rc = 0;
  for (size_t i = 0; i < rows->n && rc == 0; i++)
    rc = mv_results_writer_write(w, &rows->rows[i]);
  if (rc == 0)
    rc = mv_results_writer_flush(w);
  struct stat st;
  if (rc == 0 && stat(results, &st) != 0)
    rc = MV_EIO;
  if (rc == 0)
    rc = mv__journal_append(c, item->index, (long long)st.st_size);
  if (rc) {
    return mv_error_set(&c->error, rc, results, 0, 0, "cannot record launch %d: %s", item->index,
                        mv_strerror(rc));
  }
  c->done[item->index] = 1;
  c->n_done++;
  c->results_size = st.st_size;
  return 0;
}

int mv_campaign_run(struct mv_campaign *c, mv_launch_fn launch, void *launch_ctx,
                    mv_campaign_progress_fn progress, void *progress_ctx)
{
  char results[MV_CAMPAIGN_PATH_MAX + 32];
  struct mv_results_writer *w = NULL;
  int rc = mv_campaign_path(c, "results.csv", results, sizeof results);
  if (rc == 0 && (rc = mv_results_writer_open(&w, results, MV_RESULTS_APPEND)))
    mv_error_set(&c->error, rc, results, 0, 0, "cannot open for appending: %s", mv_strerror(rc));
  struct mv_rowbuf rows;
  mv_rowbuf_init(&rows);
  for (size_t i = 0; rc == 0 && i < c->plan.n_items; i++) {
    const struct mv_launch_item *item = &c->plan.items[i];
    if (c->done[item->index])
      continue;
    rows.n = 0;
    struct mv_error err;
    mv_error_clear(&err);
    rc = launch(launch_ctx, c, item, &rows, &err);
    if (rc) {
      char text[MV_ERROR_TEXT_SIZE];
      mv_error_ensure(&err, rc, NULL);
      mv_error_set(&c->error, rc, NULL, 0, 0, "launch %d (np %d, run %d): %s", item->index,
                   item->nprocs, item->run, mv_error_text(&err, text, sizeof text));
      break;
    }
    rc = commit_launch(c, w, results, item, &rows);
    if (rc == 0 && progress)
      progress(progress_ctx, c, item);
  }
  mv_rowbuf_release(&rows);
  if (w)
    mv_results_writer_close(w, 1);
  return rc;
}
