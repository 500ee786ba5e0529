/* For tests/mpi/trace-io.sh: every MPI-IO call the tracer records, on a file in the folder
 * argv[1] shared by all ranks: open (create, read-write), write_at / read_at of 16 bytes,
 * write_at_all / read_at_all of 8 (collective), iwrite_at / iread_at of 4 completed by
 * MPI_Wait, seek to rank x 4 from the start and write 4 at the individual pointer, sync,
 * close, and rank 0 deletes the file. Rank 0 prints "ok" when every read returned what was
 * written. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int rank, bad = 0, all = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  char path[4096];
  snprintf(path, sizeof path, "%s/data.bin", argc > 1 ? argv[1] : ".");
  MPI_File fh;
  MPI_Status st;
  MPI_Request req;
  int out[4] = {rank, rank + 1, rank + 2, rank + 3}, in[4] = {0};
  MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &fh);
  MPI_File_write_at(fh, rank * 16, out, 4, MPI_INT, &st);
  MPI_File_read_at(fh, rank * 16, in, 4, MPI_INT, MPI_STATUS_IGNORE);
  bad += in[3] != rank + 3;
  MPI_File_write_at_all(fh, 64 + rank * 8, out, 2, MPI_INT, &st);
  MPI_File_read_at_all(fh, 64 + rank * 8, in, 2, MPI_INT, &st);
  bad += in[1] != rank + 1;
  MPI_File_iwrite_at(fh, 128 + rank * 4, &out[2], 1, MPI_INT, &req);
  MPI_Wait(&req, MPI_STATUS_IGNORE);
  MPI_File_iread_at(fh, 128 + rank * 4, in, 1, MPI_INT, &req);
  MPI_Wait(&req, &st);
  bad += in[0] != rank + 2;
  MPI_File_seek(fh, rank * 4, MPI_SEEK_SET);
  MPI_File_write(fh, &out[3], 1, MPI_INT, MPI_STATUS_IGNORE);
  MPI_File_sync(fh);
  MPI_File_close(&fh);
  if (rank == 0)
    MPI_File_delete(path, MPI_INFO_NULL);
  MPI_Reduce(&bad, &all, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0)
    puts(all == 0 ? "ok" : "wrong data");
  MPI_Finalize();
  return 0;
}
