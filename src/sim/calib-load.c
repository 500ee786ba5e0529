/* Reading a calibration folder back for `mpivet simulate`: every file must be there, and
 * calibration.json must be of this format and version (a folder from another mpivet, or one a
 * calibration left half written, is refused). calibration.json's top-level members are found by a
 * small strict scanner that skips nested values; the optional "windows" member by the JSON reader
 * (mpivet/json-read.h). */
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mpivet/calib.h"
#include "mpivet/error.h"
#include "mpivet/grow.h"
#include "mpivet/json-read.h"

#define MAX_JSON (1 << 20)
#define MAX_DEPTH 64

static const char *ws(const char *p)
{
  while (*p && isspace((unsigned char)*p))
    p++;
  return p;
}

/* End of the JSON string starting at p ('"'), NULL when unterminated. */
static const char *string_end(const char *p)
{
  for (p++; *p; p++) {
    if (*p == '\\' && p[1])
      p++;
    else if (*p == '"')
      return p + 1;
  }
  return NULL;
}

/* End of any JSON value at p (structure only: brackets balanced, strings closed). */
static const char *value_end(const char *p)
{
  int depth = 0;
  p = ws(p);
  do {
    if (*p == '"') {
      if (!(p = string_end(p)))
        return NULL;
      continue;
    }
    if (*p == '{' || *p == '[') {
      if (++depth > MAX_DEPTH)
        return NULL;
    } else if (*p == '}' || *p == ']') {
      if (--depth < 0)
        return NULL;
    } else if (!*p || (depth == 0 && (*p == ',' || isspace((unsigned char)*p)))) {
      return depth == 0 ? p : NULL;
    }
    p++;
  } while (depth > 0 || (*p && *p != ',' && *p != '}' && *p != ']' && !isspace((unsigned char)*p)));
  return p;
}

int mv_calib_json_member(const char *json, const char *key, char *out, size_t size)
{
  const char *p = ws(json);
  if (*p++ != '{')
    return MV_EPARSE;
  size_t klen = strlen(key);
  for (p = ws(p); *p && *p != '}'; p = ws(p)) {
    if (*p != '"')
      return MV_EPARSE;
    const char *k = p + 1, *ke = string_end(p);
    if (!ke || *(p = ws(ke)) != ':')
      return MV_EPARSE;
    const char *v = ws(p + 1), *ve = value_end(v);
    if (!ve || ve == v)
      return MV_EPARSE;
    if ((size_t)(ke - 1 - k) == klen && strncmp(k, key, klen) == 0) {
      if (*v == '{' || *v == '[')
        return MV_EPARSE;
      if (*v == '"')
        v++, ve--;
      if ((size_t)(ve - v) >= size)
        return MV_ERANGE;
      memcpy(out, v, (size_t)(ve - v));
      out[ve - v] = '\0';
      return 0;
    }
    p = ws(ve);
    if (*p == ',')
      p++;
    else if (*p != '}')
      return MV_EPARSE;
  }
  return *p == '}' ? MV_ENOENT : MV_EPARSE;
}

/* The file at path (at most max bytes), or NULL with the reason in e. */
static char *slurp(const char *path, size_t max, struct mv_error *e)
{
  char *buf = NULL;
  size_t len;
  mv_read_file(path, max, &buf, &len, e);
  return buf;
}

static int number_member(const char *json, const char *key, double *v)
{
  char s[64], *end;
  int rc = mv_calib_json_member(json, key, s, sizeof s);
  if (rc)
    return rc;
  *v = strtod(s, &end);
  return end == s || *end || !(*v > 0) ? MV_EPARSE : 0;
}

/* A number member of a JSON object, finite; -1 when absent or not a number. */
static int jnumber(const struct mv_jval *o, const char *key, double *v)
{
  const struct mv_jval *x = mv_jval_get(o, key);
  if (!x || x->type != MV_JNUMBER || !isfinite(x->num))
    return -1;
  *v = x->num;
  return 0;
}

/* One window op's {"smpi_s", "pieces": [{from_bytes, to_bytes, intercept, slope}...]}: pieces
 * ascending from 0, as mv_piecewise_eval reads them. */
static int window_op(const struct mv_jval *o, struct mv_piecewise *f, double *smpi_s)
{
  const struct mv_jval *p = mv_jval_get(o, "pieces");
  if (o->type != MV_JOBJECT || jnumber(o, "smpi_s", smpi_s) || !(*smpi_s >= 0) || !p ||
      p->type != MV_JARRAY || p->n == 0 || p->n > MV_CALIB_MAX_PIECES)
    return MV_EPARSE;
  f->n = p->n;
  for (size_t i = 0; i < p->n; i++) {
    struct mv_piece *q = &f->p[i];
    if (jnumber(&p->items[i], "from_bytes", &q->from) || jnumber(&p->items[i], "to_bytes", &q->to) ||
        jnumber(&p->items[i], "intercept", &q->a) || jnumber(&p->items[i], "slope", &q->b) ||
        q->from < 0 || (i == 0 && q->from != 0) || (i > 0 && !(q->from > f->p[i - 1].from)))
      return MV_EPARSE;
  }
  return 0;
}

int mv_calib_json_windows(const char *json, struct mv_calib_windows *w)
{
  struct mv_jval root;
  size_t at;
  const char *what;
  memset(w, 0, sizeof *w);
  int rc = mv_jread_parse(json, strlen(json), &root, &at, &what);
  if (rc)
    return rc;
  const struct mv_jval *win = mv_jval_get(&root, "windows");
  if (root.type != MV_JOBJECT || (win && win->type != MV_JOBJECT))
    rc = MV_EPARSE;
  for (size_t i = 0; !rc && win && i < win->n; i++) {
    int op = mv_calib_op_find(win->keys[i]), k = op - MV_CALIB_WINALLOC;
    rc = k < 0 || k >= MV_CALIB_NWIN ? MV_EPARSE : window_op(&win->items[i], &w->fit[k], &w->smpi_s[k]);
  }
  mv_jval_release(&root);
  if (rc)
    memset(w, 0, sizeof *w);
  return rc;
}

#define FAIL(rc, ...) mv_error_set(e, (rc), NULL, 0, 0, __VA_ARGS__)

static int check_json(const char *dir, struct mv_calib_folder *f, struct mv_error *e)
{
  char path[4200], s[64] = "none";
  snprintf(path, sizeof path, "%s/calibration.json", dir);
  char *json = slurp(path, MAX_JSON, e);
  if (!json)
    return MV_EIO;
  int rc = mv_calib_json_member(json, "format", s, sizeof s);
  if (rc || strcmp(s, MV_CALIB_FORMAT) != 0)
    rc = FAIL(MV_EPARSE, "%s: expected \"format\": \"%s\", got %s", path, MV_CALIB_FORMAT,
              rc ? "none" : s);
  else if ((mv_calib_json_member(json, "version", s, sizeof s) && strcpy(s, "none")) ||
           strtol(s, NULL, 10) != MV_CALIB_VERSION || strspn(s, "0123456789") != strlen(s))
    rc = FAIL(MV_EUNSUP, "%s: calibration format version %s, this mpivet reads version %d "
              "(calibrate again)", path, s, MV_CALIB_VERSION);
  else if (number_member(json, "link_latency_s", &f->latency_s) ||
           number_member(json, "link_bandwidth_Bps", &f->bandwidth_Bps) ||
           number_member(json, "host_speed_flops", &f->flops))
    rc = FAIL(MV_EPARSE, "%s: expected positive link_latency_s, link_bandwidth_Bps and "
              "host_speed_flops", path);
  /* optional (since stop 31): absent or 0 in older folders and where it was not measured */
  if (!rc && number_member(json, "cpu_clock_read_s", &f->cpu_clock_s) != 0)
    f->cpu_clock_s = 0;
  /* optional (since stop 32): window creation and release */
  if (!rc && (rc = mv_calib_json_windows(json, &f->win)) != 0)
    rc = rc == MV_EPARSE ? FAIL(rc, "%s: not JSON, or a malformed \"windows\" (expected "
                                "{\"win-allocate\": {\"smpi_s\": s, \"pieces\": [...]}, ...})", path) : rc;
  free(json);
  return rc;
}

/* smpi-settings.txt: "key:value" lines, '#' comments. */
static int read_settings(const char *path, struct mv_calib_folder *f, struct mv_error *e)
{
  char *text = slurp(path, MAX_JSON, e);
  if (!text)
    return MV_EIO;
  int rc = 0;
  long line = 0;
  for (char *save = NULL, *l = strtok_r(text, "\n", &save); l && !rc; l = strtok_r(NULL, "\n", &save)) {
    line++;
    if (*l == '#' || !*l)
      continue;
    if (mv_grow_implied(&f->settings, f->nsettings, f->nsettings + 1, sizeof *f->settings)) {
      rc = MV_ENOMEM;
      break;
    }
    if (!strchr(l, ':') || strchr(l, ' ') || *l == ':')
      rc = FAIL(MV_EPARSE, "%s:%ld:1: expected key:value, got \"%.40s\"", path, line, l);
    else if (!(f->settings[f->nsettings++] = strdup(l)))
      rc = MV_ENOMEM;
  }
  free(text);
  return rc;
}

int mv_calib_folder_load(const char *dir, struct mv_calib_folder *f, struct mv_error *e)
{
  static const char *const files[] = {
#define XX(id, name) name,
    MV_CALIB_FILES(XX)
#undef XX
  };
  memset(f, 0, sizeof *f);
  if (strlen(dir) >= sizeof f->dir)
    return FAIL(MV_ERANGE, "%s: path too long", dir);
  strcpy(f->dir, dir);
  for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
    char path[4200];
    snprintf(path, sizeof path, "%s/%s", dir, files[i]);
    FILE *fp = fopen(path, "r");
    if (!fp)
      return FAIL(MV_ENOENT, "%s: not a complete calibration folder: %s is missing", dir, files[i]);
    fclose(fp);
  }
  int rc = check_json(dir, f, e);
  if (!rc) {
    char path[4200];
    snprintf(path, sizeof path, "%s/smpi-settings.txt", dir);
    rc = read_settings(path, f, e);
  }
  if (rc)
    mv_calib_folder_release(f);
  return rc;
}

void mv_calib_folder_release(struct mv_calib_folder *f)
{
  for (size_t i = 0; i < f->nsettings; i++)
    free(f->settings[i]);
  free(f->settings);
  f->settings = NULL;
  f->nsettings = 0;
}
