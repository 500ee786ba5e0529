/* For bench/trace_overhead: the floor of any Enter/Leave tracer of a ping-pong, preloaded like
 * libmpivet-trace: MPI_Send and MPI_Recv wrappers that only read the TSC before and after the
 * PMPI call (and store the stamps), as the tracer's fast path must at least do. */
#include <mpi.h>
#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#define STAMP(i) (stamps[i] = __rdtsc())
#else
#define STAMP(i) ((void)0)
#endif

static volatile unsigned long long stamps[4];

int MPI_Send(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm)
{
  STAMP(0);
  int ret = PMPI_Send(buf, count, type, dest, tag, comm);
  STAMP(1);
  return ret;
}

int MPI_Recv(void *buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm,
             MPI_Status *status)
{
  STAMP(2);
  int ret = PMPI_Recv(buf, count, type, source, tag, comm, status);
  STAMP(3);
  return ret;
}
