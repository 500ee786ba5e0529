/* libFuzzer target: the guideline catalog parser, then the label of every parsed guideline
 * and an evaluation of the parsed catalog on a tiny data set (one default call, one mock-up). */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "mpivet/guidelines.h"

static void tiny_dataset(struct mv_dataset *ds, const struct mv_catalog *cat)
{
  struct mv_row row;
  mv_row_init(&row);
  for (size_t i = 0; i < cat->n && i < 4; i++) {
    const struct mv_guideline *gl = &cat->items[i];
    snprintf(row.op, sizeof row.op, "%s", gl->ops[0]);
    snprintf(row.impl, sizeof row.impl, "%s", gl->type == MV_GL_PATTERN ? gl->mockup : "default");
    for (int r = 0; r < 6; r++) {
      row.run = r / 2;
      row.msize = 8 << (r % 2);
      row.value = 1 + 0.1 * r + (double)i;
      mv_dataset_add(ds, &row);
    }
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  struct mv_catalog cat;
  mv_catalog_init(&cat);
  if (mv_catalog_parse(&cat, (const char *)data, size, "fuzz", NULL) == 0) {
    char label[512];
    for (size_t i = 0; i < cat.n; i++)
      mv_guideline_label(&cat.items[i], label, sizeof label);
    struct mv_dataset ds;
    struct mv_gl_options opt;
    struct mv_gl_report rep;
    mv_dataset_init(&ds);
    tiny_dataset(&ds, &cat);
    mv_gl_options_init(&opt);
    mv_gl_report_init(&rep);
    mv_gl_evaluate(&cat, &ds, &opt, &rep);
    mv_gl_report_release(&rep);
    mv_dataset_release(&ds);
  }
  mv_catalog_release(&cat);
  return 0;
}
