/* Handle -> id tables of one rank: communicators and windows (short arrays, most recent first
 * hit), requests (open addressing on the handle's bits), and the global ids of new
 * communicators and windows: the new object's rank 0 draws k from its own counter and
 * broadcasts k * nranks + its world rank, so ids are unique without any central service. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emit.h"
#include "state.h"
#include "tables.h"

void *mv__grow(void *p, size_t *cap, size_t elem)
{
  size_t n = *cap ? *cap * 2 : 16;
  void *q = realloc(p, n * elem);
  if (q)
    *cap = n;
  return q;
}

void mv__comm_add(MPI_Comm comm, uint32_t id)
{
  if (G.ncomms == G.capcomms) {
    void *p = mv__grow(G.comms, &G.capcomms, sizeof *G.comms);
    if (!p)
      return;
    G.comms = p;
  }
  struct mv__comm_ent *e = &G.comms[G.ncomms++];
  e->comm = comm;
  e->id = id;
  PMPI_Comm_size(comm, &e->size);
  PMPI_Comm_rank(comm, &e->rank);
  if (G.nseen == G.capseen) {
    void *p = mv__grow(G.seen, &G.capseen, sizeof *G.seen);
    if (!p)
      return;
    G.seen = p;
  }
  G.seen[G.nseen++] = (struct mv__comm_seen){id, e->size, e->rank};
}

/* id = k * size + leader (the world rank of the new object's rank 0), k the largest counter of
 * the members, after which every member's counter is k + 1: members that created the same
 * objects before agree on k whatever their leaders, which makes k the symbolic communicator
 * of the compressed trace (ctrace.c). One Allreduce (MAX) carries k and the leader. */
uint32_t mv__new_id(MPI_Comm comm, uint32_t *counter)
{
  int rank;
  PMPI_Comm_rank(comm, &rank);
  long long mine[2] = {(long long)*counter, rank == 0 ? G.rank : -1}, all[2] = {0, 0};
  PMPI_Allreduce(mine, all, 2, MPI_LONG_LONG, MPI_MAX, comm);
  *counter = (uint32_t)all[0] + 1;
  return (uint32_t)all[0] * (uint32_t)G.size + (uint32_t)all[1];
}

/* "comm ID NAME SIZE" then "members ID w..." lines of at most 256 world ranks each. */
void mv__define_comm(MPI_Comm comm, uint32_t id, const char *name)
{
  int n;
  PMPI_Comm_size(comm, &n);
  mv__def("comm %u %s %d", id, name, n);
  MPI_Group g, world;
  PMPI_Comm_group(comm, &g);
  PMPI_Comm_group(MPI_COMM_WORLD, &world);
  int *in = malloc((size_t)n * sizeof *in), *out = malloc((size_t)n * sizeof *out);
  if (in && out) {
    for (int i = 0; i < n; i++)
      in[i] = i;
    PMPI_Group_translate_ranks(g, n, in, world, out);
    for (int i = 0; i < n; i += 256) {
      char line[4096];
      size_t used = 0;
      for (int j = i; j < n && j < i + 256; j++)
        used += (size_t)snprintf(line + used, sizeof line - used, " %d", out[j]);
      mv__def("members %u%s", id, line);
    }
  }
  free(in);
  free(out);
  PMPI_Group_free(&g);
  PMPI_Group_free(&world);
}

struct mv__win_ent *mv__win(MPI_Win win)
{
  for (size_t i = G.nwins; i-- > 0;)
    if (G.wins[i].win == win)
      return &G.wins[i];
  return NULL;
}

static uint64_t req_key(MPI_Request req)
{
  uint64_t k = 0;
  memcpy(&k, &req, sizeof req < sizeof k ? sizeof req : sizeof k);
  return (k ^ (k >> 17)) * 0x9E3779B97F4A7C15u;
}

struct mv__req_ent *mv__req_find(MPI_Request req)
{
  if (!G.capreqs || req == MPI_REQUEST_NULL)
    return NULL;
  size_t mask = G.capreqs - 1;
  for (size_t i = req_key(req) & mask; G.reqs[i].kind; i = (i + 1) & mask)
    if (G.reqs[i].req == req)
      return &G.reqs[i];
  return NULL;
}

static void rehash(void)
{
  struct mv__req_ent *old = G.reqs;
  size_t oldcap = G.capreqs, cap = oldcap ? oldcap * 2 : 1024;
  struct mv__req_ent *t = calloc(cap, sizeof *t);
  if (!t)
    return;
  G.reqs = t;
  G.capreqs = cap;
  G.nreqs = 0;
  for (size_t i = 0; i < oldcap; i++)
    if (old[i].kind) {
      struct mv__req_ent *e = mv__req_add(old[i].req);
      if (e)
        *e = old[i];
    }
  free(old);
}

/* Duplicates are kept: MPICH hands out one shared handle for sends that completed at once,
 * so several pending entries may carry the same handle; completions take them in turn. */
struct mv__req_ent *mv__req_add(MPI_Request req)
{
  if ((G.nreqs + 1) * 2 > G.capreqs)
    rehash();
  if (!G.capreqs)
    return NULL;
  size_t mask = G.capreqs - 1, i = req_key(req) & mask;
  while (G.reqs[i].kind)
    i = (i + 1) & mask;
  G.nreqs++;
  memset(&G.reqs[i], 0, sizeof G.reqs[i]);
  G.reqs[i].req = req;
  return &G.reqs[i];
}

/* Backward-shift deletion keeps every probe chain unbroken without tombstones. */
void mv__req_del(struct mv__req_ent *e)
{
  size_t mask = G.capreqs - 1, i = (size_t)(e - G.reqs), j = i;
  e->kind = 0;
  G.nreqs--;
  for (;;) {
    j = (j + 1) & mask;
    if (!G.reqs[j].kind)
      return;
    size_t home = req_key(G.reqs[j].req) & mask;
    if ((j > i && (home <= i || home > j)) || (j < i && home <= i && home > j)) {
      G.reqs[i] = G.reqs[j];
      G.reqs[j].kind = 0;
      i = j;
    }
  }
}

void mv__tables_release(void)
{
  free(G.comms);
  free(G.wins);
  free(G.reqs);
  free(G.ops);
  free(G.sites);
  free(G.grps);
  free(G.files);
  free(G.seen);
  G.seen = NULL, G.nseen = G.capseen = 0;
  G.grps = NULL, G.ngrps = G.capgrps = 0;
  G.files = NULL, G.nfiles = G.capfiles = 0;
  G.comms = NULL, G.wins = NULL, G.reqs = NULL, G.ops = NULL, G.sites = NULL;
  G.ncomms = G.capcomms = G.nwins = G.capwins = G.nreqs = G.capreqs = 0;
  G.nops = G.capops = G.nsites = G.capsites = 0;
}
