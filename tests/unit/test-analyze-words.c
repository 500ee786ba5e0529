/* The text report's root causes and critical path in plain words, on the synthetic chain of
 * tests/unit/test-analyze-rootcause.c whose values are worked out there by hand: rank 0 computes
 * 300 ns in compute_a, ranks 1 and 2 150 ns; rank 1 waits 150 ns for rank 0, rank 2 160 ns for
 * rank 1 (150 of them propagated from rank 1's wait). compute_a on rank 0 causes 150 ns directly
 * (rank 1 waited; it ran 300 - 150 = 150 ns longer than on rank 1) and 150 ns through rank 1's
 * propagated wait (rank 2 waited): 300 ns of waiting on ranks 1-2. The critical path (450 ns) runs
 * back from rank 2's end to rank 1 at 310 and to rank 0 at 300: two hand-overs, ranks 0-2. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analyze/synth.h"
#include "mpivet/analyze.h"
#include "test.h"

static char tmpdir[256] = "/tmp/mv-test-words-XXXXXX";

static void compute(struct mv__synth *s, int rank, uint64_t t0, uint64_t t1, const char *name)
{
  mv__synth_enter(s, rank, t0, name);
  mv__synth_leave(s, rank, t1, name);
}

static struct mv_analysis *chain(void)
{
  char dir[320], anchor[400], err[256];
  snprintf(dir, sizeof dir, "%s/chain", tmpdir);
  struct mv__synth *s = mv__synth_open(dir, 3, 0);
  ASSERT_TRUE(s != NULL);
  for (int r = 0; r < 3; r++) {
    mv__synth_enter(s, r, 0, "main");
    compute(s, r, 0, r ? 150 : 300, "compute_a");
  }
  mv__synth_send(s, 0, 300, 310, 1, 0);
  mv__synth_recv(s, 1, 150, 310, 0, 0);
  mv__synth_send(s, 1, 310, 320, 2, 0);
  mv__synth_recv(s, 2, 150, 320, 1, 0);
  for (int r = 0; r < 3; r++)
    mv__synth_leave(s, r, r == 2 ? 450 : 400, "main");
  ASSERT_INT_EQ(mv__synth_close(s), 0);
  snprintf(anchor, sizeof anchor, "%s/traces.otf2", dir);
  struct mv_analysis *a = NULL;
  if (mv_analyze_trace(anchor, NULL, &a, err, sizeof err))
    fprintf(stderr, "analyze %s: %s\n", dir, err);
  return a;
}

static char *text_of(const struct mv_analysis *a)
{
  char *buf = NULL;
  size_t len = 0;
  FILE *fp = open_memstream(&buf, &len);
  ASSERT_TRUE(fp != NULL);
  ASSERT_INT_EQ(mv_analysis_write_text(a, fp, 10), 0);
  fclose(fp);
  return buf;
}

#define ASSERT_HAS(text, s)                                                              \
  do {                                                                                   \
    if (!strstr(text, s))                                                                \
      fprintf(stderr, "missing in the report: \"%s\"\n", s);                            \
    ASSERT_TRUE(strstr(text, s) != NULL);                                                \
  } while (0)

static void test_chain_words(void)
{
  struct mv_analysis *a = chain();
  ASSERT_TRUE(a != NULL);
  if (!a)
    return;
  char *t = text_of(a);
  ASSERT_HAS(t, "delay costs 3.1e-07 s explain 3.1e-07 s of waiting time");
  ASSERT_HAS(t, " 1. 3e-07 s of waiting on ranks 1-2 is caused by main > compute_a on rank 0 "
                "(1.5e-07 s longer than on rank 1)\n");
  ASSERT_HAS(t, "1.5e-07 s directly (rank 1 waited), 1.5e-07 s through the waits that propagated it");
  /* rank 1's MPI_Recv delays rank 2 by 10 ns (its receive leaves 10 ns after rank 0's send) */
  ASSERT_HAS(t, " 2. 1e-08 s of waiting on rank 2 is caused by main > MPI_Recv on rank 1");
  ASSERT_HAS(t, "critical path: 4.5e-07 s, back from the end of rank 2 (the last to finish) to the start, "
                "handed over 2 times at wait states, through ranks 0-2");
  ASSERT_HAS(t, " 1. 3e-07 s in main > compute_a on rank 0\n");
  free(t);
  mv_analysis_free(a);
}

int main(void)
{
  if (!mkdtemp(tmpdir))
    return 1;
  RUN_TEST(test_chain_words);
  char cmd[300];
  snprintf(cmd, sizeof cmd, "rm -rf %s", tmpdir);
  if (system(cmd) != 0)
    fprintf(stderr, "could not remove %s\n", tmpdir);
  return TEST_EXIT();
}
