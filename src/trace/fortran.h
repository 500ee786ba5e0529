/* What the generated Fortran entry points (trace-fortran.c) call besides the C wrappers' frame:
 * finding the MPI library's own Fortran binding, and converting the few arguments the hooks
 * read (statuses, requests, 1-based indices) from Fortran to C. Internal to libmpivet-trace. */
#ifndef MPIVET_TRACE_FORTRAN_H
#define MPIVET_TRACE_FORTRAN_H

#include <mpi.h>

#include "hooks.h"

/* Integers in a Fortran status: MPICH says so, Open MPI's equals the C struct's size. */
#ifdef MPI_F_STATUS_SIZE
#define MV__F_STATUS_SIZE MPI_F_STATUS_SIZE
#else
#define MV__F_STATUS_SIZE ((int)(sizeof(MPI_Status) / sizeof(MPI_Fint)))
#endif
_Static_assert(sizeof(MPI_Fint) == sizeof(int), "Fortran INTEGER arrays are read as int arrays");
/* What a Fortran MPI_STATUS(ES)_IGNORE arrives as. SMPI: the addresses of these variables of
 * libsimgrid (its MPI_F_STATUS_IGNORE is 0, which its Fortran bindings never receive). */
#ifdef MV_SMPI
extern MPI_Fint mpi_status_ignore_, mpi_statuses_ignore_;
#define MV__F_STATUS_IGNORE (&mpi_status_ignore_)
#define MV__F_STATUSES_IGNORE (&mpi_statuses_ignore_)
#else
#define MV__F_STATUS_IGNORE MPI_F_STATUS_IGNORE
#define MV__F_STATUSES_IGNORE MPI_F_STATUSES_IGNORE
#endif

/* The next definition of a Fortran binding symbol (the MPI library's); NULL, said on stderr,
 * when the library has none. */
void *mv__fortran_next(const char *symbol);

/* A CHARACTER argument of len characters as a C string in c (size bytes): trailing blanks
 * dropped, cut to fit. */
void mv__f_string(char *c, size_t size, const char *f, size_t len);

/* A Fortran index (1-based, MPI_UNDEFINED stays) as C's. */
static inline int mv__f_index(MPI_Fint i)
{
  return i == MPI_UNDEFINED ? MPI_UNDEFINED : (int)i - 1;
}

/* C copies of n Fortran handles / indices / statuses, in stack (MV__STATUS_STACK entries) or
 * in *heap (to be freed); when memory is short NULL (requests, indices) or MPI_STATUSES_IGNORE,
 * which the hooks skip, as they skip a status that cannot be converted (MPI_STATUS_IGNORE). */
MPI_Request *mv__f_requests(int n, const MPI_Fint *f, MPI_Request *stack, MPI_Request **heap);
int *mv__f_indices(int n, const MPI_Fint *f, int *stack, int **heap);
MPI_Status *mv__f_status(const MPI_Fint *f, MPI_Status *c);
MPI_Status *mv__f_statuses(int n, const MPI_Fint *f, MPI_Status *stack, MPI_Status **heap);
/* Room for n Fortran statuses where the application passed MPI_STATUSES_IGNORE (so that the
 * hooks can read them): stack (MV__STATUS_STACK statuses) or *heap; MV__F_STATUSES_IGNORE
 * when memory is short. */
MPI_Fint *mv__f_status_room(int n, MPI_Fint *stack, MPI_Fint **heap);

#endif
