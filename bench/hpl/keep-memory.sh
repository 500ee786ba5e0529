# Sourced by hpl.sh and calibrate.sh: the real HPL runs with glibc keeping the memory it frees
# (trim threshold 4 GiB; mmap threshold 32 MiB, glibc's own ceiling for its dynamic threshold, so
# the matrix is still mapped apart). HPL mallocs and frees its panels at every step, glibc gives
# such blocks back to the system, and the first touch of a fresh page costs about 20 us in this VM
# (a fresh 4 MiB written once: 18-29 ms, again 0.2-0.3 ms), which the simulation does not charge.
# HPL_KEEP_MEMORY=0 keeps glibc's defaults. Sets the array keep (mpirun arguments).
# With the memory kept, the heap still grew onto never-touched pages in the measured solve (2 x 1,
# N = 1000: 248 faults on rank 1 in every other solve, pretouch.c): OUT/pretouch.so (build.sh),
# preloaded into the ranks, first writes HPL_PRETOUCH_MB (default 64) MiB of heap that glibc then
# keeps; HPL_PRETOUCH_MB=0 turns it off. Needs $out (the build folder) set.
keep=()
if [ "${HPL_KEEP_MEMORY:-1}" = 1 ]; then
  keep=(-x GLIBC_TUNABLES=glibc.malloc.mmap_threshold=33554432:glibc.malloc.trim_threshold=4294967296)
  [ "${HPL_PRETOUCH_MB:-64}" = 0 ] || keep+=(-x LD_PRELOAD="$out/pretouch.so" -x MV_PRETOUCH_MB="${HPL_PRETOUCH_MB:-64}")
fi
