/* Which collective algorithm a library's selector picks, so that a regime change can be named.
 * One table: SMPI with --cfg=smpi/coll-selector:mpich (how mpivet always runs SMPI), whose
 * rules are SimGrid 3.32's src/smpi/colls/smpi_mpich_selector.cpp (MPICH's decisions of Thakur
 * et al. 2005): Allgather and Allgatherv use recursive doubling for a power-of-two number of
 * processes and a total below 512 KiB, Bruck up to 80 KiB, the ring otherwise. */
#include <string.h>

#include "internal.h"

static int pow2(long long p)
{
  return p > 0 && (p & (p - 1)) == 0;
}

static const char *mpich_allgather(long long total, long long p)
{
  if (pow2(p) && total < 524288)
    return "recursive doubling";
  return total <= 81920 ? "Bruck" : "ring";
}

static const struct {
  const char *library_prefix, *op;
  const char *(*pick)(long long total, long long p);
  const char *selector;
} rules[] = {
  {"SMPI", "MPI_Allgather", mpich_allgather, "SMPI's MPICH selector"},
  {"SMPI", "MPI_Allgatherv", mpich_allgather, "SMPI's MPICH selector"},
};

const char *mv__selector_algorithm(const char *library, const char *op, long long total,
                                   long long p, const char **selector)
{
  for (size_t i = 0; i < sizeof rules / sizeof rules[0]; i++)
    if (strncmp(library, rules[i].library_prefix, strlen(rules[i].library_prefix)) == 0 &&
        strcmp(op, rules[i].op) == 0) {
      *selector = rules[i].selector;
      return rules[i].pick(total, p);
    }
  return NULL;
}
