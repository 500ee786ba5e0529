/* The --platform argument of check and bench (engine smpi), checked before anything runs: a
 * built-in SPEC, or a SimGrid XML FILE whose hosts are read (platform-xml.c) so that a missing,
 * malformed or host-less file, a --hosts name the file lacks, or a --ppn too small for the
 * ranks is refused with its reason, and so that ranks per host can be counted. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "mpivet/platform.h"

/* The names of a --hosts list must all be hosts of the file; their count is the host count. */
static int check_hosts(const char *cmd, const char *file, const struct mv_platform_hosts *h,
                       const char *hosts, long *count)
{
  char name[512];
  *count = 0;
  for (const char *p = hosts; p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL) {
    size_t len = strcspn(p, ",");
    if (len == 0 || len >= sizeof name)
      return mv_cli_error(cmd, "--hosts: expected host names separated by commas, got \"%s\"",
                          hosts);
    snprintf(name, sizeof name, "%.*s", (int)len, p);
    if (!mv_platform_hosts_has(h, name))
      return mv_cli_error(cmd, "--hosts: %s is not a host of %s", name, file);
    (*count)++;
  }
  return 0;
}

int mv_cli_platform_hosts(const char *cmd, const char *platform, const char *hosts, long ppn,
                          int max_np, long *count)
{
  struct stat st;
  struct mv_error e;
  char text[MV_ERROR_TEXT_SIZE];
  int rc = 0;
  *count = 0;
  if (!platform)
    return 0;
  int is_file = stat(platform, &st) == 0;
  if (is_file && !S_ISREG(st.st_mode))
    return mv_cli_error(cmd, "--platform: %s: not a file", platform);
  if (!is_file && strchr(platform, ':') && !strchr(platform, '/')) {   /* cluster:N, ... */
    struct mv_platform pf;
    if (mv_platform_parse(platform, &pf, &e))
      return mv_cli_error(cmd, "--platform: %s", mv_error_text(&e, text, sizeof text));
    *count = pf.hosts;
  } else {
    struct mv_platform_hosts h;
    if (mv_platform_xml_hosts(platform, &h, &e))
      return mv_cli_error(cmd, "--platform: %s", mv_error_text(&e, text, sizeof text));
    *count = h.count;
    rc = hosts ? check_hosts(cmd, platform, &h, hosts, count) : 0;
    mv_platform_hosts_release(&h);
  }
  if (rc == 0 && ppn > 0 && *count * ppn < max_np)
    rc = mv_cli_error(cmd, "--ppn %ld on the %ld hosts of %s places %ld ranks, np goes to %d", ppn,
                      *count, platform, *count * ppn, max_np);
  return rc;
}
