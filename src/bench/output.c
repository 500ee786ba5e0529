/* Output of mpivet-bench (rank 0 only): results.csv rows through the common writer, the
 * self-describing meta JSON (library, timer, clock sync and its measured accuracy, seed, jobs,
 * mock-up checks), and the facts rows carry: library name and version, processes per node. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpivet/json.h"
#include "mpivet/meta.h"
#include "mpivet/results.h"
#include "run.h"

/* "Open MPI v4.1.4, ..." -> "Open MPI 4.1.4"; "MPICH Version: 4.0.2 ..." -> "MPICH 4.0.2";
 * SimGrid's SMPI -> "SMPI 3.32". */
void bench_library(struct bench_run *r)
{
  static const struct { const char *marker, *name; } libs[] = {
    {"Open MPI v", "Open MPI"}, {"MPICH Version:", "MPICH"}, {"SMPI Version ", "SMPI"}};
  char full[MPI_MAX_LIBRARY_VERSION_STRING] = "";
  char ver[64];
  int len = 0;
  MPI_Get_library_version(full, &len);
  snprintf(r->library_full, sizeof r->library_full, "%s", full);
  snprintf(r->library, sizeof r->library, "%.*s", (int)strcspn(full, ",\n"), full);
  for (size_t i = 0; i < sizeof libs / sizeof libs[0]; i++) {
    const char *p = strstr(full, libs[i].marker);
    if (!p || sscanf(p + strlen(libs[i].marker), " %63[0-9.a-z]", ver) != 1)
      continue;
    size_t n = strlen(ver);
    if (ver[n - 1] == '.')
      ver[n - 1] = '\0';  /* "SMPI Version 3.32." */
    snprintf(r->library, sizeof r->library, "%s %s", libs[i].name, ver);
    break;
  }
}

static uint64_t name_hash(const char *s)
{
  uint64_t h = 1469598103934665603ull;   /* FNV-1a, 64 bits */
  for (; *s; s++)
    h = (h ^ (unsigned char)*s) * 1099511628211ull;
  return h;
}

static int cmp_u64(const void *a, const void *b)
{
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return (x > y) - (x < y);
}

/* Largest number of ranks sharing a processor name: hashes gathered on rank 0, sorted, the
 * longest run broadcast. O(p) messages: an allgather of the names would need O(p^2), which
 * SMPI simulates message by message (minutes at 1024 ranks). */
int bench_count_ppn(MPI_Comm comm)
{
  int rank, size, len, best = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  char mine[MPI_MAX_PROCESSOR_NAME] = "";
  MPI_Get_processor_name(mine, &len);
  uint64_t h = name_hash(mine), *all = rank == 0 ? calloc((size_t)size, sizeof *all) : NULL;
  int ok = rank != 0 || all;
  MPI_Bcast(&ok, 1, MPI_INT, 0, comm);
  if (!ok)
    return 1;
  MPI_Gather(&h, 1, MPI_UINT64_T, all, 1, MPI_UINT64_T, 0, comm);
  if (all) {
    qsort(all, (size_t)size, sizeof *all, cmp_u64);
    for (int i = 1, run = 1; i < size; i++) {
      run = all[i] == all[i - 1] ? run + 1 : 1;
      best = run > best ? run : best;
    }
  }
  MPI_Bcast(&best, 1, MPI_INT, 0, comm);
  free(all);
  return best;
}

int bench_out_open(struct bench_run *r)
{
  if (strcmp(r->o->out, "-") == 0)
    return mv_results_writer_open_stream(&r->w, stdout);
  return mv_results_writer_open(&r->w, r->o->out, MV_RESULTS_ATOMIC);
}

void bench_out_row(struct bench_run *r, const struct bench_op *op, int64_t msize,
                   const char *metric, int rep, double value, int valid)
{
  struct mv_row row;
  mv_row_init(&row);
  row.run = 0;
  snprintf(row.engine, sizeof row.engine, "%s", r->o->engine);
  snprintf(row.library, sizeof row.library, "%s", r->library);
  row.nprocs = r->size;
  row.ppn = r->ppn;
  snprintf(row.op, sizeof row.op, "%s", op->op);
  snprintf(row.impl, sizeof row.impl, "%s", op->impl);
  row.msize = op->sized ? msize : 0;
  snprintf(row.metric, sizeof row.metric, "%s", metric);
  row.rep = rep;
  row.value = value;
  row.valid = valid;
  mv_results_writer_write(r->w, &row);
}

int bench_out_close(struct bench_run *r)
{
  return mv_results_writer_close(r->w, 1);
}

static void meta_clock(struct mv_json *j, const struct bench_run *r)
{
  mv_json_key(j, "clock_sync");
  mv_json_object_begin(j);
  mv_json_kv_string(j, "method", r->o->sync);
#ifdef MV_SMPI
  mv_json_kv_string(j, "when", r->o->check_clock ? "once (--check-clock)"
                                                  : "never (SMPI: one simulated clock)");
#else
  mv_json_kv_string(j, "when", "before every job");
#endif
  mv_json_kv_number(j, "seconds", r->sync_seconds);
  mv_json_kv_number(j, "seconds_all_jobs", r->sync_total);
  mv_json_kv_number(j, "arrival_spread_s", r->sync_spread);
  mv_json_kv_number(j, "residual_max_abs_s", r->residual_max);
  mv_json_key(j, "residual_offsets_s");
  mv_json_array_begin(j);
  for (int i = 0; i < r->size; i++)
    mv_json_number(j, r->residuals[i]);
  mv_json_array_end(j);
  mv_json_object_end(j);
}

static void meta_jobs(struct mv_json *j, const struct bench_run *r)
{
  mv_json_key(j, "jobs");
  mv_json_array_begin(j);
  for (int i = 0; i < r->njobs; i++) {
    const struct bench_job *b = &r->jobs[i];
    mv_json_object_begin(j);
    mv_json_kv_string(j, "op", b->op->op);
    mv_json_kv_string(j, "impl", b->op->impl);
    mv_json_kv_int(j, "msize", b->op->sized ? b->msize : 0);
    mv_json_kv_int(j, "reps", b->reps);
    mv_json_kv_int(j, "invalid", b->invalid);
    mv_json_kv_number(j, "window_s", b->window);
    if (b->checked) {
      mv_json_key(j, "equal_to_default");
      mv_json_bool(j, b->equal);
    }
    mv_json_object_end(j);
  }
  mv_json_array_end(j);
}

static int meta_body(struct mv_json *j, void *arg)
{
  const struct bench_run *r = arg;
  mv_json_kv_string(j, "flavor", MV_MPI_FLAVOR);
  mv_json_kv_string(j, "library", r->library);
  mv_json_kv_string(j, "library_version_string", r->library_full);
  mv_json_kv_string(j, "engine", r->o->engine);
  mv_json_kv_int(j, "nprocs", r->size);
  mv_json_kv_int(j, "ppn", r->ppn);
  mv_json_kv_int(j, "oversubscribed", r->oversubscribed);   /* more ranks on a node than cores */
  mv_json_kv_int(j, "pinned_by_bench", r->pinned);          /* rank 0 bound itself to a core */
  mv_json_kv_string(j, "timer", "MPI_Wtime");
  mv_json_kv_number(j, "timer_resolution_s", MPI_Wtick());
  meta_clock(j, r);
  mv_json_kv_string(j, "start", r->o->start);
  mv_json_kv_string(j, "timing", r->o->timing);
  mv_json_kv_int(j, "warmup", r->o->warmup);
  mv_json_kv_int(j, "clear_cache_bytes", r->o->clear_cache);
  mv_json_kv_int(j, "seed", (long long)r->seed);
  mv_json_kv_string(j, "memory", bench_mem_live() >= 0
                    ? "mem_bytes: malloc/free interposition; rss_bytes: PSS from /proc/self/smaps"
                    : "not measured: under SMPI all ranks share one simulator process");
  meta_jobs(j, r);
  return 0;
}

int bench_meta_write(const struct bench_run *r)
{
  return mv_meta_write(r->o->meta, "mpivet-bench", meta_body, (void *)r) == 0 ? 0 : -1;
}
