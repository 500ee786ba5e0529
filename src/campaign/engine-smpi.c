/* The smpi engine: smpirun on a built-in platform (platform.h) or a user XML file, with the
 * platform and hostfile written into the work folder. Simulated computation is off so that the
 * benchmark's own CPU time does not leak into simulated time: runs are deterministic. SMPI's
 * MPICH collective algorithms are selected: its "default" ones are O(p^2) to simulate. */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "launch-engine.h"
#include "mpivet/error.h"
#include "mpivet/platform.h"

#define SMPI_MAX_NP 65536

static const char *launcher(const struct mv_launch_spec *s)
{
  (void)s;
  return "smpirun";
}

static const char *flavor(const struct mv_launch_spec *s)
{
  (void)s;
  return "smpi";
}

static int max_np(const struct mv_launch_spec *s)
{
  (void)s;
  return SMPI_MAX_NP;
}

static int is_file(const char *path)
{
  struct stat st;
  return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* A user XML file: hosts from spec->hosts, else every host of the file (platform-xml.c), placed
 * by the rule of the built-in platforms. */
static int user_hostfile(const struct mv_launch_spec *s, FILE *out)
{
  struct mv_platform_hosts h;
  int rc = mv_platform_xml_hosts(s->platform, &h, NULL);   /* the CLI checked it before */
  rc = rc ? rc : mv_platform_hosts_write_hostfile(&h, s->hosts, s->np, s->ppn, out);
  mv_platform_hosts_release(&h);
  return rc;
}

/* Write <workdir>/platform.xml (built-in spec) and <workdir>/hostfile; return their paths. */
static int write_files(const struct mv_launch_spec *s, char *xml, size_t xsize, char *hostfile,
                       size_t hsize)
{
  char spec[64];
  struct mv_platform p;
  int ppn = s->ppn > 0 ? s->ppn : 1, rc;
  snprintf(hostfile, hsize, "%s/hostfile", s->workdir);
  FILE *hf = fopen(hostfile, "w");
  if (!hf)
    return MV_EIO;
  if (s->platform && is_file(s->platform)) {
    snprintf(xml, xsize, "%s", s->platform);
    rc = user_hostfile(s, hf);
  } else {
    snprintf(spec, sizeof spec, "cluster:%d,cores=%d", (s->np + ppn - 1) / ppn, ppn);
    rc = mv_platform_parse(s->platform ? s->platform : spec, &p, NULL);
    if (!rc && s->ppn > 0 && p.cores < s->ppn)
      p.cores = s->ppn;
    snprintf(xml, xsize, "%s/platform.xml", s->workdir);
    FILE *xf = rc ? NULL : fopen(xml, "w");
    rc = rc ? rc : !xf ? MV_EIO : mv_platform_write_xml(&p, xf);
    if (xf && fclose(xf) != 0)
      rc = MV_EIO;
    rc = rc ? rc : mv_platform_write_hostfile(&p, s->np, s->ppn, hf);
  }
  if (fclose(hf) != 0 && !rc)
    rc = MV_EIO;
  return rc;
}

static int build(const struct mv_launch_spec *s, struct mv_cmdline *c)
{
  char xml[4200], hostfile[4200];
  if (!s->workdir)
    return MV_EINVAL;
  int rc = write_files(s, xml, sizeof xml, hostfile, sizeof hostfile);
  const char *fixed[] = {"smpirun", "-quiet", "-platform", xml, "-hostfile", hostfile,
                         "--cfg=smpi/simulate-computation:no", "--cfg=smpi/host-speed:1Gf",
                         "--cfg=smpi/coll-selector:mpich",
                         "--log=root.thresh:warning", NULL};
  rc = rc ? rc : mv__cmdline_add_all(c, fixed);
  rc = rc ? rc : mv_cmdline_add(c, "-np");
  return rc ? rc : mv_cmdline_addf(c, "%d", s->np);
}

const struct mv__launch_engine mv__engine_smpi = {"smpi", launcher, flavor, max_np, build};
