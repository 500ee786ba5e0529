/* The HPL driver of mpivet's HPL case: hpcc's HPL (HPL_main reads hpccinf.txt and writes
 * hpccoutf.txt in the current folder) wrapped in MPI_Init/MPI_Finalize, with one summary line on
 * stdout: N, NB, P, Q, time and Gflop/s as HPL computed them. A real run also prints, per rank on
 * stderr, the seconds its main thread waited on a run queue (/proc/self/schedstat's run_delay):
 * under chrt -f 20 the kernel's real-time throttling stops a task for 50 ms once it used 0.95 s
 * of a second, and a stopped run is not a measurement of HPL. */
#include <mpi.h>
#include <stdio.h>

#include "hpl.h"
#include "mpivet/emulate.h" /* MV_EMULATING: hpl.h includes it only with HPL_CALL_CBLAS */

/* hpcc's fallback when hpccinf.txt is missing or illegal: here that is an error, not defaults. */
int HPCC_Defaults(HPL_T_test *TEST, int *NS, int *N, int *NBS, int *NB, HPL_T_ORDER *PMAPPIN,
                  int *NPQS, int *P, int *Q, int *NPFS, HPL_T_FACT *PF, int *NBMS, int *NBM,
                  int *NDVS, int *NDV, int *NRFS, HPL_T_FACT *RF, int *NTPS, HPL_T_TOP *TP,
                  int *NDHS, int *DH, HPL_T_SWAP *FSWAP, int *TSWAP, int *L1NOTRAN, int *UNOTRAN,
                  int *EQUIL, int *ALIGN, MPI_Comm comm)
{
  (void)TEST, (void)NS, (void)N, (void)NBS, (void)NB, (void)PMAPPIN, (void)NPQS, (void)P, (void)Q;
  (void)NPFS, (void)PF, (void)NBMS, (void)NBM, (void)NDVS, (void)NDV, (void)NRFS, (void)RF;
  (void)NTPS, (void)TP, (void)NDHS, (void)DH, (void)FSWAP, (void)TSWAP, (void)L1NOTRAN;
  (void)UNOTRAN, (void)EQUIL, (void)ALIGN;
  fprintf(stderr, "hpl: hpccinf.txt missing or illegal in the current folder\n");
  MPI_Abort(comm, 2);
  return -1;
}

/* "mv-sched rank R run_delay_s X" on stderr (not under SMPI: the simulator's own thread). */
static void print_run_delay(int rank)
{
#if !MV_EMULATING
  unsigned long long run_ns = 0, wait_ns = 0;
  FILE *fp = fopen("/proc/self/schedstat", "r");
  if (fp && fscanf(fp, "%llu %llu", &run_ns, &wait_ns) == 2)
    fprintf(stderr, "mv-sched rank %d run_delay_s %.6f cpu_s %.6f\n", rank, wait_ns * 1e-9, run_ns * 1e-9);
  if (fp)
    fclose(fp);
#else
  (void)rank;
#endif
}

int main(int argc, char **argv)
{
  HPL_RuntimeData r = {0}; /* HPL_main keeps the best test's figures: r.Gflops must start at 0 */
  int failure = 0, rank;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  HPL_main(argc, argv, &r, &failure);
  if (rank == 0)
    printf("hpl: N %d NB %d P %d Q %d time %.6f s gflops %.6f\n", r.N, r.NB, r.nprow, r.npcol,
           r.time, r.Gflops);
  print_run_delay(rank);
  MPI_Finalize();
  return failure;
}
