/* The mpirun engine: Open MPI's mpirun (oversubscription allowed on a local run, root allowed)
 * or MPICH's Hydra mpiexec, with np, processes per node and an optional host list. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "launch-engine.h"

#define LOCAL_MAX_NP 64          /* one machine: more ranks than this is a mistake */
#define CLUSTER_MAX_NP (1 << 20)

static const char *launcher(const struct mv_launch_spec *s)
{
  return strcmp(mv__launch_real_flavor(s), "mpich") == 0 ? "mpiexec.mpich" : "mpirun.openmpi";
}

static int max_np(const struct mv_launch_spec *s) { return s->hosts ? CLUSTER_MAX_NP : LOCAL_MAX_NP; }

/* Open MPI: --host a:K,b:K gives K slots per host; locally ppr:K:node maps K per node. */
static int build_openmpi(const struct mv_launch_spec *s, struct mv_cmdline *c)
{
  int rc = mv_cmdline_add(c, "mpirun.openmpi");
  rc = rc ? rc : mv_cmdline_addf(c, "-np");
  rc = rc ? rc : mv_cmdline_addf(c, "%d", s->np);
  if (!rc && geteuid() == 0)
    rc = mv_cmdline_add(c, "--allow-run-as-root");
  if (!rc && !s->hosts)
    rc = mv_cmdline_add(c, "--oversubscribe");
  if (!rc && s->hosts) {
    char list[4096] = "", host[256];
    for (const char *h = s->hosts; *h; h += strcspn(h, ",") + (h[strcspn(h, ",")] == ',')) {
      snprintf(host, sizeof host, "%.*s", (int)strcspn(h, ","), h);
      size_t n = strlen(list);
      snprintf(list + n, sizeof list - n, "%s%s:%d", n ? "," : "", host, s->ppn ? s->ppn : s->np);
    }
    rc = mv_cmdline_add(c, "--host");
    rc = rc ? rc : mv_cmdline_add(c, list);
  }
  if (!rc && s->ppn > 0 && s->hosts) {
    rc = mv_cmdline_add(c, "--map-by");
    rc = rc ? rc : mv_cmdline_addf(c, "ppr:%d:node", s->ppn);
  }
  return rc;
}

static int build_mpich(const struct mv_launch_spec *s, struct mv_cmdline *c)
{
  int rc = mv_cmdline_add(c, "mpiexec.mpich");
  rc = rc ? rc : mv_cmdline_add(c, "-n");
  rc = rc ? rc : mv_cmdline_addf(c, "%d", s->np);
  if (!rc && s->ppn > 0) {
    rc = mv_cmdline_add(c, "-ppn");
    rc = rc ? rc : mv_cmdline_addf(c, "%d", s->ppn);
  }
  if (!rc && s->hosts) {
    rc = mv_cmdline_add(c, "-hosts");
    rc = rc ? rc : mv_cmdline_add(c, s->hosts);
  }
  return rc;
}

static int build(const struct mv_launch_spec *s, struct mv_cmdline *c)
{
  return strcmp(mv__launch_real_flavor(s), "mpich") == 0 ? build_mpich(s, c) : build_openmpi(s, c);
}

const struct mv__launch_engine mv__engine_mpirun = {"mpirun", launcher, mv__launch_real_flavor, max_np,
                                                    build};
