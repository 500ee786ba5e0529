/* Internal helpers of the HTML report: escaping and the inline SVG plot of one function. */
#ifndef MPIVET_REPORT_SVG_H
#define MPIVET_REPORT_SVG_H

#include <stdio.h>
#include "mpivet/report.h"

/* <figure class="plot"> with one <svg> for function f; id numbers the clip path. */
void mv__svg_plot(FILE *fp, const struct mv_report_fn *f, int id);

#endif
