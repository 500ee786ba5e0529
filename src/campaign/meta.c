/* meta.json of a campaign: everything needed to judge or repeat it — MPI library and version,
 * engine, hosts and cores, environment variables that tune MPI or the launcher, mpivet version
 * and git revision, seed and plan, and the SMPI platform file (copied next to the results);
 * the head of the one schema comes from util/meta.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "mpivet/atomic.h"
#include "mpivet/campaign.h"
#include "mpivet/engine.h"
#include "mpivet/error.h"
#include "mpivet/json.h"
#include "mpivet/launch.h"
#include "mpivet/meta.h"
#include "mpivet/platform.h"

extern char **environ;

/* Prefixes of variables read by Open MPI, MPICH, Intel MPI, UCX, libfabric, PMIx, Slurm,
 * SimGrid and the usual OpenMP/affinity knobs that change measured times. */
static const char *const mpi_env_prefixes[] = {
  "OMPI_", "OPAL_", "PRTE_", "PMIX_", "MPICH_", "MPIR_CVAR_", "MPIEXEC_", "HYDRA_", "I_MPI_",
  "UCX_", "FI_", "PSM2_", "SLURM_", "SRUN_", "SMPI_", "SIMGRID_", "OMP_", "KMP_AFFINITY",
  "MPIVET_",
};

int mv_meta_env_is_mpi(const char *name)
{
  for (size_t i = 0; i < sizeof mpi_env_prefixes / sizeof mpi_env_prefixes[0]; i++)
    if (strncmp(name, mpi_env_prefixes[i], strlen(mpi_env_prefixes[i])) == 0)
      return 1;
  return 0;
}

static void write_env(struct mv_json *j)
{
  mv_json_key(j, "environment");
  mv_json_object_begin(j);
  for (char **e = environ; *e; e++) {
    const char *eq = strchr(*e, '=');
    if (!eq || (size_t)(eq - *e) >= 256)
      continue;
    char name[256];
    memcpy(name, *e, (size_t)(eq - *e));
    name[eq - *e] = '\0';
    if (mv_meta_env_is_mpi(name))
      mv_json_kv_string(j, name, eq + 1);
  }
  mv_json_object_end(j);
}

static void write_hosts(struct mv_json *j)
{
  char host[256] = "unknown";
  gethostname(host, sizeof host - 1);
  struct utsname u;
  mv_json_key(j, "hosts");
  mv_json_object_begin(j);
  mv_json_kv_string(j, "launch_host", host);
  mv_json_kv_string(j, "slurm_nodelist", getenv("SLURM_JOB_NODELIST"));
  mv_json_kv_int(j, "cores_online", sysconf(_SC_NPROCESSORS_ONLN));
  if (uname(&u) == 0) {
    mv_json_kv_string(j, "kernel", u.release);
    mv_json_kv_string(j, "machine", u.machine);
  }
  mv_json_object_end(j);
}

static void write_plan(struct mv_json *j, const struct mv_campaign *c)
{
  const struct mv_plan *p = &c->plan;
  mv_json_key(j, "plan");
  mv_json_object_begin(j);
  char seed[32];
  snprintf(seed, sizeof seed, "%llu", (unsigned long long)p->seed);
  mv_json_kv_string(j, "seed", seed);   /* a string: 64-bit seeds do not fit a double */
  mv_json_kv_int(j, "runs", p->runs);
  mv_json_kv_int(j, "reps", p->reps);
  mv_json_kv_int(j, "launches", (long long)p->n_items);
  mv_json_key(j, "nprocs");
  mv_json_array_begin(j);
  for (size_t i = 0; i < p->n_nprocs; i++)
    mv_json_int(j, p->nprocs[i]);
  mv_json_array_end(j);
  mv_json_key(j, "ops");
  mv_json_array_begin(j);
  for (size_t i = 0; i < p->n_ops; i++)
    mv_json_string(j, p->ops[i]);
  mv_json_array_end(j);
  mv_json_key(j, "msizes");
  mv_json_array_begin(j);
  for (size_t i = 0; i < p->n_msizes; i++)
    mv_json_int(j, p->msizes[i]);
  mv_json_array_end(j);
  mv_json_key(j, "msize_specs");   /* "800" a total volume, "800p" bytes per process */
  mv_json_array_begin(j);
  for (size_t i = 0; i < p->n_msizes; i++) {
    char spec[32];
    struct mv_msize_spec m = mv_plan_msize(p, i);
    mv_msize_spec_format(&m, spec, sizeof spec);
    mv_json_string(j, spec);
  }
  mv_json_array_end(j);
  mv_json_key(j, "options");
  mv_json_object_begin(j);
  for (size_t i = 0; i < c->nkeys; i++)
    mv_json_kv_string(j, c->keys[i], c->values[i]);
  mv_json_object_end(j);
  const char *engine = mv_campaign_get(c, "engine"), *ppn = mv_campaign_get(c, "ppn");
  const char *hosts = mv_campaign_get(c, "platform_hosts");
  if (hosts) {   /* ranks sharing a host at each process count of nprocs (SMPI platforms) */
    mv_json_key(j, "ranks_per_host");
    mv_json_array_begin(j);
    for (size_t i = 0; i < p->n_nprocs; i++)
      mv_json_int(j, mv_platform_ranks_per_host(atol(hosts), p->nprocs[i], ppn ? atoi(ppn) : 0));
    mv_json_array_end(j);
  }
  const struct mv_engine_facts *facts = mv_engine_facts(engine);
  if (facts && facts->simulated) {
    const char *args[16];
    size_t n = mv_campaign_smpi_args(p->msizes, p->n_msizes, ppn ? atoi(ppn) : 0, args, 16);
    mv_json_key(j, "smpi_options");   /* added to the engine's own smpirun options */
    mv_json_array_begin(j);
    for (size_t i = 0; i < n; i++)
      mv_json_string(j, args[i]);
    mv_json_array_end(j);
  }
  mv_json_object_end(j);
}

struct meta_args {
  const struct mv_campaign *c;
  const struct mv_meta *m;
};

static int meta_body(struct mv_json *j, void *arg)
{
  const struct meta_args *a = arg;
  const struct mv_meta *m = a->m;
  mv_json_kv_string(j, "library", m->library);
  mv_json_kv_string(j, "engine", m->engine);
  mv_json_kv_string(j, "platform_file", m->platform_file ? "platform.xml" : NULL);
  mv_json_kv_string(j, "platform_source", m->platform_file);
  mv_json_kv_string(j, "command_line", m->command_line);
  mv_json_kv_int(j, "written_unix_time", (long long)time(NULL));
  write_hosts(j);
  write_env(j);
  write_plan(j, a->c);
  return 0;
}

int mv_campaign_write_meta(const struct mv_campaign *c, const struct mv_meta *m)
{
  char path[MV_CAMPAIGN_PATH_MAX + 32], platform[MV_CAMPAIGN_PATH_MAX + 32];
  int rc = mv_campaign_path(c, "meta.json", path, sizeof path);
  if (rc == 0 && m->platform_file &&
      ((rc = mv_campaign_path(c, "platform.xml", platform, sizeof platform)) == 0) &&
      strcmp(m->platform_file, platform) != 0)
    rc = mv_atomic_copy(m->platform_file, platform);
  if (rc)
    return rc;
  struct meta_args a = {c, m};
  return mv_meta_write(path, "mpivet check", meta_body, &a);
}
