/* The post-mortem finisher's work (mpivet-trace-finish, fuzz-otf2-raw): the OTF2 archive and
 * the compressed trace from the raw per-rank files a run left in DIR/mpivet-raw when it did not
 * reach MPI_Finalize. Everything flushed before the fault is kept; both are marked truncated. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "archive.h"
#include "ctrace.h"

void mv__archive_remove(const char *dir)
{
  char path[4096];
  snprintf(path, sizeof path, "%s/traces.otf2", dir);
  unlink(path);
  snprintf(path, sizeof path, "%s/traces.def", dir);
  unlink(path);
  for (int r = 0;; r++) {
    int gone = 0;
    snprintf(path, sizeof path, "%s/traces/%d.evt", dir, r);
    gone += unlink(path) != 0;
    snprintf(path, sizeof path, "%s/traces/%d.def", dir, r);
    gone += unlink(path) != 0;
    if (gone == 2 && r > 0)
      break;
  }
  snprintf(path, sizeof path, "%s/traces", dir);
  rmdir(path);
}

static int write_archive(const char *dir, struct mv__raw_defs *d, uint64_t *total)
{
  OTF2_Archive *ar = OTF2_Archive_Open(dir, "traces", OTF2_FILEMODE_WRITE,
                                       MV__OTF2_CHUNK, MV__OTF2_CHUNK,
                                       OTF2_SUBSTRATE_POSIX, OTF2_COMPRESSION_NONE);
  if (!ar || mv__archive_prepare(ar) != 0 ||
      OTF2_Archive_SetSerialCollectiveCallbacks(ar) != OTF2_SUCCESS ||
      OTF2_Archive_OpenEvtFiles(ar) != OTF2_SUCCESS)
    return -EIO;
  uint64_t t0 = UINT64_MAX, t1 = 0;
  int err = 0;
  struct mv__idmap map;
  mv__idmap_from_defs(&map, d);
  for (int r = 0; r < d->nranks && !err; r++) {
    uint64_t n, first, last;
    err = mv__convert_rank(ar, dir, r, &d->ranks[r].clock, &map, &n, &first, &last);
    d->ranks[r].nevents = n;
    *total += n;
    t0 = first < t0 ? first : t0;
    t1 = last > t1 ? last : t1;
  }
  OTF2_Archive_CloseEvtFiles(ar);
  if (OTF2_Archive_OpenDefFiles(ar) != OTF2_SUCCESS)
    err = err ? err : -EIO;
  for (int r = 0; r < d->nranks && !err; r++)
    err = mv__write_local_defs(ar, r);
  OTF2_Archive_CloseDefFiles(ar);
  if (!err)
    err = mv__write_globals(ar, dir, d, &map, t0 == UINT64_MAX ? 0 : t0, t1);
  mv__idmap_release(&map);
  if (OTF2_Archive_Close(ar) != OTF2_SUCCESS && !err)
    err = -EIO;
  return err;
}

int mv__finish_dir(const char *dir, char *msg, size_t msgsize)
{
  struct mv__raw_defs d = {0};
  d.nranks = mv__defs_nranks(dir);
  if (d.nranks <= 0) {
    snprintf(msg, msgsize, "%s/mpivet-raw: no raw trace files found", dir);
    return 2;
  }
  for (int r = 0; r < d.nranks; r++)
    mv__defs_read(dir, r, &d);
  mv__archive_remove(dir);
  uint64_t total = 0;
  int err = write_archive(dir, &d, &total);
  if (err) {
    snprintf(msg, msgsize, "%s: cannot write the OTF2 archive: %s", dir, strerror(-err));
    mv__defs_release(&d);
    return 1;
  }
  int cerr = mv__ct_finish(dir, &d);
  int len = snprintf(msg, msgsize, "%s/traces.otf2: %d ranks, %llu events; %s", dir, d.nranks,
                     (unsigned long long)total, cerr ? "no compressed.mvt" : "compressed.mvt (truncated)");
  const char *sep = "; truncated:";
  for (int r = 0; r < d.nranks && d.ranks && len >= 0 && (size_t)len < msgsize; r++)
    if (d.ranks[r].truncated[0]) {
      len += snprintf(msg + len, msgsize - (size_t)len, "%s rank %d: %s", sep, r,
                      d.ranks[r].truncated);
      sep = ",";
    }
  for (int r = 0; r < d.nranks; r++)
    mv__raw_remove(dir, r);
  mv__defs_release(&d);
  return 0;
}
