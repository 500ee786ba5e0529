/* The Fortran side of libmpivet-trace: the generated entry points (trace-fortran.c) trace
 * mpif.h / `use mpi` calls (and Open MPI's mpi_f08) around the library's own binding; this file
 * finds that binding and converts statuses, requests and indices for the hooks. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1  /* RTLD_NEXT */
#endif
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fortran.h"

void *mv__fortran_next(const char *symbol)
{
  void *f = dlsym(RTLD_NEXT, symbol);
  if (!f)
    fprintf(stderr, "mpivet-trace: the MPI library has no Fortran binding %s (is the application "
                    "linked with another MPI than the tracer?)\n", symbol);
  return f;
}

void mv__f_string(char *c, size_t size, const char *f, size_t len)
{
  while (len > 0 && f[len - 1] == ' ')
    len--;
  if (len >= size)
    len = size - 1;
  memcpy(c, f, len);
  c[len] = 0;
}

/* stack, or room for n elements of size bytes on the heap (NULL when memory is short) */
static void *room(int n, size_t size, void *stack, size_t stack_n)
{
  if (n <= 0 || (size_t)n <= stack_n)
    return stack;
  return malloc((size_t)n * size);
}

/* name(n, f, stack, heap): the n elements of f converted by conv into stack or *heap. */
#define MV__F_ARRAY(name, type, conv)                                  \
  type *name(int n, const MPI_Fint *f, type *stack, type **heap)       \
  {                                                                    \
    type *c = room(n, sizeof *c, stack, MV__STATUS_STACK);             \
    if (c != stack)                                                    \
      *heap = c;                                                       \
    for (int i = 0; c && i < n; i++)                                   \
      c[i] = conv(f[i]);                                               \
    return c;                                                          \
  }
MV__F_ARRAY(mv__f_requests, MPI_Request, MPI_Request_f2c)
MV__F_ARRAY(mv__f_indices, int, mv__f_index)

MPI_Status *mv__f_status(const MPI_Fint *f, MPI_Status *c)
{
  memset(c, 0, sizeof *c);
  if (f == MV__F_STATUS_IGNORE)
    return MPI_STATUS_IGNORE;
#ifdef MV_SMPI
  memcpy(c, f, sizeof *c);  /* SMPI's Fortran status is the C struct; it has no MPI_Status_f2c */
#else
  if (MPI_Status_f2c(f, c) != MPI_SUCCESS)
    return MPI_STATUS_IGNORE;
#endif
  return c;
}

MPI_Status *mv__f_statuses(int n, const MPI_Fint *f, MPI_Status *stack, MPI_Status **heap)
{
  if (f == MV__F_STATUSES_IGNORE)
    return MPI_STATUSES_IGNORE;
  MPI_Status *c = room(n, sizeof *c, stack, MV__STATUS_STACK);
  if (!c)
    return MPI_STATUSES_IGNORE;
  if (c != stack)
    *heap = c;
  for (int i = 0; i < n; i++)
    if (mv__f_status(f + (size_t)i * MV__F_STATUS_SIZE, &c[i]) == MPI_STATUS_IGNORE)
      return MPI_STATUSES_IGNORE;
  return c;
}

MPI_Fint *mv__f_status_room(int n, MPI_Fint *stack, MPI_Fint **heap)
{
  MPI_Fint *f = room(n, sizeof *f * MV__F_STATUS_SIZE, stack, MV__STATUS_STACK);
  if (!f)
    return MV__F_STATUSES_IGNORE;
  if (f != stack)
    *heap = f;
  return f;
}

/* mpi_f08's MPI_Init: Open MPI's goes through ompi_init_f (traced); MPICH's calls the library
 * directly, so the tracer never starts: say so instead of leaving an unexplained missing trace. */
static void f08_init_done(void)
{
  int rank = 0;
  if (G.size != 0)
    return;  /* the tracer's MPI_Init hook ran */
  PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0)
    fprintf(stderr, "mpivet-trace: rank 0: this MPI library's mpi_f08 bindings do not go through the "
                    "tracer: the run is not traced (trace it with `use mpi` or mpif.h, which are)\n");
}

typedef void f08_init_fn(MPI_Fint *ierr);
typedef void f08_init_thread_fn(MPI_Fint *required, MPI_Fint *provided, MPI_Fint *ierr);

MV__EXPORT void mpi_init_f08_(MPI_Fint *ierr)
{
  f08_init_fn *real = (f08_init_fn *)mv__fortran_next("mpi_init_f08_");
  if (!real) {
    if (ierr)
      *ierr = MPI_ERR_OTHER;
    return;
  }
  real(ierr);
  f08_init_done();
}

MV__EXPORT void mpi_init_thread_f08_(MPI_Fint *required, MPI_Fint *provided, MPI_Fint *ierr)
{
  f08_init_thread_fn *real = (f08_init_thread_fn *)mv__fortran_next("mpi_init_thread_f08_");
  if (!real) {
    if (ierr)
      *ierr = MPI_ERR_OTHER;
    return;
  }
  real(required, provided, ierr);
  f08_init_done();
}
