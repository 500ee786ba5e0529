/* Window creation and release, for SMPI. A real MPI_Win_allocate takes time that grows with the
 * window (Open MPI: 89 us at 0 B, 13.7 ms at 16 MiB on stop 31's VM; MPICH 5.8 us to 6.0 ms),
 * and so does Open MPI's MPI_Win_free of an allocated window; SMPI charges under a microsecond
 * whatever the size (an allgather and a barrier), so a program that makes many windows (NWChem's
 * Global Arrays: 344 a run) was predicted short. `mpivet calibrate` times the four operations per
 * size (mpivet-calib's win-* jobs) and stores a segmented fit of each in calibration.json
 * ("windows"); `mpivet simulate` writes them into its work folder as the macros below and
 * includes this header into every program it builds with that calibration.
 *
 * MV_WIN_COSTS: rows {op, from_bytes, intercept_s, slope_s_per_byte}, op 0 = MPI_Win_allocate,
 * 1 = MPI_Win_free of an allocated window, 2 = MPI_Win_create, 3 = MPI_Win_free of a created one
 * (mpivet/calib.h's win-allocate..win-create-free); the rows of an op ascend by from_bytes and
 * the first also holds below its bound (as mv_piecewise_eval, which a program built with smpicc
 * cannot call). MV_WIN_SMPI_S: {s0, s1, s2, s3}, what SMPI itself charged for each op on the
 * calibration's platform. After each call, through the profiling interface, the rank computes
 * (smpi_execute_benched) the fitted cost at the window's size (its own bytes; a free: the size
 * the window was made with) minus SMPI's own, when positive. The collective part that SMPI simulates stays SMPI's; the calls synchronise, so
 * charging after the call or before it ends at the same time when every rank is charged alike.
 * Not charged: MPI_Win_allocate_shared and MPI_Win_create_dynamic (not measured), and windows
 * of a binary built elsewhere. On a real MPI, without MV_WIN_COSTS, or with MV_WIN_COST_OFF,
 * this header only includes mpi.h. */
#ifndef MPIVET_WIN_COST_H
#define MPIVET_WIN_COST_H

#include <mpi.h>

#if defined(SMPI_SHARED_MALLOC) && defined(MV_WIN_COSTS) && !defined(MV_WIN_COST_OFF)
#include <stddef.h>

#ifndef MV_WIN_SMPI_S
#define MV_WIN_SMPI_S {0, 0, 0, 0}
#endif

struct mv__win_cost_row { int op; double from, intercept, slope; };
__attribute__((unused)) static const struct mv__win_cost_row mv__win_cost_rows[] = {MV_WIN_COSTS};
__attribute__((unused)) static const double mv__win_smpi_s[4] = MV_WIN_SMPI_S;

/* The op's fitted seconds at bytes minus SMPI's own, at least 0 (0 for an op without rows). */
static inline double mv__win_cost(int op, double bytes)
{
  const struct mv__win_cost_row *hit = 0;
  for (size_t i = 0; i < sizeof mv__win_cost_rows / sizeof mv__win_cost_rows[0]; i++)
    if (mv__win_cost_rows[i].op == op && (!hit || bytes > mv__win_cost_rows[i].from))
      hit = &mv__win_cost_rows[i];
  double s = hit ? hit->intercept + hit->slope * bytes - mv__win_smpi_s[op] : 0;
  return s > 0 ? s : 0;
}

static inline void mv__win_charge(int op, double bytes)
{
  double s = mv__win_cost(op, bytes);
  if (s > 0)
    smpi_execute_benched(s);
}

/* This rank's live windows (SMPI privatizes the program's statics per rank): the op that frees
 * each and its size. SMPI 3.32 has no MPI_WIN_CREATE_FLAVOR attribute (MPI_ERR_ARG). Beyond
 * MV__WIN_MAX live windows, a free is not charged. */
#define MV__WIN_MAX 1024   /* 24 KiB of statics, which SMPI copies for every rank */
__attribute__((unused)) static struct {
  MPI_Win win[MV__WIN_MAX];
  int free_op[MV__WIN_MAX];
  double bytes[MV__WIN_MAX];
  int n;
} mv__win_live;

static inline void mv__win_made(MPI_Win win, int op, double bytes)
{
  mv__win_charge(op, bytes);
  if (mv__win_live.n < MV__WIN_MAX) {
    int i = mv__win_live.n++;
    mv__win_live.win[i] = win, mv__win_live.free_op[i] = op + 1, mv__win_live.bytes[i] = bytes;
  }
}

/* Weak, as SMPI's own MPI_ functions: the program's definition, if any, wins. */
__attribute__((weak)) int (MPI_Win_allocate)(MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm,
                                             void *base, MPI_Win *win)
{
  int rc = PMPI_Win_allocate(size, disp_unit, info, comm, base, win);
  if (rc == MPI_SUCCESS)
    mv__win_made(*win, 0, (double)size);
  return rc;
}

__attribute__((weak)) int (MPI_Win_create)(void *base, MPI_Aint size, int disp_unit, MPI_Info info,
                                           MPI_Comm comm, MPI_Win *win)
{
  int rc = PMPI_Win_create(base, size, disp_unit, info, comm, win);
  if (rc == MPI_SUCCESS)
    mv__win_made(*win, 2, (double)size);
  return rc;
}

__attribute__((weak)) int (MPI_Win_free)(MPI_Win *win)
{
  int op = -1;
  double bytes = 0;
  for (int i = 0; i < mv__win_live.n; i++)
    if (mv__win_live.win[i] == *win) {
      op = mv__win_live.free_op[i], bytes = mv__win_live.bytes[i];
      int last = --mv__win_live.n;
      mv__win_live.win[i] = mv__win_live.win[last];
      mv__win_live.free_op[i] = mv__win_live.free_op[last];
      mv__win_live.bytes[i] = mv__win_live.bytes[last];
      break;
    }
  int rc = PMPI_Win_free(win);
  if (rc == MPI_SUCCESS && op >= 0)
    mv__win_charge(op, bytes);
  return rc;
}
#endif

#endif
