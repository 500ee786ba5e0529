/* Internal CSV line splitting shared by the results.csv reader and its tests: RFC 4180 fields
 * (quotes, doubled quotes), with the 1-based character column where each field starts. */
#ifndef MPIVET_COMMON_CSV_H
#define MPIVET_COMMON_CSV_H

#include <stddef.h>

#define MV__CSV_MAX_FIELDS 64

struct mv__csv_fields {
  size_t n;
  char *field[MV__CSV_MAX_FIELDS];   /* point into the (modified) line buffer */
  size_t column[MV__CSV_MAX_FIELDS]; /* 1-based column of the field's first character */
};

/* Split line (modified in place, without its newline) into fields. Returns 0, MV_ERANGE when
 * there are too many fields, or MV_EPARSE for an unterminated quote; *bad_col gets the column. */
int mv__csv_split(char *line, struct mv__csv_fields *f, size_t *bad_col);
/* Write s as a CSV field into buf (quoted when needed); returns length or -1 when too small. */
int mv__csv_quote(const char *s, char *buf, size_t size);

#endif
