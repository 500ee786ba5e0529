/* Built-in SimGrid platforms by name (cluster, fat tree, torus, dragonfly): spec parsing, the
 * SimGrid 3.32 XML (one <cluster> with SimGrid's topology attribute) and the smpirun hostfile. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpivet/error.h"
#include "mpivet/platform.h"

#define PARSE_FAIL(...) mv_error_set(e, MV_EPARSE, NULL, 0, 0, __VA_ARGS__)

/* Whole-string positive integer; -1 otherwise. */
static long positive(const char *s, char **end)
{
  char *e;
  long v = strtol(s, &e, 10);
  if (e == s || v < 1 || v > MV_PLATFORM_MAX_HOSTS)
    return -1;
  *end = e;
  return v;
}

/* A list of n positive integers separated by sep ("4x4x4", "3,4,5,2"); product in *hosts. */
static int int_list(const char *s, char sep, long *v, int n, long *hosts)
{
  char *e;
  *hosts = 1;
  for (int i = 0; i < n; i++) {
    if ((v[i] = positive(s, &e)) < 0 || (i < n - 1 ? *e != sep : *e != '\0'))
      return -1;
    *hosts *= v[i];
    if (*hosts > MV_PLATFORM_MAX_HOSTS)
      return -1;
    s = e + 1;
  }
  return 0;
}

/* SimGrid's FAT_TREE parameters "levels;down,...;up,...;links,...": hosts = product of down. */
static int fattree_raw(struct mv_platform *p, const char *body, long *hosts)
{
  char tmp[128], *parts[4], *save = NULL, *e;
  long down[8];
  int n = 0;
  if (strlen(body) >= sizeof tmp)
    return -1;
  strcpy(tmp, body);
  for (char *t = strtok_r(tmp, ";", &save); t && n < 4; t = strtok_r(NULL, ";", &save))
    parts[n++] = t;
  long levels = n == 4 ? positive(parts[0], &e) : -1;
  if (levels < 1 || levels > 8 || *e || int_list(parts[1], ',', down, (int)levels, hosts))
    return -1;
  snprintf(p->topo, sizeof p->topo, "%s", body);
  return 0;
}

/* fattree:N picks two levels: leaves of d nodes (largest divisor <= sqrt N), N/d leaves, d tops. */
static int fattree_body(struct mv_platform *p, const char *body, long *hosts)
{
  char *e;
  if (strchr(body, ';'))
    return fattree_raw(p, body, hosts);
  long n = positive(body, &e), d = 1;
  if (n < 1 || *e)
    return -1;
  for (long i = 1; i * i <= n; i++)
    if (n % i == 0)
      d = i;
  snprintf(p->topo, sizeof p->topo, "2;%ld,%ld;1,%ld;1,1", d, n / d, d);
  *hosts = n;
  return 0;
}

static int body_parse(struct mv_platform *p, const char *kind, const char *body, long *hosts)
{
  long v[4];
  char *e;
  if (strcmp(kind, "cluster") == 0) {
    p->kind = MV_PLATFORM_CLUSTER;
    *hosts = positive(body, &e);
    return *hosts < 0 || *e ? -1 : 0;
  }
  if (strcmp(kind, "fattree") == 0) {
    p->kind = MV_PLATFORM_FATTREE;
    return fattree_body(p, body, hosts);
  }
  if (strcmp(kind, "torus") == 0) {
    p->kind = MV_PLATFORM_TORUS;
    int n = 1;
    for (const char *c = body; *c; c++)
      n += *c == 'x';
    if (n > 3 || int_list(body, 'x', v, n, hosts))
      return -1;
    snprintf(p->topo, sizeof p->topo, n == 1 ? "%ld" : n == 2 ? "%ld,%ld" : "%ld,%ld,%ld", v[0], v[1], v[2]);
    return 0;
  }
  if (strcmp(kind, "dragonfly") == 0) {
    p->kind = MV_PLATFORM_DRAGONFLY;
    if (int_list(body, ',', v, 4, hosts))
      return -1;
    snprintf(p->topo, sizeof p->topo, "%ld,1;%ld,1;%ld,1;%ld", v[0], v[1], v[2], v[3]);
    return 0;
  }
  return -2;
}

static const char *const shapes[] = {"cluster:N", "fattree:N", "torus:AxBxC", "dragonfly:G,C,R,N"};

/* key=value options after the shape. */
static int option_parse(struct mv_platform *p, char *tok, struct mv_error *e)
{
  char *eq = strchr(tok, '=');
  *eq = '\0';
  const char *val = eq + 1;
  char *dst = strcmp(tok, "bw") == 0 ? p->bw : strcmp(tok, "lat") == 0 ? p->lat
              : strcmp(tok, "speed") == 0 ? p->speed : NULL;
  if (dst && *val && strlen(val) < sizeof p->bw) {
    strcpy(dst, val);
    return 0;
  }
  char *end;
  if (strcmp(tok, "cores") == 0 && (p->cores = (int)positive(val, &end)) > 0 && !*end)
    return 0;
  return PARSE_FAIL("platform option: expected bw=, lat=, speed= or cores=<n>, got \"%s=%s\"", tok, val);
}

static void defaults(struct mv_platform *p)
{
  memset(p, 0, sizeof *p);
  p->cores = 1;
  strcpy(p->speed, "1Gf");
  strcpy(p->bw, "10GBps");
  strcpy(p->lat, "1us");
  strcpy(p->loopback_bw, "50GBps");
  strcpy(p->loopback_lat, "0.1us");
}

int mv_platform_parse(const char *spec, struct mv_platform *p, struct mv_error *e)
{
  char buf[256], body[256] = "", kind[32];
  defaults(p);
  if (strlen(spec) >= sizeof buf || sscanf(spec, "%31[a-z]:", kind) != 1 || !strchr(spec, ':'))
    return PARSE_FAIL("platform: expected %s, %s, %s or %s, got \"%s\"", shapes[0], shapes[1],
                      shapes[2], shapes[3], spec);
  strcpy(buf, strchr(spec, ':') + 1);
  for (char *tok = strtok(buf, ","); tok; tok = strtok(NULL, ",")) {
    if (strchr(tok, '=')) {
      int rc = option_parse(p, tok, e);
      if (rc)
        return rc;
    } else {
      if (*body)
        strcat(body, ",");
      strcat(body, tok);
    }
  }
  long hosts = 0;
  int rc = body_parse(p, kind, body, &hosts);
  if (rc == -2)
    return PARSE_FAIL("platform: unknown kind \"%s\", expected cluster, fattree, torus or dragonfly", kind);
  if (rc)
    return PARSE_FAIL("platform: expected %s, got \"%s\"", shapes[p->kind], spec);
  p->hosts = (int)hosts;
  return 0;
}

int mv_platform_host_name(int i, char *buf, size_t size)
{
  int n = snprintf(buf, size, "node-%d", i);
  return n < 0 || (size_t)n >= size ? MV_ERANGE : 0;
}

int mv_platform_write_xml(const struct mv_platform *p, FILE *fp)
{
  static const char *const topo[] = {"", "FAT_TREE", "TORUS", "DRAGONFLY"};
  fprintf(fp, "<?xml version='1.0'?>\n"
              "<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
              "<!-- generated by mpivet platform -->\n"
              "<platform version=\"4.1\">\n"
              "  <cluster id=\"mpivet\" prefix=\"node-\" suffix=\"\" radical=\"0-%d\"\n"
              "           speed=\"%s\" core=\"%d\" bw=\"%s\" lat=\"%s\"\n"
              "           loopback_bw=\"%s\" loopback_lat=\"%s\"",
          p->hosts - 1, p->speed, p->cores, p->bw, p->lat, p->loopback_bw, p->loopback_lat);
  if (p->kind != MV_PLATFORM_CLUSTER)
    fprintf(fp, "\n           topology=\"%s\" topo_parameters=\"%s\"", topo[p->kind], p->topo);
  fprintf(fp, "/>\n</platform>\n");
  return ferror(fp) ? MV_EIO : 0;
}

int mv_platform_write_hostfile(const struct mv_platform *p, int np, int ppn, FILE *fp)
{
  if (np < 1 || ppn < 0 || (ppn > 0 && (long)p->hosts * ppn < np))
    return MV_ERANGE;
  for (int r = 0; r < np; r++)
    fprintf(fp, "node-%ld\n", mv_platform_rank_host(p->hosts, ppn, r));
  return ferror(fp) ? MV_EIO : 0;
}

int mv_platform_ranks_per_host(long hosts, int np, int ppn)
{
  if (ppn > 0)
    return ppn < np ? ppn : np;
  return hosts < 1 ? np : (int)((np + hosts - 1) / hosts);
}

long mv_platform_rank_host(long hosts, int ppn, int r)
{
  return ppn > 0 ? r / ppn : r % (hosts > 0 ? hosts : 1);
}
