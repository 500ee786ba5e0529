/* The numbers of a benchmark for any process count as forms a + b * term(P) (scale.h): the
 * process layouts and their regions, the fits of integer values (exact at every traced count:
 * with 3 or more counts and 2 unknowns, at least one count checks the form) and of computation
 * times (least squares), and the forms written as C. */
#include <math.h>
#include <stdio.h>

#include "scale.h"

/* MPI_Dims_create(p, 2): the most balanced factors, larger first (MPI-4.0 section 8.5.2). */
void mv__bg_dims2(uint32_t p, uint32_t *d0, uint32_t *d1)
{
  uint32_t b = 1;
  for (uint32_t k = 1; (uint64_t)k * k <= p; k++)
    if (p % k == 0)
      b = k;
  *d1 = p ? b : 0, *d0 = p ? p / b : 0;
}

/* MPI_Dims_create(p, 3): the factors d0 >= d1 >= d2 closest to each other (the smallest
 * d0 - d2; the first found on a tie), as MPICH 4 and Open MPI 4 give for every p in 8..100.
 * SMPI 3.32 differs where p has a squared prime factor (18: 9 x 2 x 1, 36: 9 x 2 x 2), so
 * traces taken under SMPI at such counts do not match these regions. */
void mv__bg_dims3(uint32_t p, uint32_t d[3])
{
  d[0] = p, d[1] = d[2] = 1;
  for (uint32_t a = 1; (uint64_t)a * a * a <= p; a++)
    for (uint32_t b = a; p % a == 0 && (uint64_t)a * b * b <= p; b++)
      if ((p / a) % b == 0 && p / a / b - a < d[0] - d[2])
        d[0] = p / a / b, d[1] = b, d[2] = a;
}

/* 0 first, 1 interior, 2 last of n positions (a single position is first). */
static unsigned side(uint32_t i, uint32_t n)
{
  return i == 0 ? 0 : i + 1 == n ? 2 : 1;
}

unsigned mv__bg_region(int dims, uint32_t p, uint32_t r)
{
  if (dims == 1)
    return side(r, p);
  if (dims == 3) {
    uint32_t d[3];
    mv__bg_dims3(p, d);
    return side(r / (d[1] * d[2]), d[0]) * 9 + side(r / d[2] % d[1], d[1]) * 3 + side(r % d[2], d[2]);
  }
  uint32_t d0, d1;
  mv__bg_dims2(p, &d0, &d1);
  return side(r / d1, d0) * 3 + side(r % d1, d1);
}

/* The same rule in the generated program (P, D0, D1, T0, T1, T2 set by main). */
const char mv__bg_region_c[] =
  "static unsigned side(int i, int n)\n"
  "{\n"
  "  return i == 0 ? 0 : i + 1 == n ? 2 : 1;\n"
  "}\n"
  "static unsigned region(int r)\n"
  "{\n"
  "  if (DIMS == 3)\n"
  "    return side(r / (T1 * T2), T0) * 9 + side(r / T2 % T1, T1) * 3 + side(r % T2, T2);\n"
  "  return DIMS == 1 ? side(r, P) : side(r / D1, D0) * 3 + side(r % D1, D1);\n"
  "}\n";

const char *mv__bg_region_name(int dims, unsigned region)
{
  static const char *const line[] = {"rank 0", "the interior ranks", "the last rank"};
  static const char *const grid[] = {"the top-left corner", "the top edge", "the top-right corner",
                                     "the left edge", "the interior", "the right edge",
                                     "the bottom-left corner", "the bottom edge", "the bottom-right corner"};
  static const char *const cube[] = {
    "x first y first z first", "x first y first z interior", "x first y first z last",
    "x first y interior z first", "x first y interior z interior", "x first y interior z last",
    "x first y last z first", "x first y last z interior", "x first y last z last",
    "x interior y first z first", "x interior y first z interior", "x interior y first z last",
    "x interior y interior z first", "the interior", "x interior y interior z last",
    "x interior y last z first", "x interior y last z interior", "x interior y last z last",
    "x last y first z first", "x last y first z interior", "x last y first z last",
    "x last y interior z first", "x last y interior z interior", "x last y interior z last",
    "x last y last z first", "x last y last z interior", "x last y last z last"};
  if (dims == 3)
    return region < 27 ? cube[region] : "?";
  return dims == 1 ? (region < 3 ? line[region] : "?") : region < 9 ? grid[region] : "?";
}

double mv__bg_term(int term, uint32_t p)
{
  uint32_t d0, d1, d[3];
  mv__bg_dims2(p, &d0, &d1);
  mv__bg_dims3(p, d);
  switch (term) {
  case MV__BG_T_P: return p;
  case MV__BG_T_D0: return d0;
  case MV__BG_T_D1: return d1;
  case MV__BG_T_T2: return d[2];
  case MV__BG_T_T12: return (double)d[1] * d[2];
  case MV__BG_T_INVP: return p ? 1.0 / p : 0;
  case MV__BG_T_LOGP: return p ? log2((double)p) : 0;
  case MV__BG_T_FLOG2: return p ? floor(log2((double)p)) : 0;
  case MV__BG_T_CLOG2: return p ? ceil(log2((double)p)) : 0;
  default: return 1;
  }
}

double mv__bg_form_at(const struct mv__bg_form *f, uint32_t p)
{
  return f->a + f->b * mv__bg_term(f->term, p);
}

static int allowed(int dims, int term)
{
  int grid2 = term == MV__BG_T_D0 || term == MV__BG_T_D1, grid3 = term == MV__BG_T_T2 || term == MV__BG_T_T12;
  return (dims == 2 || !grid2) && (dims == 3 || !grid3);
}

/* v equals e exactly (to rounding errors), or modulo m when m > 0: a form that only rounds to
 * the traced values would guess between them. */
static int matches(double e, double v, double m)
{
  double d = e - v;
  if (m > 0)
    d -= m * floor(d / m + 0.5);
  return fabs(d) < 1e-6 * fmax(1, fabs(v));
}

/* The form through points f and l (values shifted by kf, kl times the modulus), if it matches
 * every point. */
static int through(int term, const uint32_t *p, const double *v, size_t n, const uint32_t *mod,
                   size_t f, size_t l, int kf, int kl, struct mv__bg_form *out)
{
  double xf = mv__bg_term(term, p[f]), xl = mv__bg_term(term, p[l]);
  double vf = v[f] + (mod ? kf * (double)mod[f] : 0), vl = v[l] + (mod ? kl * (double)mod[l] : 0);
  double b = term == MV__BG_T_ONE ? 0 : (vl - vf) / (xl - xf), a = vf - b * xf;
  for (size_t i = 0; i < n; i++)
    if (!matches(a + b * mv__bg_term(term, p[i]), v[i], mod ? mod[i] : 0))
      return 0;
  *out = (struct mv__bg_form){term, a, b};
  return 1;
}

/* The first form in term order through the points, from term on; 0 or -1. */
static int first_fit(int dims, const uint32_t *p, const double *v, size_t n, const uint32_t *mod,
                     int term, struct mv__bg_form *f)
{
  static const int shift[] = {0, -1, 1};
  int ks = mod ? 3 : 1;
  for (; term < MV__BG_T_COUNT && n; term++) {
    size_t l = n - 1;
    while (term != MV__BG_T_ONE && l > 0 && mv__bg_term(term, p[l]) == mv__bg_term(term, p[0]))
      l--;
    if (!allowed(dims, term) || (term != MV__BG_T_ONE && l == 0))
      continue;
    for (int i = 0; i < ks; i++)
      for (int j = 0; j < (term == MV__BG_T_ONE ? 1 : ks); j++)
        if (through(term, p, v, n, mod, 0, l, shift[i], shift[j], f))
          return 0;
  }
  return -1;
}

int mv__bg_fit_int(int dims, const uint32_t *p, const double *v, size_t n, const uint32_t *mod,
                   struct mv__bg_form *f, int *other)
{
  struct mv__bg_form g;
  *other = -1;
  if (first_fit(dims, p, v, n, mod, 0, f))
    return -1;
  if (f->term != MV__BG_T_ONE && f->b != 0 && !first_fit(dims, p, v, n, mod, f->term + 1, &g)) {
    *other = g.term;  /* two terms agree at every traced count: which one holds beyond is a guess */
    return -2;
  }
  return 0;
}

const char *mv__bg_term_name(int term)
{
  static const char *const name[] = {
#define MV__BG_T(n, c) c,
    MV__BG_TERMS(MV__BG_T)
#undef MV__BG_T
  };
  return term >= 0 && term < MV__BG_T_COUNT ? name[term] : "?";
}

/* Least squares a + b x; the largest residual relative to the largest value. */
static double lsq(int term, const uint32_t *p, const double *v, size_t n, struct mv__bg_form *f)
{
  double sx = 0, sy = 0, sxx = 0, sxy = 0, top = 0, worst = 0;
  for (size_t i = 0; i < n; i++) {
    double x = mv__bg_term(term, p[i]);
    sx += x, sy += v[i], sxx += x * x, sxy += x * v[i];
    top = fmax(top, fabs(v[i]));
  }
  double den = n * sxx - sx * sx, b = term == MV__BG_T_ONE || den == 0 ? 0 : (n * sxy - sx * sy) / den;
  *f = (struct mv__bg_form){term, (sy - b * sx) / n, b};
  for (size_t i = 0; i < n; i++)
    worst = fmax(worst, fabs(mv__bg_form_at(f, p[i]) - v[i]));
  return top > 0 ? worst / top : 0;
}

void mv__bg_fit_real(int dims, const uint32_t *p, const double *v, size_t n, struct mv__bg_form *f)
{
  double best = lsq(MV__BG_T_ONE, p, v, n, f);
  if (best <= 0.05)  /* noise around a constant: keep it */
    return;
  for (int term = 1; term < MV__BG_T_COUNT; term++) {
    struct mv__bg_form g = *f;
    double e = allowed(dims, term) ? lsq(term, p, v, n, &g) : INFINITY;
    if (e < best)
      best = e, *f = g;
  }
}

static int integral(double x)
{
  return x == floor(x) && fabs(x) < 1e15;
}

void mv__bg_form_c(const struct mv__bg_form *f, int integer, char *buf, size_t size)
{
  const char *x = mv__bg_term_name(f->term);
  if (f->term == MV__BG_T_ONE || f->b == 0)
    snprintf(buf, size, integer ? "%.0f" : "%.17g", integer ? floor(f->a + 0.5) : f->a);
  else if (integer && integral(f->a) && integral(f->b) && f->term <= MV__BG_T_T12)
    snprintf(buf, size, "(%.0f + %.0f * %s)", f->a, f->b, x);
  else if (integer)
    snprintf(buf, size, "lround(%.17g + %.17g * %s)", f->a, f->b, x);
  else
    snprintf(buf, size, "(%.17g + %.17g * %s)", f->a, f->b, x);
}
