/* Shortest decimal text that reads back as exactly the same double (tries 15, 16, 17 digits):
 * lossless like %.17g, but 1e-06 stays "1e-06" instead of "9.9999999999999995e-07". */
#ifndef MPIVET_NUMFMT_H
#define MPIVET_NUMFMT_H

#include <stddef.h>

#define MV_NUMFMT_SIZE 32

/* Writes into buf (at least MV_NUMFMT_SIZE bytes) and returns buf. */
char *mv_numfmt(double v, char *buf);

#endif
