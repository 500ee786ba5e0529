/* Dense OTF2 ids from the tracer's sparse communicator, window and group ids (archive.h). */
#include <stdlib.h>
#include <string.h>

#include "archive.h"

static int cmp_u32(const void *a, const void *b)
{
  uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  return x < y ? -1 : x > y;
}

static void sort_unique(uint32_t *v, size_t *n)
{
  if (!v || *n == 0)
    return;
  qsort(v, *n, sizeof *v, cmp_u32);
  size_t k = 1;
  for (size_t i = 1; i < *n; i++)
    if (v[i] != v[k - 1])
      v[k++] = v[i];
  *n = k;
}

void mv__idmap_finish(struct mv__idmap *m)
{
  sort_unique(m->comms, &m->ncomms);
  sort_unique(m->wins, &m->nwins);
  sort_unique(m->groups, &m->ngroups);
  sort_unique(m->iohandles, &m->niohandles);
  sort_unique(m->iofiles, &m->niofiles);
}

uint32_t mv__idmap_find(const uint32_t *v, size_t n, uint32_t id)
{
  size_t lo = 0, hi = n;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (v[mid] < id)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo < n && v[lo] == id ? (uint32_t)lo : UINT32_MAX;
}

void mv__idmap_from_defs(struct mv__idmap *m, const struct mv__raw_defs *d)
{
  memset(m, 0, sizeof *m);
  m->comms = malloc((d->ncomms + 1) * sizeof *m->comms);
  m->wins = malloc((d->nwins + 1) * sizeof *m->wins);
  m->groups = malloc((d->ngroups + 1) * sizeof *m->groups);
  m->iohandles = malloc((d->niohandles + 1) * sizeof *m->iohandles);
  m->iofiles = malloc((d->niofiles + 1) * sizeof *m->iofiles);
  if (!m->comms || !m->wins || !m->groups || !m->iohandles || !m->iofiles)
    return;
  for (size_t i = 0; i < d->ncomms; i++)
    m->comms[m->ncomms++] = d->comms[i].id;
  for (size_t i = 0; i < d->nwins; i++)
    m->wins[m->nwins++] = d->wins[2 * i];
  for (size_t i = 0; i < d->ngroups; i++)
    m->groups[m->ngroups++] = d->groups[i].id;
  for (size_t i = 0; i < d->niohandles; i++)
    m->iohandles[m->niohandles++] = d->iohandles[i].id;
  for (size_t i = 0; i < d->niofiles; i++)
    m->iofiles[m->niofiles++] = d->iofiles[i].id;
  mv__idmap_finish(m);
}

void mv__idmap_release(struct mv__idmap *m)
{
  free(m->comms);
  free(m->wins);
  free(m->groups);
  free(m->iohandles);
  free(m->iofiles);
  memset(m, 0, sizeof *m);
}
