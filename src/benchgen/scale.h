/* Benchmarks for any process count (issue 18; the paper's ScalaExtrap part): traces of one
 * program at 3 or more process counts aligned class by class, and every number that changes
 * with the count fitted as a + b * term(P). Ranks are classified by their region in a line of P
 * ranks (first, interior, last), in the grid MPI_Dims_create(P, 2) makes (corners, edges,
 * interior) or in the 3-D grid of MPI_Dims_create(P, 3) (first, interior, last per dimension);
 * a class that is no union of regions, a structure that changes with the count or a
 * number no form fits is refused by name, never guessed. */
#ifndef MPIVET_BENCHGEN_SCALE_H
#define MPIVET_BENCHGEN_SCALE_H

#include <stdint.h>

#include "internal.h"

/* Terms of a form, as a name in the generated program's C: P the run's size, D0 x D1 the grid
 * of MPI_Dims_create(P, 2), the depths floor/ceil(log2 P) of the trees collectives use; for 3-D
 * grids T0 x T1 x T2 of MPI_Dims_create(P, 3): a row T2 and a plane T1 * T2 (the peers of a
 * 7-point stencil). Integer terms first (mv__bg_form_c). */
#define MV__BG_TERMS(X) X(ONE, "1") X(P, "P") X(D1, "D1") X(D0, "D0") X(T2, "T2") X(T12, "(T1 * T2)") \
  X(INVP, "(1.0 / P)") X(LOGP, "log2((double)P)") X(FLOG2, "floor(log2((double)P))") \
  X(CLOG2, "ceil(log2((double)P))")
enum mv__bg_term {
#define MV__BG_T(name, c) MV__BG_T_##name,
  MV__BG_TERMS(MV__BG_T)
#undef MV__BG_T
  MV__BG_T_COUNT
};
struct mv__bg_form { int term; double a, b; };   /* a + b * term */
/* How the benchmark makes a communicator number at any count: MPI_Comm_split(MPI_COMM_WORLD,
 * colour, key) with colour r / x (mod 0) or r % x (mod 1), x the term D1, T2 or T1 * T2 (rows or
 * columns of the 2-D grid; lines or planes of the 3-D one), key r (desc 0) or P - r (desc 1).
 * term -1: a copy of MPI_COMM_WORLD, or not used. */
struct mv__bg_split { int term, mod, desc; };

struct mv__bg_scale {
  const struct mv_mvt *const *t;  /* the traces by process count; t[n - 1] is the template */
  size_t n;
  int dims;                       /* 1: a line of ranks; 2, 3: the grid MPI_Dims_create(P, dims) */
  unsigned present;               /* regions with ranks in the template */
  unsigned *mask;                 /* per class of the template: its regions */
  struct mv__bg_form **ops;       /* per template signature: nops * MV_MVT_MAXF, by field position */
  struct mv__bg_form **counts;    /* per template class: the items of its rules, then of main */
  struct mv__bg_form **comp;      /* per template class, 2 per item (as counts): the first computation
                                   * before the call and the mean of the others (ns) */
  size_t nsyms;                   /* communicator numbers 0 .. nsyms - 1 */
  struct mv__bg_split *split;     /* per number */
};

/* 0, or MV_EUNSUP / MV_EINVAL with msg saying what cannot be extrapolated; MV_ENOMEM. */
int mv__bg_scale_build(struct mv__bg_scale *sc, const struct mv_mvt *const *t, size_t n, char *msg,
                       size_t msgsize);
void mv__bg_scale_release(struct mv__bg_scale *sc);

/* The region of rank r among p ranks laid out in dims dimensions (0..26), the grid's sides. */
unsigned mv__bg_region(int dims, uint32_t p, uint32_t r);
void mv__bg_dims2(uint32_t p, uint32_t *d0, uint32_t *d1);
void mv__bg_dims3(uint32_t p, uint32_t d[3]);
const char *mv__bg_region_name(int dims, unsigned region);
/* The generated program's region(rank) function, the same rule as mv__bg_region. */
extern const char mv__bg_region_c[];

/* Fits (scale-fit.c): integer values v[i] at p[i] ranks (mod non-NULL: equal modulo mod[i], the
 * size of a peer's communicator) exactly with the first form of the term order: 0, -1 when none
 * fits, -2 when a second term (*other) fits too (the traced counts do not tell them apart); real
 * values (computation) with the least relative residual, a constant when that is within 5 %. */
double mv__bg_term(int term, uint32_t p);
const char *mv__bg_term_name(int term);
int mv__bg_fit_int(int dims, const uint32_t *p, const double *v, size_t n, const uint32_t *mod,
                   struct mv__bg_form *f, int *other);
void mv__bg_fit_real(int dims, const uint32_t *p, const double *v, size_t n, struct mv__bg_form *f);
/* The form as C: an integer rounded (lround) unless constant or with integer coefficients. */
void mv__bg_form_c(const struct mv__bg_form *f, int integer, char *buf, size_t size);
double mv__bg_form_at(const struct mv__bg_form *f, uint32_t p);

#endif
