/* The srun engine (Slurm): ranks, nodes, tasks per node, partition, time limit and an optional
 * node list; the program is the one built with --mpi (Open MPI by default), started through
 * the PMI plugin its MPI library speaks. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "mpivet/error.h"

#include "launch-engine.h"

#define SRUN_MAX_NP (1 << 20)

/* What Debian 12's builds speak with Slurm 22.05 (`srun --mpi=list`: pmix (v4), pmi2, none,
 * cray_shasta). Open MPI 4.1.4 is built --with-pmix and without Slurm's PMI-1/2 (no s1/s2
 * components): pmi2 aborts in MPI_Init. MPICH 4.0.2 (Hydra, built-in simple PMI, no PMIx):
 * pmix or none start singletons, pmi2 connects them. */
static const struct {
  const char *flavor, *pmi;
} srun_pmi[] = {{"openmpi", "pmix"}, {"mpich", "pmi2"}};

const char *mv_launch_srun_pmi(const char *flavor)
{
  for (size_t i = 0; flavor && i < sizeof srun_pmi / sizeof srun_pmi[0]; i++)
    if (strcmp(srun_pmi[i].flavor, flavor) == 0)
      return srun_pmi[i].pmi;
  return NULL;
}

/* Slurm's --time: minutes, MM:SS, HH:MM:SS, D-HH, D-HH:MM, D-HH:MM:SS, or UNLIMITED. */
static int time_limit_ok(const char *t)
{
  int dash = 0, colons = 0, digits = 0;
  if (strcmp(t, "UNLIMITED") == 0 || strcmp(t, "INFINITE") == 0)
    return 1;
  for (const char *p = t; *p; p++) {
    if (*p >= '0' && *p <= '9')
      digits++;
    else if (*p == '-' && !dash && !colons && digits)
      dash = 1, digits = 0;
    else if (*p == ':' && digits && colons < 2)
      colons++, digits = 0;
    else
      return 0;
  }
  return digits > 0;
}

int mv_launch_srun_check(const struct mv_launch_spec *s, struct mv_error *e)
{
  const char *bad = NULL, *got = "";
  char n[32];
  snprintf(n, sizeof n, "%d", s->nodes);
  /* given to another engine, they would be silently ignored */
  const char *srun_only = s->nodes ? "--nodes" : s->partition ? "--partition"
                          : s->time_limit ? "--time-limit" : s->pmi ? "--pmi" : NULL;
  if (srun_only && (!s->engine || strcmp(s->engine, "srun") != 0))
    return mv_error_set(e, MV_EINVAL, NULL, 0, 0, "%s applies to --engine srun only (got --engine %s)",
                        srun_only, s->engine ? s->engine : "none");
  if (s->nodes < 0 || s->nodes > s->np)
    bad = "--nodes: expected a count from 1 to the number of ranks", got = n;
  else if (s->time_limit && !time_limit_ok(s->time_limit))
    bad = "--time-limit: expected minutes, MM:SS, HH:MM:SS or D-HH[:MM[:SS]]", got = s->time_limit;
  else if (s->pmi && (!*s->pmi || strspn(s->pmi, "abcdefghijklmnopqrstuvwxyz0123456789_") !=
                      strlen(s->pmi)))
    bad = "--pmi: expected a plugin name of srun --mpi=list such as pmix or pmi2", got = s->pmi;
  else if (s->partition && (!*s->partition || strpbrk(s->partition, " \t\n")))
    bad = "--partition: expected a partition name", got = s->partition;
  return bad ? mv_error_set(e, MV_EINVAL, NULL, 0, 0, "%s, got \"%s\"", bad, got) : 0;
}

static const char *launcher(const struct mv_launch_spec *s)
{
  (void)s;
  return "srun";
}

static int max_np(const struct mv_launch_spec *s)
{
  (void)s;
  return SRUN_MAX_NP;
}

/* `sinfo -h -o "%P %c %D"`: the CPUs of the smallest node of the --partition (or of the
 * default partition, marked *; "2+" reads as 2) and its number of nodes. 0 when unknown. */
static int sinfo_cpus(const char *partition, int *nnodes)
{
  int fd[2], cpn = 0;
  *nnodes = 0;
  if (pipe(fd) != 0)
    return 0;
  pid_t pid = fork();
  if (pid == 0) {
    int null = open("/dev/null", O_WRONLY);
    dup2(fd[1], 1);
    dup2(null, 2);
    close(fd[0]);
    execlp("sinfo", "sinfo", "-h", "-o", "%P %c %D", (char *)NULL);
    _exit(127);
  }
  close(fd[1]);
  FILE *fp = pid > 0 ? fdopen(fd[0], "r") : NULL;
  char line[512], part[256], c[32];
  int d;
  while (fp && fgets(line, sizeof line, fp))
    if (sscanf(line, "%255s %31s %d", part, c, &d) == 3) {
      size_t n = strlen(part);
      int star = n > 0 && part[n - 1] == '*';
      part[n - star] = '\0';
      if ((partition ? strcmp(part, partition) == 0 : star) && atoi(c) > 0) {
        cpn = cpn == 0 || atoi(c) < cpn ? atoi(c) : cpn;
        *nnodes += d;
      }
    }
  fp ? fclose(fp) : close(fd[0]);
  if (pid > 0)
    waitpid(pid, NULL, 0);
  return cpn;
}

/* The CPUs of one node and the number of nodes the step can use: inside an allocation from
 * SLURM_CPUS_ON_NODE and SLURM_JOB_NUM_NODES, else from sinfo. 0 when unknown. */
static int slurm_cpus(const char *partition, int *nnodes)
{
  const char *cpus = getenv("SLURM_CPUS_ON_NODE"), *jn = getenv("SLURM_JOB_NUM_NODES");
  if (getenv("SLURM_JOB_ID") && cpus && atoi(cpus) > 0) {
    *nnodes = jn && atoi(jn) > 0 ? atoi(jn) : 1;
    return atoi(cpus);
  }
  return sinfo_cpus(partition, nnodes);
}

/* More ranks on a node than it has CPUs (2 CPUs here, --np 4): srun would queue the step
 * forever, so the launch asks for --overcommit, as mpirun gets --oversubscribe. */
static int oversubscribed(const struct mv_launch_spec *s)
{
  int nnodes, cpn = slurm_cpus(s->partition, &nnodes);
  if (cpn <= 0)
    return 0;
  if (s->ppn > 0)
    return s->ppn > cpn;
  if (s->nodes > 0)
    return (s->np + s->nodes - 1) / s->nodes > cpn;
  return s->np > cpn * (nnodes > 0 ? nnodes : 1);
}

static int build(const struct mv_launch_spec *s, struct mv_cmdline *c)
{
  const char *pmi = s->pmi ? s->pmi : mv_launch_srun_pmi(mv__launch_real_flavor(s));
  int rc = mv_cmdline_add(c, "srun");
  rc = rc ? rc : mv_cmdline_addf(c, "--mpi=%s", pmi);
  rc = rc ? rc : mv_cmdline_addf(c, "--ntasks=%d", s->np);
  if (!rc && s->nodes > 0)
    rc = mv_cmdline_addf(c, "--nodes=%d", s->nodes);
  if (!rc && s->ppn > 0)
    rc = mv_cmdline_addf(c, "--ntasks-per-node=%d", s->ppn);
  if (!rc && s->partition)
    rc = mv_cmdline_addf(c, "--partition=%s", s->partition);
  if (!rc && s->time_limit)
    rc = mv_cmdline_addf(c, "--time=%s", s->time_limit);
  if (!rc && s->hosts)
    rc = mv_cmdline_addf(c, "--nodelist=%s", s->hosts);
  if (!rc && oversubscribed(s))
    rc = mv_cmdline_add(c, "--overcommit");
  return rc;
}

const struct mv__launch_engine mv__engine_srun = {"srun", launcher, mv__launch_real_flavor, max_np, build};
