/* Settings of a guideline evaluation and the names they have on the command line and in
 * reports; one name table per setting so parsing and printing cannot disagree. */
#include <string.h>

#include "mpivet/error.h"
#include "mpivet/guidelines.h"

static const char *const per_names[] = {"launch", "raw"};
static const char *const test_names[] = {"ranksum", "ks"};
static const char *const correction_names[] = {"none", "holm", "bh"};
static const char *const det_names[] = {"auto", "on", "off"};
static const char *const type_names[] = {"monotony", "split", "pattern"};

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static const char *name_of(const char *const *names, size_t n, int v)
{
  return v >= 0 && (size_t)v < n ? names[v] : "?";
}

static int parse_name(const char *const *names, size_t n, const char *s, int *out)
{
  for (size_t i = 0; s && i < n; i++)
    if (strcmp(names[i], s) == 0) {
      *out = (int)i;
      return 0;
    }
  return MV_EINVAL;
}

void mv_gl_options_init(struct mv_gl_options *opt)
{
  memset(opt, 0, sizeof *opt);
  opt->alpha = 0.05;
  opt->per = MV_GL_PER_LAUNCH;
  opt->test = MV_GL_TEST_RANKSUM;
  opt->method = MV_TEST_AUTO;
  opt->correction = MV_CORR_BH;
  opt->tukey_k = 0;
  opt->split_tolerance = 0.05;
  opt->min_slowdown = 1.01;
  opt->deterministic = MV_GL_DET_AUTO;
  strcpy(opt->metric, "time_s");
}

/* The name and parser of one enumerated setting, from its name table. */
#define NAMED_SETTING(type, name_fn, parse_fn, table)                                   \
  const char *name_fn(type v) { return name_of(table, COUNT(table), (int)v); }          \
  int parse_fn(const char *s, type *out)                                                \
  {                                                                                     \
    int v;                                                                              \
    int rc = parse_name(table, COUNT(table), s, &v);                                    \
    if (rc == 0)                                                                        \
      *out = (type)v;                                                                   \
    return rc;                                                                          \
  }

NAMED_SETTING(enum mv_gl_per, mv_gl_per_name, mv_gl_parse_per, per_names)
NAMED_SETTING(enum mv_gl_test, mv_gl_test_name, mv_gl_parse_test, test_names)
NAMED_SETTING(enum mv_correction, mv_gl_correction_name, mv_gl_parse_correction, correction_names)
NAMED_SETTING(enum mv_gl_det, mv_gl_det_name, mv_gl_parse_det, det_names)

const char *mv_gl_type_name(enum mv_gl_type type)
{
  return name_of(type_names, COUNT(type_names), (int)type);
}
