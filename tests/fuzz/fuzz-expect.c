/* libFuzzer target: expectation files (and through them the big-O parser and the message-size
 * specs), then the formatter, search space, deviation, verdict and size totals on whatever
 * parsed. */
#include <stddef.h>
#include <stdint.h>

#include "mpivet/expect.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  struct mv_expect_file f;
  char buf[2048];
  mv_expect_file_init(&f);
  if (mv_expect_parse(&f, "fuzz", (const char *)data, size, NULL) == 0) {
    for (size_t i = 0; i < f.n; i++) {
      struct mv_term space[64];
      size_t n;
      struct mv_verdict v;
      mv_bigo_format(&f.items[i].expect, buf, sizeof buf);
      if (mv_expect_search_space(&f.items[i].expect, 2, space, 64, &n) == 0)
        mv_search_space_format(&f.items[i].expect, space, n, buf, sizeof buf);
      mv_expect_evaluate(&f.items[i], &f.items[i].deviation, &v);
      mv_bigo_format(&v.divergence, buf, sizeof buf);
      mv_msize_spec_format(&f.items[i].msize, buf, sizeof buf);
      if (mv_msize_spec_total(&f.items[i].msize, 1 << 24) < 0)
        __builtin_trap();   /* sizes are at most 2^31: no overflow at 2^24 processes */
    }
  }
  mv_expect_file_release(&f);
  return 0;
}
