/* Units for printed times and sizes (mpivet/units.h): SI prefixes for seconds, binary ones
 * (IEC 80000-13: KiB = 1024 B) for bytes. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "mpivet/units.h"

struct unit {
  const char *name;
  double size;  /* in seconds or bytes */
};

static const struct unit seconds[] = {{"s", 1}, {"ms", 1e-3}, {"µs", 1e-6}, {"ns", 1e-9}};
static const struct unit bytes[] = {{"GiB", 1073741824.0}, {"MiB", 1048576.0}, {"KiB", 1024.0},
                                    {"B", 1}};
#define N_SECONDS (sizeof seconds / sizeof seconds[0])
#define N_BYTES (sizeof bytes / sizeof bytes[0])

enum mv_unit_kind mv_units_of_metric(const char *metric)
{
  size_t n = metric ? strlen(metric) : 0;
  if (n > 2 && strcmp(metric + n - 2, "_s") == 0)
    return MV_UNIT_SECONDS;
  if (n > 6 && strcmp(metric + n - 6, "_bytes") == 0)
    return MV_UNIT_BYTES;
  return MV_UNIT_NONE;
}

/* The largest unit not larger than |v| (seconds: s at most; both: the smallest unit at least). */
static const struct unit *unit_for(enum mv_unit_kind kind, double v)
{
  const struct unit *u = kind == MV_UNIT_SECONDS ? seconds : bytes;
  size_t n = kind == MV_UNIT_SECONDS ? N_SECONDS : N_BYTES;
  double a = fabs(v);
  for (size_t i = 0; i + 1 < n; i++)
    if (a >= u[i].size)
      return &u[i];
  return a == 0 ? &u[kind == MV_UNIT_SECONDS ? 0 : n - 1] : &u[n - 1];
}

char *mv_units_format(enum mv_unit_kind kind, double v, char *buf, size_t size)
{
  if (kind == MV_UNIT_NONE || !isfinite(v)) {
    snprintf(buf, size, "%.4g", v);
    return buf;
  }
  const struct unit *u = unit_for(kind, v);
  double x = v / u->size;
  /* three significant digits, but never an exponent: 1023 KiB, 512 µs, 3600 s */
  if (fabs(x) >= 99.95 || (kind == MV_UNIT_BYTES && u->size == 1))
    snprintf(buf, size, "%.0f %s", x, u->name);
  else
    snprintf(buf, size, "%.3g %s", x, u->name);
  return buf;
}

int mv_units_pad(int columns, const char *text)
{
  int extra = 0;
  for (const unsigned char *p = (const unsigned char *)text; *p; p++)
    extra += (*p & 0xC0) == 0x80;  /* UTF-8 continuation byte */
  return columns + extra;
}

const char *mv_units_axis(enum mv_unit_kind kind, double max, double *factor)
{
  if (kind == MV_UNIT_NONE || !isfinite(max)) {
    *factor = 1;
    return "";
  }
  const struct unit *u = unit_for(kind, max);
  *factor = 1 / u->size;
  return u->name;
}
