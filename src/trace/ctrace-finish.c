/* The compressed trace of a run that did not reach MPI_Finalize (mpivet-trace-finish, finish.c):
 * every rank's raw records compressed as at MPI_Finalize (ctrace.c), the communicators each rank
 * belonged to taken from the definitions (their members in world ranks), the ranks merged in
 * one process, and DIR/compressed.mvt written with the truncation reasons of the definitions
 * (benchgen then prints it but refuses to generate). No MPI. */
#include <errno.h>
#include <stdlib.h>

#include "ctrace.h"

/* The intra-communicators world rank r belongs to: id, size and r's rank there. */
static size_t rank_comms(const struct mv__raw_defs *d, int r, struct mv__ct_comm *out)
{
  size_t n = 0;
  for (size_t i = 0; i < d->ncomms; i++)
    for (uint32_t k = 0; k < d->comms[i].filled; k++)
      if (d->comms[i].members[k] == (uint64_t)r) {
        out[n++] = (struct mv__ct_comm){d->comms[i].id, (int)d->comms[i].n, (int)k};
        break;
      }
  return n;
}

int mv__ct_finish(const char *dir, const struct mv__raw_defs *d)
{
  struct mv__ct_comm *comms = malloc((d->ncomms + 1) * sizeof *comms);
  struct mv__ct_set all = {0};
  int err = comms ? 0 : -ENOMEM, any = 0;
  for (int r = 0; r < d->nranks && !err; r++) {
    struct mv__ct_input in = {dir, r, d->nranks, &d->ranks[r].clock, comms, rank_comms(d, r, comms),
                              d->groups, d->ngroups};
    struct mv__ct_rank one;
    struct mv__ct_set s = {0};
    if (mv__ct_build(&in, &one) != 0)
      continue;  /* no raw records (died in MPI_Init): no calls of this rank */
    err = mv__ct_set_add_rank(&s, r, &one);
    if (!err)
      err = mv__ct_set_merge(&all, &s);
    mv__ct_set_release(&s);
    mv__bytes_release(&one.blob);
    any = 1;
  }
  if (!err && any)
    err = mv__ct_write(dir, &all, d, d->nranks);
  mv__ct_set_release(&all);
  free(comms);
  return err ? err : any ? 0 : -ENOENT;
}
