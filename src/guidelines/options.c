/* Settings of a guideline evaluation and the names they have on the command line and in
 * reports; one name table per setting so parsing and printing cannot disagree. */
#include <string.h>

#include "mpivet/error.h"
#include "mpivet/guidelines.h"

static const char *const per_names[] = {"launch", "raw"};
static const char *const test_names[] = {"ranksum", "ks"};
static const char *const correction_names[] = {"none", "holm", "bh"};
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
  strcpy(opt->metric, "time_s");
}

const char *mv_gl_per_name(enum mv_gl_per per)
{
  return name_of(per_names, COUNT(per_names), (int)per);
}

const char *mv_gl_test_name(enum mv_gl_test test)
{
  return name_of(test_names, COUNT(test_names), (int)test);
}

const char *mv_gl_correction_name(enum mv_correction c)
{
  return name_of(correction_names, COUNT(correction_names), (int)c);
}

const char *mv_gl_type_name(enum mv_gl_type type)
{
  return name_of(type_names, COUNT(type_names), (int)type);
}

int mv_gl_parse_per(const char *s, enum mv_gl_per *out)
{
  int v;
  int rc = parse_name(per_names, COUNT(per_names), s, &v);
  if (rc == 0)
    *out = (enum mv_gl_per)v;
  return rc;
}

int mv_gl_parse_test(const char *s, enum mv_gl_test *out)
{
  int v;
  int rc = parse_name(test_names, COUNT(test_names), s, &v);
  if (rc == 0)
    *out = (enum mv_gl_test)v;
  return rc;
}

int mv_gl_parse_correction(const char *s, enum mv_correction *out)
{
  int v;
  int rc = parse_name(correction_names, COUNT(correction_names), s, &v);
  if (rc == 0)
    *out = (enum mv_correction)v;
  return rc;
}
