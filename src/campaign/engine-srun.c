/* The srun engine (Slurm): ranks, tasks per node and an optional node list inside an
 * allocation; the program is the one built with --mpi (Open MPI by default). */
#include "launch-engine.h"

#define SRUN_MAX_NP (1 << 20)

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

static int build(const struct mv_launch_spec *s, struct mv_cmdline *c)
{
  int rc = mv_cmdline_add(c, "srun");
  rc = rc ? rc : mv_cmdline_addf(c, "--ntasks=%d", s->np);
  if (!rc && s->ppn > 0)
    rc = mv_cmdline_addf(c, "--ntasks-per-node=%d", s->ppn);
  if (!rc && s->hosts)
    rc = mv_cmdline_addf(c, "--nodelist=%s", s->hosts);
  return rc;
}

const struct mv__engine mv__engine_srun = {"srun", launcher, mv__launch_real_flavor, max_np, build};
