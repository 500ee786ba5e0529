/* campaign.plan: the plan of a campaign as "key value" lines (seed, runs, reps, nprocs, ops,
 * msizes as specs such as 800 or 800p, the shuffled order of launch indices, and "opt KEY VALUE"
 * for the command's options), so that --resume continues exactly the campaign that was started. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mpivet/atomic.h"
#include "mpivet/campaign.h"
#include "mpivet/error.h"
#include "state.h"

static void write_list_int(FILE *fp, const char *key, const int *v, size_t n)
{
  fprintf(fp, "%s ", key);
  for (size_t i = 0; i < n; i++)
    fprintf(fp, "%s%d", i ? "," : "", v[i]);
  fputc('\n', fp);
}

int mv__plan_write(const struct mv_campaign *c, const char *path)
{
  const struct mv_plan *p = &c->plan;
  char msizes[4096];
  if (mv_plan_format_msizes(p, msizes, sizeof msizes))
    return MV_ERANGE;
  struct mv_atomic_file f;
  if (mv_atomic_open(&f, path) < 0)
    return MV_EIO;
  FILE *fp = f.fp;
  fprintf(fp, "# mpivet campaign plan: written once when the campaign starts; do not edit\n"
              "version 1\nseed %" PRIu64 "\nruns %d\nreps %d\n", p->seed, p->runs, p->reps);
  if (p->pp_single || p->pp_np_max)
    fprintf(fp, "pp_single %d\npp_np_max %d\n", p->pp_single, p->pp_np_max);
  write_list_int(fp, "nprocs", p->nprocs, p->n_nprocs);
  fputs("ops ", fp);
  for (size_t i = 0; i < p->n_ops; i++)
    fprintf(fp, "%s%s", i ? "," : "", p->ops[i]);
  fprintf(fp, "\nmsizes %s\norder ", msizes);
  for (size_t i = 0; i < p->n_items; i++)
    fprintf(fp, "%s%d", i ? "," : "", p->items[i].index);
  fputc('\n', fp);
  for (size_t i = 0; i < c->nkeys; i++)
    fprintf(fp, "opt %s %s\n", c->keys[i], c->values[i]);
  return mv_atomic_commit(&f);
}

/* "order": a permutation of the canonical indices, applied to the freshly built items. */
static int apply_order(struct mv_plan *p, const char *list)
{
  int rc = mv_plan_build(p);
  if (rc)
    return rc;
  struct mv_launch_item *canon = malloc(p->n_items * sizeof *canon);
  unsigned char *seen = calloc(p->n_items, 1);
  if (!canon || !seen) {
    free(canon);
    free(seen);
    return MV_ENOMEM;
  }
  for (size_t i = 0; i < p->n_items; i++)
    canon[p->items[i].index] = p->items[i];
  size_t n = 0;
  const char *s = list;
  while (rc == 0 && *s) {
    char *end;
    long v = strtol(s, &end, 10);
    if (end == s || v < 0 || (size_t)v >= p->n_items || seen[v] || n >= p->n_items)
      rc = MV_EPARSE;
    else {
      seen[v] = 1;
      p->items[n++] = canon[v];
      s = *end == ',' ? end + 1 : end;
      if (*end && *end != ',')
        rc = MV_EPARSE;
    }
  }
  if (rc == 0 && n != p->n_items)
    rc = MV_EPARSE;
  free(canon);
  free(seen);
  return rc;
}

static int parse_int_key(const char *v, int *out)
{
  char *end;
  long x = strtol(v, &end, 10);
  if (end == v || *end || x < 1 || x > 1000000)
    return MV_EPARSE;
  *out = (int)x;
  return 0;
}

/* One "key value" line; order comes last in the file, after the lists it permutes. */
static int plan_line(struct mv_campaign *c, char *key, char *val)
{
  struct mv_plan *p = &c->plan;
  if (strcmp(key, "version") == 0)
    return strcmp(val, "1") == 0 ? 0 : MV_EUNSUP;
  if (strcmp(key, "seed") == 0) {
    char *end;
    errno = 0;
    p->seed = strtoull(val, &end, 10);
    return errno || end == val || *end ? MV_EPARSE : 0;
  }
  if (strcmp(key, "runs") == 0)
    return parse_int_key(val, &p->runs);
  if (strcmp(key, "reps") == 0)
    return parse_int_key(val, &p->reps);
  if (strcmp(key, "pp_single") == 0)
    return strcmp(val, "0") && strcmp(val, "1") ? MV_EPARSE : (p->pp_single = val[0] == '1', 0);
  if (strcmp(key, "pp_np_max") == 0)
    return strcmp(val, "0") == 0 ? (p->pp_np_max = 0, 0) : parse_int_key(val, &p->pp_np_max);
  if (strcmp(key, "nprocs") == 0)
    return mv_plan_parse_nprocs(p, val);
  if (strcmp(key, "ops") == 0)
    return mv_plan_parse_ops(p, val);
  if (strcmp(key, "msizes") == 0)
    return mv_plan_parse_msizes(p, val);
  if (strcmp(key, "order") == 0)
    return apply_order(p, val);
  if (strcmp(key, "opt") == 0) {
    char *sp = strchr(val, ' ');
    if (!sp)
      return MV_EPARSE;
    *sp = '\0';
    return mv_campaign_set(c, val, sp + 1);
  }
  return MV_EPARSE;
}

int mv__plan_read(struct mv_campaign *c, const char *path)
{
  FILE *fp = fopen(path, "r");
  if (!fp) {
    return mv_error_set(&c->error, MV_ENOENT, path, 0, 0,
                        "cannot open: %s (not a campaign folder?)", strerror(errno));
  }
  char *line = NULL;
  size_t cap = 0;
  ssize_t len;
  int rc = 0, lineno = 0;
  while (rc == 0 && (len = getline(&line, &cap, fp)) >= 0) {
    lineno++;
    if (len > 0 && line[len - 1] == '\n')
      line[--len] = '\0';
    if (line[0] == '#' || line[0] == '\0')
      continue;
    char *sp = strchr(line, ' ');
    if (!sp)
      rc = MV_EPARSE;
    else {
      *sp = '\0';
      rc = plan_line(c, line, sp + 1);
    }
    if (rc)
      mv_error_set(&c->error, rc, path, lineno, 1, "expected a valid plan line (%s)",
                   mv_strerror(rc));
  }
  free(line);
  fclose(fp);
  if (rc == 0 && (!c->plan.n_items || !c->plan.n_ops)) {
    rc = mv_error_set(&c->error, MV_EPARSE, path, 0, 0, "incomplete plan (no order or no ops)");
  }
  return rc;
}
