/* `mpivet platform SPEC [-o FILE] [--hostfile FILE --np N [--ppn K]]`: write a built-in SimGrid
 * platform (cluster, fattree, torus, dragonfly) as SimGrid 3.32 XML, optionally with a hostfile. */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "mpivet/error.h"
#include "mpivet/platform.h"

static const char usage[] =
  "usage: mpivet platform SPEC [-o FILE] [--hostfile FILE --np N [--ppn K]]\n\n"
  "Write a built-in SimGrid platform as XML (stdout by default). SPEC is one of\n"
  "  cluster:N            N hosts, one private link each\n"
  "  fattree:N            two-level fat tree of N hosts (or fattree:LEVELS;DOWN;UP;LINKS)\n"
  "  torus:AxBxC          torus of A*B*C hosts (1 to 3 dimensions)\n"
  "  dragonfly:G,C,R,N    G groups, C chassis per group, R routers per chassis, N hosts per router\n"
  "optionally followed by ,bw=10GBps ,lat=1us ,speed=1Gf ,cores=K. Hosts are node-0 .. node-<N-1>.\n\n"
  "  -o, --output FILE    write the XML there\n"
  "  --hostfile FILE      also write an smpirun hostfile for --np ranks, --ppn per host\n";

struct out {
  const struct mv_platform *p;
  int np, ppn, hostfile;
};

static int emit(FILE *fp, void *arg)
{
  const struct out *o = arg;
  return o->hostfile ? mv_platform_write_hostfile(o->p, o->np, o->ppn, fp)
                     : mv_platform_write_xml(o->p, fp);
}

static int write_to(const char *path, const struct mv_platform *p, int np, int ppn, int hostfile)
{
  struct out o = {p, np, ppn, hostfile};
  int rc = path && strcmp(path, "-") != 0 ? mv_cli_write_file("platform", path, emit, &o)
                                          : emit(stdout, &o);
  if (rc == MV_ERANGE)
    return mv_cli_error("platform", "--np %d does not fit %d hosts with --ppn %d", np, p->hosts, ppn);
  return rc < 0 ? mv_cli_fail("platform", rc, "%s: %s", path ? path : "stdout", mv_strerror(rc)) : rc;
}

struct args {
  const char *out, *hostfile;
  long np, ppn;
};

static int option(void *ctx, int c, const char *arg)
{
  struct args *a = ctx;
  switch (c) {
  case 'o': a->out = arg; return 0;
  case 'H': a->hostfile = arg; return 0;
  case 'n':
    return mv_cli_parse_long(arg, &a->np) || a->np < 1
               ? mv_cli_error("platform", "--np: expected a positive count, got \"%s\"", arg) : 0;
  case 'p':
    return mv_cli_parse_long(arg, &a->ppn) || a->ppn < 0
               ? mv_cli_error("platform", "--ppn: expected a count, got \"%s\"", arg) : 0;
  }
  return MV_EXIT_USAGE;
}

int cmd_platform(int argc, char **argv)
{
  static const struct option longopts[] = {
    {"output", required_argument, 0, 'o'}, {"hostfile", required_argument, 0, 'H'},
    {"np", required_argument, 0, 'n'}, {"ppn", required_argument, 0, 'p'},
    {"help", no_argument, 0, 'h'}, {0, 0, 0, 0}};
  struct args a = {0};
  int rc = mv_cli_options("platform", argc, argv, "o:h", longopts, usage, option, &a);
  if (rc)
    return rc == MV_CLI_HELP ? mv_cli_finish(MV_EXIT_OK) : rc;
  const char *out = a.out, *hostfile = a.hostfile;
  if (optind != argc - 1)
    return mv_cli_error("platform", "expected one platform SPEC (see --help)");
  struct mv_platform p;
  struct mv_error e;
  if (mv_platform_parse(argv[optind], &p, &e))
    return mv_cli_fail_error("platform", &e);
  if (hostfile && a.np == 0)
    return mv_cli_error("platform", "--hostfile needs --np");
  if (hostfile && out && strcmp(out, hostfile) == 0)   /* the hostfile would replace the XML */
    return mv_cli_error("platform", "-o and --hostfile name the same file %s", out);
  rc = write_to(out, &p, 0, 0, 0);
  if (!rc && hostfile)
    rc = write_to(hostfile, &p, (int)a.np, (int)a.ppn, 1);
  return mv_cli_finish(rc);
}
