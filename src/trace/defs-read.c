/* Reader of the definitions side files (<dir>/mpivet-raw/rank-<r>.defs) written by the
 * tracer: communicators, groups, windows and call sites in world ranks, clock alignments and
 * the closed/truncated state of each rank. Unknown lines are ignored (forward compatible). */
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "archive.h"
#include "rawfmt.h"

static struct mv__def_set *set_add(struct mv__def_set **v, size_t *n, uint32_t id, int size,
                                   int nranks)
{
  if (size < 0 || size > nranks)
    return NULL;  /* no communicator or group outgrows MPI_COMM_WORLD: a damaged line */
  for (size_t i = 0; i < *n; i++)
    if ((*v)[i].id == id)
      return NULL;  /* defined twice (e.g. by a finisher re-run): keep the first */
  struct mv__def_set *p = realloc(*v, (*n + 1) * sizeof **v);
  if (!p)
    return NULL;
  *v = p;
  struct mv__def_set *s = &p[*n];
  memset(s, 0, sizeof *s);
  s->members = calloc(size ? (size_t)size : 1, sizeof *s->members);
  if (!s->members)
    return NULL;
  s->id = id;
  s->n = (uint32_t)size;
  (*n)++;
  return s;
}

/* Communicator and group ids are separate spaces (they collide): "members" lines fill
 * communicators, "group-members" lines groups. */
static void add_members(struct mv__def_set *v, size_t n, uint32_t id, const char *list)
{
  struct mv__def_set *s = NULL;
  for (size_t i = 0; i < n && !s; i++)
    if (v[i].id == id)
      s = &v[i];
  if (!s)
    return;
  char *end;
  for (long v = strtol(list, &end, 10); end != list && s->filled < s->n; v = strtol(list, &end, 10)) {
    s->members[s->filled++] = (uint64_t)v;
    list = end;
  }
}

static void add_site(struct mv__raw_defs *d, const char *line)
{
  size_t hlen = strcspn(line, " ");
  for (size_t i = 0; i < d->nsites; i++)
    if (strncmp(d->sites[i], line, hlen + 1) == 0)
      return;
  char **p = realloc(d->sites, (d->nsites + 1) * sizeof *p);
  if (!p)
    return;
  d->sites = p;
  d->sites[d->nsites++] = strdup(line);
}

/* MPI-IO: an I/O handle (one per rank and open), a file (the first path seen for its id) */
static void add_iohandle(struct mv__raw_defs *d, uint32_t id, uint32_t comm, uint32_t file)
{
  for (size_t i = 0; i < d->niohandles; i++)
    if (d->iohandles[i].id == id)
      return;
  struct mv__iohandle *p = realloc(d->iohandles, (d->niohandles + 1) * sizeof *p);
  if (!p)
    return;
  d->iohandles = p;
  p[d->niohandles++] = (struct mv__iohandle){id, comm, file};
}

static void add_iofile(struct mv__raw_defs *d, uint32_t id, const char *name)
{
  for (size_t i = 0; i < d->niofiles; i++)
    if (d->iofiles[i].id == id)
      return;
  struct mv__iofile *p = realloc(d->iofiles, (d->niofiles + 1) * sizeof *p);
  char *copy = strdup(name);
  if (!p || !copy) {
    free(copy);
    if (p)
      d->iofiles = p;
    return;
  }
  d->iofiles = p;
  p[d->niofiles++] = (struct mv__iofile){id, copy};
}

static void parse_line(struct mv__raw_defs *d, int rank, char *line)
{
  struct mv__rank_info *ri = &d->ranks[rank];
  unsigned long long t, n;
  long long o;
  unsigned id, c, k2;
  int k, off = 0;
  char name[48];
  line[strcspn(line, "\n")] = 0;
  if (sscanf(line, "clock_init %llu %lld", &t, &o) == 2)
    ri->clock.t1 = t, ri->clock.o1 = o;
  else if (sscanf(line, "clock_final %llu %lld", &t, &o) == 2)
    ri->clock.t2 = t, ri->clock.o2 = o, ri->clock.has_final = 1;
  else if (sscanf(line, "ticks %llu %llu", &t, &n) == 2) {
    if (ri->clock.nanchors++ == 0)
      ri->clock.k1 = t, ri->clock.n1 = n;
    ri->clock.k2 = t, ri->clock.n2 = n;
  } else if (sscanf(line, "closed %llu", &n) == 1)
    ri->closed = 1, ri->nevents = n;
  else if (strncmp(line, "truncated ", 10) == 0 && !ri->truncated[0])
    snprintf(ri->truncated, sizeof ri->truncated, "%.127s", line + 10);
  else if (sscanf(line, "comm %u %47s %d", &id, name, &k) == 3) {
    struct mv__def_set *s = set_add(&d->comms, &d->ncomms, id, k, d->nranks);
    if (s)
      snprintf(s->name, sizeof s->name, "%s", name);
    if (s && strcmp(name, "MPI_COMM_WORLD") == 0)
      for (int i = 0; i < k; i++)
        s->members[s->filled++] = (uint64_t)i;
  } else if (sscanf(line, "group %u %d", &id, &k) == 2)
    set_add(&d->groups, &d->ngroups, id, k, d->nranks);
  else if (sscanf(line, "members %u%n", &id, &off) == 1)
    add_members(d->comms, d->ncomms, id, line + off);
  else if (sscanf(line, "group-members %u%n", &id, &off) == 1)
    add_members(d->groups, d->ngroups, id, line + off);
  else if (sscanf(line, "win %u %u", &id, &c) == 2) {
    uint32_t *p = realloc(d->wins, (d->nwins + 1) * 2 * sizeof *p);
    if (p)
      d->wins = p, p[2 * d->nwins] = id, p[2 * d->nwins + 1] = c, d->nwins++;
  } else if (strncmp(line, "site ", 5) == 0)
    add_site(d, line + 5);
  else if (sscanf(line, "iohandle %u %u %u", &id, &c, &k2) == 3)
    add_iohandle(d, id, c, k2);
  else if (sscanf(line, "iofile %u %n", &id, &off) == 1 && off > 0)
    add_iofile(d, id, line + off);
  else if (strncmp(line, "meta ", 5) == 0 && rank == 0)
    snprintf(d->meta, sizeof d->meta, "%.159s", line + 5);
}

int mv__defs_read(const char *dir, int rank, struct mv__raw_defs *d)
{
  if (!d->ranks && !(d->ranks = calloc((size_t)d->nranks, sizeof *d->ranks)))
    return -ENOMEM;
  char path[4096];
  snprintf(path, sizeof path, "%s/" MV__RAW_DIR "/rank-%d.defs", dir, rank);
  FILE *f = fopen(path, "r");
  if (!f) {
    snprintf(d->ranks[rank].truncated, sizeof d->ranks[rank].truncated, "no definitions file");
    return -errno;
  }
  char line[8192];
  while (fgets(line, sizeof line, f))
    parse_line(d, rank, line);
  fclose(f);
  if (!d->ranks[rank].closed && !d->ranks[rank].truncated[0])
    snprintf(d->ranks[rank].truncated, sizeof d->ranks[rank].truncated, "killed before closing");
  return 0;
}

/* Highest rank file (rank-<r>.raw or .defs, r < MV__RANKS_MAX) + 1, 0 when none. */
static int ranks_found(const char *dir)
{
  char path[4096];
  int r, n = 0;
  char tail[8];
  snprintf(path, sizeof path, "%s/" MV__RAW_DIR, dir);
  DIR *dd = opendir(path);
  if (!dd)
    return 0;
  for (struct dirent *e; (e = readdir(dd));)
    if (sscanf(e->d_name, "rank-%d.%7s", &r, tail) == 2 && r >= 0 && r < MV__RANKS_MAX &&
        (strcmp(tail, "raw") == 0 || strcmp(tail, "defs") == 0) && r + 1 > n)
      n = r + 1;
  closedir(dd);
  return n;
}

int mv__defs_nranks(const char *dir)
{
  char path[4096];
  snprintf(path, sizeof path, "%s/" MV__RAW_DIR "/rank-0.defs", dir);
  FILE *f = fopen(path, "r");
  int r, declared = 0, found = ranks_found(dir);
  if (f) {
    if (fscanf(f, "rank %d %d", &r, &declared) != 2)
      declared = 0;
    fclose(f);
  }
  /* Ranks that never wrote a file (killed inside MPI_Init) still get a location, but a size no
   * file backs is not believed: each location costs OTF2 a buffer. */
  if (declared >= found && declared <= 2 * found + 64)
    return declared;
  return found;
}

void mv__defs_release(struct mv__raw_defs *d)
{
  for (size_t i = 0; i < d->ncomms; i++)
    free(d->comms[i].members);
  for (size_t i = 0; i < d->ngroups; i++)
    free(d->groups[i].members);
  for (size_t i = 0; i < d->nsites; i++)
    free(d->sites[i]);
  for (size_t i = 0; i < d->niofiles; i++)
    free(d->iofiles[i].name);
  free(d->iohandles);
  free(d->iofiles);
  free(d->comms);
  free(d->groups);
  free(d->wins);
  free(d->sites);
  free(d->ranks);
  memset(d, 0, sizeof *d);
}
