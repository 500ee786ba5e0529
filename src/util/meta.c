/* The one meta.json writer (include/mpivet/meta.h): the shared head, then the writer's part. */
#include "mpivet/meta.h"

#include "mpivet/atomic.h"
#include "mpivet/error.h"

struct meta_job {
  const char *writer;
  int (*body)(struct mv_json *j, void *arg);
  void *arg;
};

static int write_meta(FILE *fp, void *arg)
{
  const struct meta_job *m = arg;
  struct mv_json j;
  mv_json_document_begin(&j, fp, 1, MV_JSON_META);
  mv_json_kv_string(&j, "mpivet_version", MV_VERSION);
  mv_json_kv_string(&j, "mpivet_git_revision", MV_GIT_REVISION);
  mv_json_kv_string(&j, "writer", m->writer);
  int rc = m->body(&j, m->arg);
  if (rc != 0)
    return rc;
  mv_json_object_end(&j);
  return mv_json_finish(&j);
}

int mv_meta_write(const char *path, const char *writer,
                  int (*body)(struct mv_json *j, void *arg), void *arg)
{
  struct meta_job m = {writer, body, arg};
  return mv_atomic_write(path, write_meta, &m);
}
