/* The campaign folder: campaign.plan (parameters, stored options and the shuffled order,
 * written once, atomically), campaign.journal (one "done INDEX BYTES" line per finished
 * launch, fsynced) and results.csv. Resuming truncates results.csv to the bytes the last
 * journal line vouches for, so a launch cut by kill -9 is rerun, never kept twice. */
#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "mpivet/campaign.h"
#include "mpivet/dirlock.h"
#include "mpivet/error.h"
#include "state.h"

void mv_campaign_init(struct mv_campaign *c)
{
  memset(c, 0, sizeof *c);
  mv_plan_init(&c->plan);
}

void mv_campaign_release(struct mv_campaign *c)
{
  mv_plan_release(&c->plan);
  for (size_t i = 0; i < c->nkeys; i++) {
    free(c->keys[i]);
    free(c->values[i]);
  }
  free(c->done);
  mv_campaign_init(c);
}

int mv_campaign_set(struct mv_campaign *c, const char *key, const char *value)
{
  if (!key || !value || strpbrk(key, "=\n") || strchr(value, '\n'))
    return MV_EINVAL;
  char *v = strdup(value);
  if (!v)
    return MV_ENOMEM;
  for (size_t i = 0; i < c->nkeys; i++)
    if (strcmp(c->keys[i], key) == 0) {
      free(c->values[i]);
      c->values[i] = v;
      return 0;
    }
  char *k = strdup(key);
  if (!k || c->nkeys == MV_CAMPAIGN_KEYS_MAX) {
    free(k);
    free(v);
    return k ? MV_ERANGE : MV_ENOMEM;
  }
  c->keys[c->nkeys] = k;
  c->values[c->nkeys++] = v;
  return 0;
}

const char *mv_campaign_get(const struct mv_campaign *c, const char *key)
{
  for (size_t i = 0; i < c->nkeys; i++)
    if (strcmp(c->keys[i], key) == 0)
      return c->values[i];
  return NULL;
}

int mv_campaign_path(const struct mv_campaign *c, const char *name, char *buf, size_t size)
{
  int n = snprintf(buf, size, "%s/%s", c->dir, name);
  return n < 0 || (size_t)n >= size ? MV_ERANGE : 0;
}

static int mkdir_p(const char *dir)
{
  char tmp[MV_CAMPAIGN_PATH_MAX];
  if (snprintf(tmp, sizeof tmp, "%s", dir) >= (int)sizeof tmp)
    return MV_ERANGE;
  for (char *s = tmp + 1; *s; s++)
    if (*s == '/') {
      *s = '\0';
      if (mkdir(tmp, 0777) && errno != EEXIST)
        return MV_EIO;
      *s = '/';
    }
  return mkdir(tmp, 0777) && errno != EEXIST ? MV_EIO : 0;
}

static int set_dir(struct mv_campaign *c, const char *dir)
{
  if (snprintf(c->dir, sizeof c->dir, "%s", dir) >= (int)sizeof c->dir)
    return MV_ERANGE;
  return 0;
}

static int alloc_done(struct mv_campaign *c)
{
  free(c->done);
  c->done = calloc(c->plan.n_items ? c->plan.n_items : 1, 1);
  c->n_done = 0;
  c->results_size = 0;
  return c->done ? 0 : MV_ENOMEM;
}

/* One campaign process per folder: a second one (a --resume while it runs) is refused. */
static int lock(struct mv_campaign *c, const char *dir)
{
  int rc = mv_dir_lock(dir);
  if (rc == MV_EBUSY)
    mv_error_set(&c->error, rc, dir, 0, 0, "campaign in use by another mpivet process");
  else if (rc)
    mv_error_set(&c->error, rc, dir, 0, 0, "cannot create its lock file: %s", strerror(errno));
  return rc;
}

int mv_campaign_create(struct mv_campaign *c, const char *dir)
{
  char path[MV_CAMPAIGN_PATH_MAX + 32];
  int rc = set_dir(c, dir);
  if (rc == 0 && (rc = mkdir_p(dir)))
    mv_error_set(&c->error, rc, dir, 0, 0, "cannot create: %s", strerror(errno));
  if (rc || (rc = mv_campaign_path(c, "campaign.plan", path, sizeof path)))
    return rc;
  if ((rc = lock(c, dir)))
    return rc;
  if (access(path, F_OK) == 0) {
    return mv_error_set(&c->error, MV_EINVAL, dir, 0, 0,
                        "already holds a campaign (resume it with --resume)");
  }
  char first[256];
  if (!mv_dir_is_empty(dir, first, sizeof first)) {
    /* Files of someone else (a results.csv, reports): never replaced. */
    return mv_error_set(&c->error, MV_EINVAL, dir, 0, 0,
                        "not empty (holds %s) and not a campaign: choose a new folder with -o",
                        first);
  }
  if ((rc = alloc_done(c)))
    return rc;
  if ((rc = mv__plan_write(c, path))) {
    return mv_error_set(&c->error, rc, path, 0, 0, "cannot write: %s", strerror(errno));
  }
  return 0;
}

int mv_campaign_save(struct mv_campaign *c)
{
  char path[MV_CAMPAIGN_PATH_MAX + 32];
  int rc = mv_campaign_path(c, "campaign.plan", path, sizeof path);
  if (rc == 0 && c->n_done)
    rc = MV_EINVAL;
  return rc ? rc : mv__plan_write(c, path);
}

int mv_campaign_resume(struct mv_campaign *c, const char *dir)
{
  char path[MV_CAMPAIGN_PATH_MAX + 32];
  int rc = set_dir(c, dir);
  if (rc || (rc = mv_campaign_path(c, "campaign.plan", path, sizeof path)))
    return rc;
  if (access(path, F_OK) == 0 && (rc = lock(c, dir)))
    return rc;
  if ((rc = mv__plan_read(c, path)))
    return rc;
  if ((rc = alloc_done(c)) || (rc = mv__journal_read(c)))
    return rc;
  char results[MV_CAMPAIGN_PATH_MAX + 32];
  if ((rc = mv_campaign_path(c, "results.csv", results, sizeof results)))
    return rc;
  struct stat st;
  if (stat(results, &st) != 0)
    st.st_size = 0;
  if (st.st_size < c->results_size) {
    return mv_error_set(&c->error, MV_EPARSE, results, 0, 0,
                        "%lld bytes, but the journal vouches for %lld: the file was changed "
                        "outside mpivet", (long long)st.st_size, c->results_size);
  }
  if (st.st_size > c->results_size && truncate(results, c->results_size) != 0) {
    return mv_error_set(&c->error, MV_EIO, results, 0, 0, "cannot truncate: %s", strerror(errno));
  }
  return 0;
}
