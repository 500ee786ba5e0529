/* What the report writers share: the texts of a function's judgement as the tables show them. */
#ifndef MV_REPORT_INTERNAL_H
#define MV_REPORT_INTERNAL_H

#include "mpivet/report.h"

/* "-" (or the note, for model) where the function has no model. */
struct mv__fn_texts {
  char expectation[MV_REPORT_TEXT];    /* "O(log p)" */
  char model[MV_REPORT_TEXT];          /* "1.2e-06 + 3e-07 * log2(p)^(1)" */
  char lead[MV_REPORT_TEXT];           /* "O(log p)" */
  char divergence[MV_REPORT_TEXT];     /* "O(1)" */
  char ar2[32];                        /* "0.99" */
};
void mv__fn_texts(const struct mv_report_fn *f, struct mv__fn_texts *t);

#endif
