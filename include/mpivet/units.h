/* Human units for printed times and sizes, chosen per value (12.3 µs, 4.5 ms, 2 s; 800 B,
 * 64 KiB, 1.5 MiB) or per axis (one unit and factor for every tick of a plot). The one place
 * where a metric's unit is decided: metric names ending in _s are seconds, in _bytes bytes. */
#ifndef MPIVET_UNITS_H
#define MPIVET_UNITS_H

#include <stddef.h>

enum mv_unit_kind { MV_UNIT_NONE, MV_UNIT_SECONDS, MV_UNIT_BYTES };

#define MV_UNITS_SIZE 32

/* The kind of a metric name: "time_s" seconds, "mem_bytes"/"rss_bytes" bytes, else none. */
enum mv_unit_kind mv_units_of_metric(const char *metric);

/* Three significant digits (no exponent: 100 and more print whole) and the unit that keeps the
 * number in [1, 1000) (bytes: [1, 1024), binary prefixes; ns and B the smallest, s and GiB the
 * largest): "12.3 µs", "1.5 KiB", "800 B", "0 s". NONE: "%.4g".
 * Writes into buf (MV_UNITS_SIZE bytes is enough) and returns buf. */
char *mv_units_format(enum mv_unit_kind kind, double v, char *buf, size_t size);

/* The printf field width that shows text in `columns` terminal columns ("µ" is two bytes in
 * UTF-8 but one column): fprintf(fp, "%*s", mv_units_pad(11, t), t). */
int mv_units_pad(int columns, const char *text);

/* The unit for an axis whose largest magnitude is max: *factor multiplies a value into it,
 * the returned name ("µs", "KiB", "" for NONE) labels the axis. */
const char *mv_units_axis(enum mv_unit_kind kind, double max, double *factor);

#endif
