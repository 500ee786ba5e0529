/* A recursive-descent JSON reader into a tree (json-read.h states the contract). Numbers follow
 * the JSON grammar exactly before strtod converts them, so "0x10", "NaN" or "+1" are refused. */
#include "mpivet/json-read.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mpivet/error.h"
#include "mpivet/grow.h"

struct jr {
  const char *s, *end;
  const char *p;
  const char *what;
  int depth;
};

static int fail(struct jr *r, const char *what) {
  r->what = what;
  return MV_EPARSE;
}

static void skip_ws(struct jr *r) {
  while (r->p < r->end && (*r->p == ' ' || *r->p == '\t' || *r->p == '\n' || *r->p == '\r'))
    r->p++;
}

static int value(struct jr *r, struct mv_jval *v);

static int hex4(struct jr *r, unsigned *out) {
  unsigned u = 0;
  for (int i = 0; i < 4; i++, r->p++) {
    if (r->p >= r->end)
      return fail(r, "four hex digits after \\u");
    char c = *r->p;
    int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10
          : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
    if (d < 0)
      return fail(r, "four hex digits after \\u");
    u = u * 16 + (unsigned)d;
  }
  *out = u;
  return 0;
}

/* \uXXXX (with a surrogate pair when needed) as UTF-8 into o; returns bytes written or < 0. */
static int unicode_escape(struct jr *r, char *o) {
  unsigned u, lo;
  int rc = hex4(r, &u);
  if (rc)
    return rc;
  if (u >= 0xD800 && u <= 0xDBFF) {
    if (r->end - r->p < 6 || r->p[0] != '\\' || r->p[1] != 'u')
      return fail(r, "a low surrogate after a high surrogate");
    r->p += 2;
    if ((rc = hex4(r, &lo)) || lo < 0xDC00 || lo > 0xDFFF)
      return rc ? rc : fail(r, "a low surrogate after a high surrogate");
    u = 0x10000 + ((u - 0xD800) << 10) + (lo - 0xDC00);
  } else if ((u >= 0xDC00 && u <= 0xDFFF) || u == 0) {
    return fail(r, "a character other than NUL or a lone surrogate");
  }
  if (u < 0x80) {
    o[0] = (char)u;
    return 1;
  }
  if (u < 0x800) {
    o[0] = (char)(0xC0 | (u >> 6));
    o[1] = (char)(0x80 | (u & 0x3F));
    return 2;
  }
  if (u < 0x10000) {
    o[0] = (char)(0xE0 | (u >> 12));
    o[1] = (char)(0x80 | ((u >> 6) & 0x3F));
    o[2] = (char)(0x80 | (u & 0x3F));
    return 3;
  }
  o[0] = (char)(0xF0 | (u >> 18));
  o[1] = (char)(0x80 | ((u >> 12) & 0x3F));
  o[2] = (char)(0x80 | ((u >> 6) & 0x3F));
  o[3] = (char)(0x80 | (u & 0x3F));
  return 4;
}

static int escape(struct jr *r, char *o) {
  static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
  if (r->p >= r->end)
    return fail(r, "an escape after \\");
  const char *k = strchr(from, *r->p);
  if (*r->p == 'u') {
    r->p++;
    return unicode_escape(r, o);
  }
  if (!k || !*r->p)
    return fail(r, "one of \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\u");
  r->p++;
  o[0] = to[k - from];
  return 1;
}

/* A string after its opening quote; decoded text is never longer than the source. */
static int string(struct jr *r, char **out) {
  const char *q = r->p;
  while (q < r->end && *q != '"')
    q += *q == '\\' && q + 1 < r->end ? 2 : 1;
  char *o = malloc((size_t)(q - r->p) + 1);
  if (!o)
    return MV_ENOMEM;
  size_t n = 0;
  int rc = 0;
  while (rc == 0) {
    if (r->p >= r->end)
      rc = fail(r, "a closing quote");
    else if (*r->p == '"')
      break;
    else if ((unsigned char)*r->p < 0x20)
      rc = fail(r, "no control character in a string");
    else if (*r->p == '\\') {
      r->p++;
      int w = escape(r, o + n);
      rc = w < 0 ? w : 0;
      n += w > 0 ? (size_t)w : 0;
    } else
      o[n++] = *r->p++;
  }
  if (rc) {
    free(o);
    return rc;
  }
  r->p++;
  o[n] = '\0';
  *out = o;
  return 0;
}

static const char *digits(const char *p, const char *end) {
  while (p < end && *p >= '0' && *p <= '9')
    p++;
  return p;
}

static int number(struct jr *r, double *out) {
  const char *p = r->p, *end = r->end, *s = p;
  if (p < end && *p == '-')
    p++;
  const char *d = digits(p, end);
  if (d == p || (*p == '0' && d - p > 1))
    return fail(r, "a number");
  p = d;
  if (p < end && *p == '.') {
    d = digits(p + 1, end);
    if (d == p + 1)
      return fail(r, "digits after the decimal point");
    p = d;
  }
  if (p < end && (*p == 'e' || *p == 'E')) {
    p++;
    if (p < end && (*p == '+' || *p == '-'))
      p++;
    d = digits(p, end);
    if (d == p)
      return fail(r, "digits in the exponent");
    p = d;
  }
  char buf[128];
  if ((size_t)(p - s) >= sizeof buf)
    return fail(r, "a number of at most 127 characters");
  memcpy(buf, s, (size_t)(p - s));
  buf[p - s] = '\0';
  errno = 0;
  *out = strtod(buf, NULL);
  if (!isfinite(*out))
    return fail(r, "a number within the range of a double");
  r->p = p;
  return 0;
}

static int literal(struct jr *r, struct mv_jval *v) {
  static const struct { const char *word; enum mv_jtype t; double num; } lit[] = {
    {"null", MV_JNULL, 0}, {"true", MV_JBOOL, 1}, {"false", MV_JBOOL, 0},
  };
  for (size_t i = 0; i < sizeof lit / sizeof lit[0]; i++) {
    size_t n = strlen(lit[i].word);
    if ((size_t)(r->end - r->p) >= n && memcmp(r->p, lit[i].word, n) == 0) {
      r->p += n;
      v->type = lit[i].t;
      v->num = lit[i].num;
      return 0;
    }
  }
  v->type = MV_JNUMBER;
  return number(r, &v->num);
}

/* Elements of an array or members of an object, after the opening bracket. */
static int items(struct jr *r, struct mv_jval *v, int object) {
  char close = object ? '}' : ']';
  size_t cap = 0, kcap = 0;
  skip_ws(r);
  if (r->p < r->end && *r->p == close) {
    r->p++;
    return 0;
  }
  for (;;) {
    if (mv_grow(&v->items, &cap, v->n + 1, sizeof *v->items, 8) < 0 ||
        (object && mv_grow(&v->keys, &kcap, v->n + 1, sizeof *v->keys, 8) < 0))
      return MV_ENOMEM;
    struct mv_jval *it = &v->items[v->n];
    memset(it, 0, sizeof *it);
    int rc;
    if (object) {
      v->keys[v->n] = NULL;
      skip_ws(r);
      if (r->p >= r->end || *r->p != '"')
        return fail(r, "a member name in quotes");
      r->p++;
      if ((rc = string(r, &v->keys[v->n])))
        return rc;
      skip_ws(r);
      if (r->p >= r->end || *r->p != ':') {
        v->n++;   /* the key is owned by v from now on */
        return fail(r, "\":\" after a member name");
      }
      r->p++;
    }
    rc = value(r, it);
    v->n++;
    if (rc)
      return rc;
    skip_ws(r);
    if (r->p < r->end && *r->p == ',') {
      r->p++;
      continue;
    }
    if (r->p < r->end && *r->p == close) {
      r->p++;
      return 0;
    }
    return fail(r, object ? "\",\" or \"}\"" : "\",\" or \"]\"");
  }
}

static int value(struct jr *r, struct mv_jval *v) {
  skip_ws(r);
  if (r->p >= r->end)
    return fail(r, "a value");
  char c = *r->p;
  if (c == '"') {
    r->p++;
    v->type = MV_JSTRING;
    return string(r, &v->str);
  }
  if (c != '[' && c != '{')
    return literal(r, v);
  if (++r->depth > MV_JREAD_DEPTH)
    return fail(r, "less nesting");
  r->p++;
  v->type = c == '{' ? MV_JOBJECT : MV_JARRAY;
  int rc = items(r, v, c == '{');
  r->depth--;
  return rc;
}

void mv_jval_release(struct mv_jval *v) {
  if (!v)
    return;
  for (size_t i = 0; i < v->n; i++) {
    mv_jval_release(&v->items[i]);
    if (v->keys)
      free(v->keys[i]);
  }
  free(v->items);
  free(v->keys);
  free(v->str);
  memset(v, 0, sizeof *v);
}

int mv_jread_parse(const char *text, size_t len, struct mv_jval *out, size_t *at, const char **what) {
  struct jr r = {.s = text, .end = text + len, .p = text};
  memset(out, 0, sizeof *out);
  int rc = value(&r, out);
  if (rc == 0) {
    skip_ws(&r);
    if (r.p != r.end)
      rc = fail(&r, "the end of the input after one value");
  }
  if (rc) {
    mv_jval_release(out);
    if (at)
      *at = (size_t)(r.p - text);
    if (what)
      *what = rc == MV_ENOMEM ? "memory" : r.what;
  }
  return rc;
}

const struct mv_jval *mv_jval_get(const struct mv_jval *v, const char *key) {
  if (!v || v->type != MV_JOBJECT)
    return NULL;
  for (size_t i = v->n; i-- > 0;)
    if (v->keys[i] && strcmp(v->keys[i], key) == 0)
      return &v->items[i];
  return NULL;
}
