/* mpivet-analyze-mpi: the parallel wait-state analyzer. Run under MPI with any number of
 * processes; each reads a block of the trace's locations, records are exchanged with
 * MPI_Alltoallv, and process 0 writes the same report `mpivet analyze` writes.
 *   mpirun -np P mpivet-analyze-mpi TRACE [--json] [--top N] [--cube FILE.cubex] */
#include <limits.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "mpivet/analyze.h"
#include "mpivet/error.h"

static int to_int_counts(const size_t *len, int n, int *out)
{
  for (int i = 0; i < n; i++) {
    if (len[i] > INT_MAX)
      return MV_ERANGE;
    out[i] = (int)len[i];
  }
  return 0;
}

static int displs(const int *counts, int n, int *out)
{
  long long sum = 0;
  for (int i = 0; i < n; i++) {
    out[i] = (int)sum;
    sum += counts[i];
  }
  return sum > INT_MAX ? -1 : (int)sum;
}

static int alltoallv(void *ctx, void *const *send, const size_t *sendlen, void **recv, size_t *recvlen)
{
  int size, err = 0;
  (void)ctx;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int *sc = malloc(4 * (size_t)size * sizeof *sc), *rc = sc + size, *sd = rc + size, *rd = sd + size;
  char *sbuf = NULL;
  if (!sc)
    MPI_Abort(MPI_COMM_WORLD, 1);
  if (to_int_counts(sendlen, size, sc))
    MPI_Abort(MPI_COMM_WORLD, 1);
  MPI_Alltoall(sc, 1, MPI_INT, rc, 1, MPI_INT, MPI_COMM_WORLD);
  int stotal = displs(sc, size, sd), rtotal = displs(rc, size, rd);
  sbuf = malloc(stotal > 0 ? (size_t)stotal : 1);
  *recv = malloc(rtotal > 0 ? (size_t)rtotal : 1);
  if (stotal < 0 || rtotal < 0 || !sbuf || !*recv)
    MPI_Abort(MPI_COMM_WORLD, 1);
  for (int i = 0; i < size; i++)
    if (sc[i])
      memcpy(sbuf + sd[i], send[i], (size_t)sc[i]);
  if (MPI_Alltoallv(sbuf, sc, sd, MPI_BYTE, *recv, rc, rd, MPI_BYTE, MPI_COMM_WORLD) != MPI_SUCCESS)
    err = MV_EIO;
  *recvlen = (size_t)rtotal;
  free(sbuf);
  free(sc);
  return err;
}

static int gather(void *ctx, const void *buf, size_t len, void **all, size_t *alllen)
{
  int size, rank, n = (int)len;
  (void)ctx;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (len > INT_MAX)
    MPI_Abort(MPI_COMM_WORLD, 1);
  int *counts = malloc(2 * (size_t)size * sizeof *counts), *d = counts + size;
  if (!counts)
    MPI_Abort(MPI_COMM_WORLD, 1);
  MPI_Gather(&n, 1, MPI_INT, counts, 1, MPI_INT, 0, MPI_COMM_WORLD);
  int total = rank == 0 ? displs(counts, size, d) : 0;
  *all = NULL;
  if (rank == 0 && (total < 0 || !(*all = malloc(total ? (size_t)total : 1))))
    MPI_Abort(MPI_COMM_WORLD, 1);
  MPI_Gatherv(buf, n, MPI_BYTE, *all, counts, d, MPI_BYTE, 0, MPI_COMM_WORLD);
  *alllen = (size_t)total;
  free(counts);
  return 0;
}

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int rank, size, json = 0, top = 10;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const char *trace = NULL, *cube = NULL;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--json"))
      json = 1;
    else if (!strcmp(argv[i], "--top") && i + 1 < argc)
      top = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--cube") && i + 1 < argc)
      cube = argv[++i];
    else
      trace = argv[i];
  }
  if (!trace) {
    if (rank == 0)
      fprintf(stderr, "usage: mpirun -np P mpivet-analyze-mpi TRACE [--json] [--top N] [--cube FILE.cubex]\n");
    MPI_Finalize();
    return 2;
  }
  char anchor[4096], err[MV_ERROR_TEXT_SIZE];
  struct mv_error e;
  struct stat st;
  snprintf(anchor, sizeof anchor, stat(trace, &st) == 0 && S_ISDIR(st.st_mode) ? "%s/traces.otf2" : "%s", trace);
  struct mv_analyze_exchange ex = {rank, size, NULL, alltoallv, gather};
  struct mv_analysis *a = NULL;
  double t0 = MPI_Wtime();
  int rc = mv_analyze_trace(anchor, &ex, &a, &e);
  double dt = MPI_Wtime() - t0;
  int code = 0;
  if (rank == 0) {
    if (rc) {
      fprintf(stderr, "mpivet-analyze-mpi: %s\n", mv_error_text(&e, err, sizeof err));
      code = 2;
    } else if (mv_analysis_events(a) == 0) {   /* as mpivet analyze: zeros would read as no waits */
      fprintf(stderr, "mpivet-analyze-mpi: %s: no events could be read: nothing to analyze\n", trace);
      code = 2;
    } else {
      const char *note;
      if (mv_analysis_partial(a, &note))
        fprintf(stderr, "mpivet-analyze-mpi: warning: partial analysis, the trace is truncated: %s\n", note);
      code = (json ? mv_analysis_write_json(a, stdout) : mv_analysis_write_text(a, stdout, top)) ? 2 : 0;
      if (cube && mv_analysis_save_cube(a, cube) != 0) {
        fprintf(stderr, "mpivet-analyze-mpi: %s: cannot write the cube\n", cube);
        code = 2;
      }
      fprintf(stderr, "mpivet-analyze-mpi: %d processes, %llu events in %.3f s (%.2f M events/s)\n", size,
              (unsigned long long)mv_analysis_events(a), dt, (double)mv_analysis_events(a) / dt / 1e6);
    }
  }
  mv_analysis_free(a);
  MPI_Finalize();
  return code;
}
