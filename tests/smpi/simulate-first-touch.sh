#!/usr/bin/env bash
# include/mpivet/first-touch.h under `mpivet simulate`: a receive into pages never written is
# charged MV_PAGE_TOUCH_S per page, once; written pages, pages received into before, SMPI shared
# memory, the root of a broadcast and strided types are not charged; a page shared by two
# receives posted at once is charged once. With 1 ms per page, 256 fresh 4 KiB pages
# must add 0.256 s to the first receive (SMPI is deterministic; the rest of the receive is the
# same simulated transfer with and without the header; the computation between calls, which
# includes the header's own page count, is not benched).
set -u
case " ${MV_FLAVORS//;/ } " in *" smpi "*) ;; *) echo "smpi flavor not built"; exit 77 ;; esac
[ "$(getconf PAGESIZE)" = 4096 ] || { echo "pages are not 4 KiB here"; exit 77; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
cat > "$tmp/touch.c" <<'C'
/* mode: fresh | written | shared | allreduce | bcast | halves | vector; prints the receiver's
 * first and second receive (bcast: also the root's) */
#define _DEFAULT_SOURCE 1
#include <mpi.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#define PAGES 256
int main(int argc, char **argv)
{
  int rank;
  size_t bytes = PAGES * 4096;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const char *mode = argc > 1 ? argv[1] : "fresh";
  char *b = strcmp(mode, "shared") == 0
                ? SMPI_SHARED_MALLOC(bytes)
                : mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  char *src = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  memset(src, 1, bytes);
  if (rank == 0 || strcmp(mode, "written") == 0)
    memset(b, 2, bytes);
  for (int i = 0; i < 2; i++) {
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    if (strcmp(mode, "allreduce") == 0)
      MPI_Allreduce(src, b, (int)bytes, MPI_BYTE, MPI_BOR, MPI_COMM_WORLD);
    else if (strcmp(mode, "bcast") == 0)
      MPI_Bcast(b, (int)bytes, MPI_BYTE, 0, MPI_COMM_WORLD);
    else if (strcmp(mode, "halves") == 0 && rank == 1) {
      /* two receives posted at once whose buffers share page PAGES/2: 256 pages, not 257 */
      int half = (int)bytes / 2 + 2048;
      MPI_Request r[2];
      MPI_Irecv(b, half, MPI_BYTE, 0, 0, MPI_COMM_WORLD, &r[0]);
      MPI_Irecv(b + half, (int)bytes - half, MPI_BYTE, 0, 1, MPI_COMM_WORLD, &r[1]);
      MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
    } else if (strcmp(mode, "halves") == 0) {
      int half = (int)bytes / 2 + 2048;
      MPI_Send(src, half, MPI_BYTE, 1, 0, MPI_COMM_WORLD);
      MPI_Send(src + half, (int)bytes - half, MPI_BYTE, 1, 1, MPI_COMM_WORLD);
    } else if (strcmp(mode, "vector") == 0) {
      /* one double per page: a strided type is not charged (its pages are not enumerated) */
      MPI_Datatype v;
      MPI_Type_vector(PAGES, 1, 512, MPI_DOUBLE, &v);
      MPI_Type_commit(&v);
      if (rank == 0)
        MPI_Send(src, 1, v, 1, 0, MPI_COMM_WORLD);
      else
        MPI_Recv(b, 1, v, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Type_free(&v);
    } else if (rank == 0)
      MPI_Send(src, (int)bytes, MPI_BYTE, 1, 0, MPI_COMM_WORLD);
    else
      MPI_Recv(b, (int)bytes, MPI_BYTE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    double t = MPI_Wtime() - t0;
    if (rank == (strcmp(mode, "bcast") == 0 ? 0 : 1))
      printf("t%d %.9f\n", i, t);
    if (strcmp(mode, "bcast") == 0 && rank == 1)
      printf("nonroot%d %.9f\n", i, t);
  }
  MPI_Finalize();
  return 0;
}
C
touch_flags=(--cflag -DMV_PAGE_TOUCH_S=1e-3 --cflag -include --cflag mpivet/first-touch.h)
run() {   # run NAME MODE [flags]: simulated times in $tmp/NAME
  local name=$1 mode=$2; shift 2
  "$MPIVET" simulate --np 2 --cfg smpi/simulate-computation:no "$@" "$tmp/touch.c" -- "$mode" > "$tmp/$name" 2>&1 ||
    { cat "$tmp/$name"; fail "$name: simulate failed"; }
}
val() { awk -v k="$2" '$1 == k {print $2}' "$tmp/$1"; }
# extra = with - without, for key K: expect E seconds (1 us tolerance)
check() {
  local name=$1 key=$2 want=$3
  local d; d=$(awk -v a="$(val "$name-with" "$key")" -v b="$(val "$name-without" "$key")" 'BEGIN {printf "%.6f", a - b}')
  awk -v d="$d" -v w="$want" 'BEGIN {exit !(d > w - 1e-6 && d < w + 1e-6)}' ||
    { cat "$tmp/$name-with" "$tmp/$name-without"; fail "$name $key: charged $d s, expected $want s"; }
}
for mode in fresh written shared allreduce bcast halves vector; do
  run "$mode-without" "$mode"
  run "$mode-with" "$mode" "${touch_flags[@]}"
done
check fresh t0 0.256; check fresh t1 0
check written t0 0; check shared t0 0
check allreduce t0 0.256; check allreduce t1 0
check bcast t0 0; check bcast nonroot0 0.256; check bcast nonroot1 0
# halves: the charge hides the transfers (they arrive meanwhile), so the first receive takes the
# charge itself: 256 pages = 0.256 s, and 257 would be 0.257 s
awk -v t="$(val halves-with t0)" 'BEGIN {exit !(t >= 0.256 && t < 0.2565)}' ||
  { cat "$tmp/halves-with"; fail "halves: first receive $(val halves-with t0) s, expected 0.256 s (256 pages once)"; }
check halves t1 0; check vector t0 0
# with emulate.h's hand-off cost (emulate-handoff.h defines MPI_Recv itself): both are charged,
# the touch wrapper calls that MPI_Recv (and the two headers compile together)
run fresh-both-with fresh "${touch_flags[@]}" --cflag -DMV_EMULATE_HANDOFF_SECONDS=1e-3 \
  --cflag -include --cflag mpivet/emulate.h
cp "$tmp/fresh-without" "$tmp/fresh-both-without"
check fresh-both t0 0.257; check fresh-both t1 0.001
# without MV_PAGE_TOUCH_S the header changes nothing
run fresh-off fresh --cflag -include --cflag mpivet/first-touch.h
[ "$(val fresh-off t0)" = "$(val fresh-without t0)" ] || fail "header without MV_PAGE_TOUCH_S charged something"
echo "first-touch: 256 fresh pages charged 0.256 s once; written, shared and root buffers free: ok"
