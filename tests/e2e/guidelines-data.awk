# Synthetic results.csv for the `mpivet guidelines` end-to-end tests: every default call and
# mock-up of share/mpivet/guidelines.catalog, deterministic noise (no rand(): awk versions differ).
# Variables: libs ("A;B"), runs (R), reps, plant (1: plant the violations below, 0: none).
# Planted in each library: allreduce_as_reduce_bcast 30% faster than MPI_Allreduce at msize <= 16
# (pattern GL12), MPI_Bcast twice as slow at 128 as the trend (monotony 128 > 256), MPI_Gather
# at 1024 three times its 512 time (split with m_i = 512, k = 2; m_i = 256 violates too but must
# not be reported). A second library also violates GL7 (scatter_as_bcast) at every size.
BEGIN {
  if (runs == "") runs = 10
  if (reps == "") reps = 5
  if (libs == "") libs = "Synthetic MPI 1.0"
  if (plant == "") plant = 1
  nl = split(libs, lib, ";")
  # op -> mock-ups (pattern guidelines), from the catalog
  mock["MPI_Gather"] = "gather_as_allgather gather_as_reduce"
  mock["MPI_Allgather"] = "allgather_as_alltoall allgather_as_allreduce allgather_as_gather_bcast"
  mock["MPI_Scatter"] = "scatter_as_bcast"
  mock["MPI_Reduce"] = "reduce_as_allreduce reduce_as_reduce_scatter_block_gather"
  mock["MPI_Reduce_scatter"] = "reduce_scatter_as_allreduce reduce_scatter_as_reduce_scatterv"
  mock["MPI_Bcast"] = "bcast_as_scatter_allgather"
  mock["MPI_Allreduce"] = "allreduce_as_reduce_bcast allreduce_as_reduce_scatter_block_allgather"
  mock["MPI_Reduce_scatter_block"] = "reduce_scatter_block_as_reduce_scatter"
  mock["MPI_Scan"] = "scan_as_exscan_reduce_local"
  print "run,engine,library,nprocs,ppn,op,impl,msize,metric,rep,value,valid"
  for (l = 1; l <= nl; l++)
    for (op in mock) {
      n = split("default " mock[op], impls, " ")
      for (i = 1; i <= n; i++)
        for (m = 8; m <= 1024; m *= 2)
          emit(l, op, impls[i], m)
    }
}
function base(l, op, impl, m,   t) {
  t = 1e-5 * (1 + m / 256) * (1 + length(op) / 40)
  if (impl != "default") t *= 1.5
  if (!plant) return t
  if (impl == "allreduce_as_reduce_bcast" && m <= 16) t *= 0.7 / 1.5
  if (op == "MPI_Bcast" && impl == "default" && m == 128) t *= 2
  if (op == "MPI_Gather" && impl == "default" && m == 1024) t = 3 * base(l, op, impl, 512)
  if (l == 2 && impl == "scatter_as_bcast") t *= 0.5 / 1.5
  return t
}
function emit(l, op, impl, m,   r, k, b, h, launch, rep) {
  b = base(l, op, impl, m)
  h = length(op) * 131 + length(impl) * 17 + m * 7 + l * 1009
  for (r = 0; r < runs; r++) {
    launch = ((h + r * 7919) % 101) / 101 - 0.5          # launch-to-launch offset in [-0.5, 0.5)
    for (k = 0; k < reps; k++) {
      rep = ((h + r * 613 + k * 104729) % 97) / 97      # repetition noise in [0, 1)
      printf "%d,mpirun,%s,4,4,%s,%s,%d,time_s,%d,%.9g,1\n", r, lib[l], op, impl, m, k,
             b * (1 + 0.04 * launch + 0.02 * rep)
    }
  }
}
