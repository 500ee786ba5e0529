/* Hosts of a user SimGrid platform XML file (`--platform FILE`): a small well-formedness scan
 * (nested tags, quoted attributes, comments, declarations) that collects the hosts of <host>,
 * <peer> and <cluster>/<cabinet> (prefix + each number of radical + suffix), so that check and
 * bench refuse a malformed file or a host without speed, and count ranks per host, before
 * anything runs. SimGrid itself reads the file at launch; this is only its front door. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "mpivet/error.h"
#include "mpivet/grow.h"
#include "mpivet/platform.h"

#define MAX_DEPTH 64
#define MAX_ATTRS 32
#define MAX_VALUE 512
#define MAX_FILE ((size_t)64 << 20)

struct attr {
  const char *name, *value;
  size_t nlen, vlen;
};

struct tag {
  const char *at, *name;   /* '<' and the element name */
  size_t nlen;
  struct attr a[MAX_ATTRS];
  int n;
};

struct scan {
  const char *name, *text, *end, *p;
  struct mv_platform_hosts *h;
  struct tag open[MAX_DEPTH];   /* open elements (only at/name/nlen are kept) */
  int depth, roots, doctype;
  struct mv_error *e;
};

/* "NAME:LINE:COLUMN: message" for the position at. */
static long line_of(const struct scan *s, const char *at, long *col)
{
  long line = 1;
  *col = 1;
  for (const char *q = s->text; q < at && q < s->end; q++, (*col)++)
    if (*q == '\n')
      line++, *col = 0;
  return line;
}

static int fail(struct scan *s, const char *at, const char *fmt, ...)
{
  long col, line = line_of(s, at, &col);
  char what[MV_ERROR_PART_SIZE];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(what, sizeof what, fmt, ap);
  va_end(ap);
  return mv_error_set(s->e, MV_EPARSE, s->name, line, col, "%s", what);
}

/* What stands at p, quoted for a message: up to 20 printable bytes, or "the end of the file". */
static const char *got(const struct scan *s, const char *p, char *buf, size_t size)
{
  if (p >= s->end)
    return "the end of the file";
  size_t n = 0;
  buf[n++] = '"';
  for (; p < s->end && n + 2 < size && n < 61 && *p != '\n'; p++)
    buf[n++] = (unsigned char)*p >= 0x20 && (unsigned char)*p < 0x7f ? *p : '?';
  buf[n++] = '"';
  buf[n] = '\0';
  return buf;
}

static int is_name_char(char c)
{
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
         c == '-' || c == '.' || c == ':';
}

static int is_space(char c)
{
  return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

static void skip_space(struct scan *s)
{
  while (s->p < s->end && is_space(*s->p))
    s->p++;
}

static int starts(const struct scan *s, const char *lit)
{
  size_t n = strlen(lit);
  return (size_t)(s->end - s->p) >= n && memcmp(s->p, lit, n) == 0;
}

/* Skip past the terminator of a comment, declaration or processing instruction. */
static int skip_to(struct scan *s, const char *term, const char *what)
{
  const char *start = s->p;
  size_t n = strlen(term);
  for (; s->p + n <= s->end; s->p++)
    if (memcmp(s->p, term, n) == 0) {
      s->p += n;
      return 0;
    }
  return fail(s, start, "unterminated %s (expected \"%s\")", what, term);
}

static int eq(const char *a, size_t alen, const char *b)
{
  return strlen(b) == alen && memcmp(a, b, alen) == 0;
}

static const char *const entity[][2] = {{"&lt;", "<"}, {"&gt;", ">"}, {"&amp;", "&"},
                                        {"&quot;", "\""}, {"&apos;", "'"}};

/* The entity at q (< end) as its index in entity[], or the error. */
static int entity_at(struct scan *s, const char *q, const char *end, int *k)
{
  for (*k = 0; *k < 5; (*k)++)
    if ((size_t)(end - q) >= strlen(entity[*k][0]) &&
        memcmp(q, entity[*k][0], strlen(entity[*k][0])) == 0)
      return 0;
  return fail(s, q, "expected an entity (&lt; &gt; &amp; &quot; &apos;), got \"&\"");
}

/* An element or attribute name at s->p. */
static int name(struct scan *s, const char *what, const char **n, size_t *len)
{
  char buf[32];
  *n = s->p;
  while (s->p < s->end && is_name_char(*s->p))
    s->p++;
  *len = (size_t)(s->p - *n);
  if (*len == 0 || (**n >= '0' && **n <= '9') || **n == '-' || **n == '.')
    return fail(s, *n, "expected %s, got %s", what, got(s, *n, buf, sizeof buf));
  return 0;
}

/* name="value" or name='value'. */
static int attribute(struct scan *s, struct attr *a)
{
  char buf[32];
  int rc = name(s, "an attribute name", &a->name, &a->nlen);
  if (rc)
    return rc;
  skip_space(s);
  if (s->p >= s->end || *s->p != '=')
    return fail(s, s->p, "expected \"=\" after %.*s, got %s", (int)a->nlen, a->name,
                got(s, s->p, buf, sizeof buf));
  s->p++;
  skip_space(s);
  if (s->p >= s->end || (*s->p != '"' && *s->p != '\''))
    return fail(s, s->p, "expected a quoted value for %.*s, got %s", (int)a->nlen, a->name,
                got(s, s->p, buf, sizeof buf));
  char q = *s->p++;
  a->value = s->p;
  while (s->p < s->end && *s->p != q && *s->p != '<')
    s->p++;
  if (s->p >= s->end || *s->p != q)
    return fail(s, a->value - 1, "unterminated value of %.*s (expected %c)", (int)a->nlen,
                a->name, q);
  a->vlen = (size_t)(s->p++ - a->value);
  int k;
  for (const char *q = a->value; q < s->p - 1; q++)
    if (*q == '&' && (rc = entity_at(s, q, s->p - 1, &k)))
      return rc;
  return 0;
}

/* A start tag from '<' to '>' or "/>"; *empty says which. */
static int start_tag(struct scan *s, struct tag *t, int *empty)
{
  char buf[32];
  t->at = s->p++;
  t->n = 0;
  int rc = name(s, "an element name", &t->name, &t->nlen);
  for (;;) {
    if (rc)
      return rc;
    const char *before = s->p;
    skip_space(s);
    if (starts(s, "/>") || starts(s, ">")) {
      *empty = *s->p == '/';
      s->p += *empty ? 2 : 1;
      return 0;
    }
    if (s->p == before || s->p >= s->end)
      return fail(s, s->p, "expected an attribute, \">\" or \"/>\" in <%.*s>, got %s",
                  (int)t->nlen, t->name, got(s, s->p, buf, sizeof buf));
    if (t->n == MAX_ATTRS)
      return fail(s, s->p, "more than %d attributes in <%.*s>", MAX_ATTRS, (int)t->nlen, t->name);
    rc = attribute(s, &t->a[t->n++]);
  }
}

static int end_tag(struct scan *s)
{
  char buf[32];
  const char *at = s->p, *n;
  size_t len;
  s->p += 2;
  int rc = name(s, "an element name", &n, &len);
  if (rc)
    return rc;
  skip_space(s);
  if (s->p >= s->end || *s->p != '>')
    return fail(s, s->p, "expected \">\", got %s", got(s, s->p, buf, sizeof buf));
  s->p++;
  if (s->depth == 0)
    return fail(s, at, "</%.*s> closes no element", (int)len, n);
  const struct tag *top = &s->open[s->depth - 1];
  if (top->nlen != len || memcmp(top->name, n, len) != 0)
    return fail(s, at, "expected </%.*s>, got </%.*s>", (int)top->nlen, top->name, (int)len, n);
  s->depth--;
  return 0;
}

/* The value of a, entities decoded, into buf (MAX_VALUE bytes). */
static int decode(struct scan *s, const struct attr *a, char *buf)
{
  size_t n = 0, len;
  int k, rc;
  for (const char *q = a->value, *end = a->value + a->vlen; q < end; q += len) {
    const char *c = q;
    len = 1;
    if (*q == '&') {
      if ((rc = entity_at(s, q, end, &k)))
        return rc;
      c = entity[k][1], len = strlen(entity[k][0]);
    }
    if (n + 1 >= MAX_VALUE)
      return fail(s, a->value, "value of %.*s longer than %d bytes", (int)a->nlen, a->name,
                  MAX_VALUE - 1);
    buf[n++] = *c;
  }
  buf[n] = '\0';
  return 0;
}

/* The attribute `key` of t, decoded into buf: required and not empty. */
static int need(struct scan *s, const struct tag *t, const char *key, char *buf)
{
  for (int i = 0; i < t->n; i++)
    if (eq(t->a[i].name, t->a[i].nlen, key)) {
      int rc = decode(s, &t->a[i], buf);
      if (rc == 0 && buf[0] == '\0')
        return fail(s, t->a[i].value, "<%.*s> with an empty %s", (int)t->nlen, t->name, key);
      return rc;
    }
  return fail(s, t->at, "<%.*s> without the %s attribute (SimGrid requires it)", (int)t->nlen,
              t->name, key);
}

static int add_group(struct scan *s, const char *prefix, const char *suffix, long first,
                     long count, int numbered)
{
  struct mv_platform_hosts *h = s->h;
  if (count > MV_PLATFORM_MAX_HOSTS - h->count)
    return fail(s, s->p, "more than %d hosts", MV_PLATFORM_MAX_HOSTS);
  if (mv_grow_implied(&h->group, h->ngroups, h->ngroups + 1, sizeof *h->group))
    return MV_ENOMEM;
  struct mv_platform_host_group *g = &h->group[h->ngroups];
  g->prefix = strdup(prefix);
  g->suffix = strdup(suffix);
  if (!g->prefix || !g->suffix) {
    free(g->prefix);
    free(g->suffix);
    return MV_ENOMEM;
  }
  g->first = first, g->count = count, g->numbered = numbered;
  h->ngroups++;
  h->count += count;
  return 0;
}

/* A cluster's radical "0-15" or "0-3,5,8-9": one group per range. */
static int radical(struct scan *s, const struct tag *t, const char *rad, const char *prefix,
                   const char *suffix)
{
  for (const char *q = rad; *q;) {
    char *e;
    long lo = (*q >= '0' && *q <= '9') ? strtol(q, &e, 10) : -1, hi = lo;
    if (lo >= 0 && *e == '-')
      hi = (e[1] >= '0' && e[1] <= '9') ? strtol(e + 1, &e, 10) : -1;
    if (lo < 0 || hi < lo || hi >= MV_PLATFORM_MAX_HOSTS || (*e != ',' && *e != '\0'))
      return fail(s, t->at, "<%.*s> radical: expected N or N-M (N <= M < %d) separated by "
                  "commas, got \"%.40s\"", (int)t->nlen, t->name, MV_PLATFORM_MAX_HOSTS, rad);
    int rc = add_group(s, prefix, suffix, lo, hi - lo + 1, 1);
    if (rc)
      return rc;
    q = *e ? e + 1 : e;
  }
  return 0;
}

/* SimGrid's speed: a number with a unit ("1Gf", "100Mf,50Mf" for pstates). */
static int speed(struct scan *s, const struct tag *t, char *buf)
{
  int rc = need(s, t, "speed", buf);
  if (rc == 0 && !(buf[0] >= '0' && buf[0] <= '9') && buf[0] != '.')
    return fail(s, t->at, "<%.*s> speed: expected a number with a unit such as 1Gf, got \"%.40s\"",
                (int)t->nlen, t->name, buf);
  return rc;
}

/* The first host's speed, its first pstate: what an uncalibrated simulation takes as the speed
 * of the machine it runs on (smpi/host-speed). */
static void first_speed(struct scan *s, const char *sp)
{
  size_t n = strcspn(sp, ",");
  if (s->h->count == 0 && n < sizeof s->h->speed)
    snprintf(s->h->speed, sizeof s->h->speed, "%.*s", (int)n, sp);
}

/* The root <platform version="4.1">: SimGrid 3.32 reads versions 4 and 4.1. */
static int root(struct scan *s, const struct tag *t)
{
  char v[MAX_VALUE];
  if (!eq(t->name, t->nlen, "platform"))
    return fail(s, t->at, "expected <platform>, got <%.*s>", (int)t->nlen, t->name);
  if (!s->doctype)
    return fail(s, t->at, "expected <!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\"> "
                "before <platform> (SimGrid needs it)");
  int rc = need(s, t, "version", v);
  char *e;
  double x = rc ? 0 : strtod(v, &e);
  if (rc == 0 && (*e || !(x >= 4.0 && x <= 4.1 + 1e-9)))
    return fail(s, t->at, "platform version \"%.20s\": SimGrid 3.32 reads 4 and 4.1 (convert "
                "older files with simgrid_update_xml)", v);
  return rc;
}

/* Hosts of one element: <host>/<peer> one, <cluster>/<cabinet> one per radical number. */
static int element(struct scan *s, const struct tag *t)
{
  char id[MAX_VALUE], sp[MAX_VALUE], prefix[MAX_VALUE], suffix[MAX_VALUE], rad[MAX_VALUE];
  int rc = 0;
  if (s->depth == 0)
    return s->roots++ ? fail(s, t->at, "a second root element <%.*s>", (int)t->nlen, t->name)
                      : root(s, t);
  if (eq(t->name, t->nlen, "host") || eq(t->name, t->nlen, "peer")) {
    const struct tag *up = &s->open[s->depth - 1];
    if (!eq(up->name, up->nlen, "zone") && !eq(up->name, up->nlen, "AS"))
      return fail(s, t->at, "<%.*s> inside <%.*s>: SimGrid wants it in a <zone>", (int)t->nlen,
                  t->name, (int)up->nlen, up->name);
    rc = need(s, t, "id", id);
    rc = rc ? rc : speed(s, t, sp);
    first_speed(s, sp);
    return rc ? rc : add_group(s, id, "", 0, 1, 0);
  }
  if (eq(t->name, t->nlen, "cluster") || eq(t->name, t->nlen, "cabinet")) {
    static const char *const more[] = {"id", "bw", "lat", NULL};
    for (int i = 0; more[i] && rc == 0; i++)
      rc = need(s, t, more[i], id);
    rc = rc ? rc : need(s, t, "prefix", prefix);
    rc = rc ? rc : need(s, t, "radical", rad);
    rc = rc ? rc : speed(s, t, sp);
    if (rc)
      return rc;
    const struct attr *suf = NULL;   /* suffix may be empty */
    for (int i = 0; i < t->n; i++)
      if (eq(t->a[i].name, t->a[i].nlen, "suffix"))
        suf = &t->a[i];
    if (!suf)
      return fail(s, t->at, "<%.*s> without the suffix attribute (SimGrid requires it)",
                  (int)t->nlen, t->name);
    rc = decode(s, suf, suffix);
    first_speed(s, sp);
    return rc ? rc : radical(s, t, rad, prefix, suffix);
  }
  return 0;
}

/* SimGrid's parser takes exactly one of its own DOCTYPEs, and needs it. */
static int doctype(struct scan *s)
{
  static const char *const ok[] = {"<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">",
    "<!DOCTYPE platform SYSTEM \"http://simgrid.gforge.inria.fr/simgrid/simgrid.dtd\">"};
  char norm[128], buf[64];
  size_t n = 0;
  const char *at = s->p;
  for (; s->p < s->end && *s->p != '>' && n + 2 < sizeof norm; s->p++) {   /* spaces as one */
    int space = is_space(*s->p), next = s->p + 1 < s->end ? s->p[1] : '>';
    if (!space || !(is_space(next) || next == '>'))
      norm[n++] = *s->p == '\'' ? '"' : space ? ' ' : *s->p;
  }
  norm[n++] = '>';
  norm[n] = '\0';
  if (s->p >= s->end || *s->p != '>' || s->roots || s->doctype ||
      (strcmp(norm, ok[0]) != 0 && strcmp(norm, ok[1]) != 0))
    return fail(s, at, "expected %s before <platform> (SimGrid reads no other), got %s", ok[0],
                got(s, at, buf, sizeof buf));
  s->p++;
  s->doctype = 1;
  return 0;
}

/* One markup construct at s->p == '<'. */
static int markup(struct scan *s)
{
  if (starts(s, "<?"))
    return skip_to(s, "?>", "processing instruction");
  if (starts(s, "<!--"))
    return skip_to(s, "-->", "comment");
  if (starts(s, "<!DOCTYPE"))
    return doctype(s);
  if (starts(s, "</"))
    return end_tag(s);
  if (s->roots && s->depth == 0)
    return fail(s, s->p, "content after the end of <platform>");
  struct tag t;
  int empty = 0, rc = start_tag(s, &t, &empty);
  rc = rc ? rc : element(s, &t);
  if (rc || empty)
    return rc;
  if (s->depth == MAX_DEPTH)
    return fail(s, t.at, "elements nested deeper than %d", MAX_DEPTH);
  s->open[s->depth++] = t;
  return 0;
}

static int document(struct scan *s)
{
  char buf[32];
  if (starts(s, "\xEF\xBB\xBF"))
    s->p += 3;
  for (;;) {
    skip_space(s);
    if (s->p >= s->end)
      break;
    if (*s->p != '<')
      return fail(s, s->p, "expected a tag, got %s", got(s, s->p, buf, sizeof buf));
    int rc = markup(s);
    if (rc)
      return rc;
  }
  if (s->depth > 0) {
    const struct tag *t = &s->open[s->depth - 1];
    long col, line = line_of(s, t->at, &col);
    return fail(s, s->end, "expected </%.*s> (opened at line %ld), got the end of the file",
                (int)t->nlen, t->name, line);
  }
  if (!s->roots)
    return fail(s, s->end, "expected a <platform> element, got the end of the file");
  if (s->h->count == 0)
    return fail(s, s->end, "no host (expected <host>, <peer> or <cluster> elements)");
  return 0;
}

int mv_platform_xml_hosts_parse(const char *text, size_t len, const char *name,
                                struct mv_platform_hosts *h, struct mv_error *e)
{
  struct scan s = {.name = name, .text = text, .end = text + len, .p = text, .h = h, .e = e};
  memset(h, 0, sizeof *h);
  int rc = document(&s);
  if (rc == MV_ENOMEM)
    mv_error_set(e, rc, name, 0, 0, "%s", mv_strerror(rc));
  if (rc)
    mv_platform_hosts_release(h);
  return rc;
}

static int parse_text(void *h, const char *name, const char *text, size_t len,
                      struct mv_error *e)
{
  return mv_platform_xml_hosts_parse(text, len, name, h, e);
}

int mv_platform_xml_hosts(const char *path, struct mv_platform_hosts *h, struct mv_error *e)
{
  memset(h, 0, sizeof *h);
  return mv_parse_file(path, MAX_FILE, parse_text, h, e);
}

int mv_platform_hosts_name(const struct mv_platform_hosts *h, long i, char *buf, size_t size)
{
  for (size_t g = 0; g < h->ngroups; i -= h->group[g++].count)
    if (i < h->group[g].count) {
      const struct mv_platform_host_group *x = &h->group[g];
      int n = x->numbered ? snprintf(buf, size, "%s%ld%s", x->prefix, x->first + i, x->suffix)
                          : snprintf(buf, size, "%s", x->prefix);
      return n < 0 || (size_t)n >= size ? MV_ERANGE : 0;
    }
  return MV_ERANGE;
}

/* Is name one of h's hosts? */
int mv_platform_hosts_has(const struct mv_platform_hosts *h, const char *name)
{
  for (size_t g = 0; g < h->ngroups; g++) {
    const struct mv_platform_host_group *x = &h->group[g];
    size_t pl = strlen(x->prefix), sl = strlen(x->suffix), nl = strlen(name);
    if (!x->numbered) {
      if (strcmp(name, x->prefix) == 0)
        return 1;
      continue;
    }
    if (nl <= pl + sl || strncmp(name, x->prefix, pl) != 0 || strcmp(name + nl - sl, x->suffix) != 0)
      continue;
    char num[32], *e;
    if (nl - pl - sl >= sizeof num)
      continue;
    snprintf(num, sizeof num, "%.*s", (int)(nl - pl - sl), name + pl);
    long v = strtol(num, &e, 10);
    if (*e == '\0' && num[0] >= '0' && num[0] <= '9' && v >= x->first && v < x->first + x->count &&
        (num[0] != '0' || num[1] == '\0'))
      return 1;
  }
  return 0;
}

void mv_platform_hosts_release(struct mv_platform_hosts *h)
{
  for (size_t g = 0; g < h->ngroups; g++) {
    free(h->group[g].prefix);
    free(h->group[g].suffix);
  }
  free(h->group);
  memset(h, 0, sizeof *h);
}

/* The name of the i-th host of a list "a,b,c"; MV_ERANGE past its end. */
static int list_host(const char *list, long i, char *buf, size_t size)
{
  for (; i > 0 && (list = strchr(list, ',')); i--)
    list++;
  size_t len = list ? strcspn(list, ",") : 0;
  if (!list || len == 0 || len >= size)
    return MV_ERANGE;
  snprintf(buf, size, "%.*s", (int)len, list);
  return 0;
}

int mv_platform_hosts_write_hostfile(const struct mv_platform_hosts *h, const char *list, int np,
                                     int ppn, FILE *fp)
{
  char name[512];
  long n = h->count;
  if (list) {
    n = 1;
    for (const char *c = list; *c; c++)
      n += *c == ',';
  }
  if (ppn > 0 && n * ppn < np)
    return MV_ERANGE;
  for (int r = 0; r < np; r++) {
    long i = mv_platform_rank_host(n, ppn, r);
    int rc = list ? list_host(list, i, name, sizeof name)
                  : mv_platform_hosts_name(h, i, name, sizeof name);
    if (rc)
      return rc;
    if (fprintf(fp, "%s\n", name) < 0)
      return MV_EIO;
  }
  return 0;
}
