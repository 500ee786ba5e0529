/* Truth tests of the root-cause (delay costs) and critical-path passes on synthetic OTF2
 * archives with exact timestamps (ns). Expected values are worked out by hand in the comments
 * from Böhme et al.'s cost model as Scalasca implements it (delay = the delayer's
 * waiting-time-adjusted time minus the waiter's per call path over their synchronization
 * intervals; scale 1 / (delays + waits in the interval)) and the thesis's interval-delay costs
 * (rma-wait-states-thesis.txt, definitions 14-19) and critical path (definitions 21-23). */
#include <math.h>
#include <otf2/OTF2_Events.h>
#include <stdlib.h>
#include <unistd.h>

#include "analyze/internal.h"
#include "analyze/view.h"
#include "mpivet/analyze.h"
#include "analyze-fixture.h"
#include "test.h"

#define ASSERT_HAS(text, s)                                                              \
  do {                                                                                   \
    if (!strstr(text, s))                                                                \
      fprintf(stderr, "missing in the report: \"%s\"\n", s);                             \
    ASSERT_TRUE(strstr(text, s) != NULL);                                                \
  } while (0)

/* The chain in the text report's plain words: compute_a on rank 0 causes 150 ns directly (rank 1
 * waited; it ran 300 - 150 = 150 ns longer than on rank 1) and 150 ns through rank 1's propagated
 * wait (rank 2 waited): 300 ns on ranks 1-2; rank 1's MPI_Recv 10 ns of rank 2's wait. The
 * critical path runs back from rank 2's end to rank 1 and rank 0: two hand-overs, ranks 0-2. */
static void check_words(const struct mv_analysis *a)
{
  char *t = NULL;
  size_t len = 0;
  FILE *fp = open_memstream(&t, &len);
  ASSERT_TRUE(fp != NULL);
  if (!fp)
    return;
  ASSERT_INT_EQ(mv_analysis_write_text(a, fp, 10), 0);
  fclose(fp);
  ASSERT_HAS(t, "delay costs 3.1e-07 s explain 3.1e-07 s of waiting time");
  ASSERT_HAS(t, " 1. 3e-07 s of waiting on ranks 1-2 is caused by main > compute_a on rank 0 "
                "(1.5e-07 s longer than on rank 1)\n");
  ASSERT_HAS(t, "1.5e-07 s directly (rank 1 waited), 1.5e-07 s through the waits that propagated it");
  ASSERT_HAS(t, " 2. 1e-08 s of waiting on rank 2 is caused by main > MPI_Recv on rank 1");
  ASSERT_HAS(t, "critical path: 4.5e-07 s, back from the end of rank 2 (the last to finish) to the start, "
                "handed over 2 times at wait states, through ranks 0-2");
  ASSERT_HAS(t, " 1. 3e-07 s in main > compute_a on rank 0\n");
  free(t);
}

/* Rank 0 computes 300, ranks 1 and 2 150. Rank 1 receives from 0 (waits 300 - 150 = 150) and
 * sends to 2 at 310; rank 2 waits 310 - 150 = 160, rank 2 ends last (main leaves at 450).
 * Backwards: rank 2's wait (end 310): its interval [0,150] has compute 150; rank 1's [0,310]
 * has compute 150 and MPI_Recv 160 of which 150 are its own wait: delay compute 0, MPI_Recv 10;
 * scale 1 / (10 + 150): short-term 10 on rank 1's MPI_Recv, 150 propagated to rank 1's wait.
 * Rank 1's wait (end 300): delay compute 300 - 150 on rank 0, scale 1/150: short-term 150,
 * long-term 150 (its propagation cost). Totals 160 + 150 = 310 = 150 + 160 waiting. */
static void test_chain(void)
{
  char dir[320];
  struct mv__synth *s = open_archive(dir, sizeof dir, 3, 0);
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
  struct mv_analysis *a = close_and_analyze(s, dir);
  if (!a)
    return;
  EXPECT_TICKS(a,
      {"late_sender", -1, NULL, 310},
      {"delay_latesender", 0, "compute_a", 150}, {"delay_latesender", 1, "MPI_Recv", 10},
      {"delay_latesender", -1, NULL, 160},
      {"delay_latesender_longterm", 0, "compute_a", 150}, {"delay_latesender_longterm", -1, NULL, 150});
  check_identity(a, "late_sender", NULL);
  /* rank 2's wait: 150 indirect (rank 1's wait), 10 direct, terminal; rank 1's: direct,
   * propagating */
  EXPECT_TICKS(a,
      {"mpi_wait_indirect", 2, NULL, 150},
      {"mpi_wait_direct", 2, NULL, 10},
      {"mpi_wait_terminal", 2, NULL, 160},
      {"mpi_wait_propagating_ls", 1, NULL, 150},
      {"mpi_wait_direct", 1, NULL, 150});
  /* critical path from rank 2's end (450): [310,450] on rank 2 (MPI_Recv 10, main 130), at its
   * wait to rank 1 at 310: [300,310] MPI_Recv 10, at its wait to rank 0 at 300: compute [0,300] */
  EXPECT_TICKS(a,
      {"critical_path", -1, NULL, 450}, {"critical_path", 0, "compute_a", 300},
      {"critical_path", 1, "MPI_Recv", 10}, {"critical_path", 2, "main", 130},
      {"critical_path", 1, "compute_a", 0});
  /* imbalance: compute_a 300 on the path, average (300 + 150 + 150) / 3 = 200: 100; main: 130
   * on the path, average (90 + 80 + 130) / 3 = 100: 30 */
  EXPECT_TICKS(a,
      {"critical_path_imbalance", -1, "compute_a", 100}, {"critical_path_imbalance", -1, "main", 30},
      /* impact: 3 x 100 of imbalance impact; the activities 3 x min(path, average) */
      {"critical_imbalance_impact", -1, "compute_a", 300},
      {"critical_path_activities", -1, "compute_a", 600},
      /* time: first to last event, computation below it (the user regions' exclusive time) */
      {"time", -1, NULL, 400 + 400 + 450},
      {"comp", -1, NULL, 400 + 400 + 450 - 10 - 170 - 170});
  check_words(a);
  /* kept for the backward passes: one timeline point per Enter or Leave at a new time (an Enter
   * at the time of the previous event replaces it): rank 0 at 0 (main, compute_a), 300 (MPI_Send),
   * 310, 400; rank 1 at 0, 150 (MPI_Recv), 310 (MPI_Send), 320, 400; rank 2 at 0, 150, 320, 450:
   * 4 + 5 + 4 = 13 points of 12 bytes (time 8, call path 4); the 2 Late Senders (64 bytes each),
   * their 2 x 2 synchronization points (32 bytes each), no collective, the 2 messages (24 bytes
   * each) */
  uint64_t n[4], bytes[4];
  ASSERT_INT_EQ((long long)mv_analysis_kept(a, n, bytes), 13 * 12 + 2 * 64 + 4 * 32 + 2 * 24);
  ASSERT_INT_EQ((long long)n[0], 13);
  ASSERT_INT_EQ((long long)n[1], 2);
  ASSERT_INT_EQ((long long)n[2], 4);
  ASSERT_INT_EQ((long long)n[3], 2);
  ASSERT_INT_EQ((long long)bytes[0], 156);
  mv_analysis_free(a);
}

/* Collectives (op): rank 2 computes 400, ranks 0 and 1 100; all leave the collective at 410.
 * Barrier and N x N: both wait 300 for rank 2, its delay 400 - 100 over the interval from the
 * start, scale 1 / 300: 300 + 300 on rank 2's work. The critical path runs from rank 0 (first of
 * the ranks ending at 410): its collective [400,410], then rank 2 [0,400]; work's imbalance is
 * 400 - (100 + 100 + 400) / 3 = 200. Broadcast from rank 2: the same waits are Late Broadcast. */
static void one_collective(const char *region, int op, int root, const char *wait_key, const char *delay_key)
{
  char dir[320];
  struct mv__synth *s = open_archive(dir, sizeof dir, 3, 0);
  for (int r = 0; r < 3; r++) {
    compute(s, r, 0, r == 2 ? 400 : 100, "work");
    mv__synth_coll(s, r, r == 2 ? 400 : 100, 410, region, op, root);
  }
  struct mv_analysis *a = close_and_analyze(s, dir);
  if (!a)
    return;
  EXPECT_TICKS(a,
      {wait_key, -1, NULL, 600},
      {delay_key, 2, "work", 600},
      {"delay", -1, NULL, 600});
  check_identity(a, wait_key, NULL);
  EXPECT_TICKS(a,
      {"critical_path", 0, region, 10}, {"critical_path", 2, "work", 400}, {"critical_path", -1, NULL, 410},
      {"critical_path_imbalance", -1, "work", 200});
  if (!strcmp(wait_key, "wait_barrier")) {   /* kept: synchronization points of 32 bytes: 3 members'
                                              * calls of the barrier, both sides of its 2 waits */
    uint64_t n[4], bytes[4];
    mv_analysis_kept(a, n, bytes);
    ASSERT_INT_EQ((long long)n[1], 2);
    ASSERT_INT_EQ((long long)n[2], 3 + 2 * 2);
    ASSERT_INT_EQ((long long)bytes[2], 7 * 32);
  }
  mv_analysis_free(a);
}

static void test_collectives(void)
{
  one_collective("MPI_Barrier", OTF2_COLLECTIVE_OP_BARRIER, -1, "wait_barrier", "delay_barrier");
  one_collective("MPI_Allreduce", OTF2_COLLECTIVE_OP_ALLREDUCE, -1, "wait_nxn", "delay_n2n");
  one_collective("MPI_Bcast", OTF2_COLLECTIVE_OP_BCAST, 2, "late_broadcast", "delay_12n");
}

/* The last entrant's call may take no time (SMPI on an ideal network: it enters and leaves at
 * the tick the others leave). Rank 1 works [0,400] and its barrier is [400,400]; rank 0 works
 * [0,100] and waits [100,400]: 300, caused by rank 1's work over the interval from the start
 * (delay 400 - 100), not by an empty interval that ends at the zero-length barrier itself. */
static void test_instant_last_entrant(void)
{
  char dir[320];
  struct mv__synth *s = open_archive(dir, sizeof dir, 2, 0);
  for (int r = 0; r < 2; r++) {
    compute(s, r, 0, r ? 400 : 100, "work");
    mv__synth_coll(s, r, r ? 400 : 100, 400, "MPI_Barrier", OTF2_COLLECTIVE_OP_BARRIER, -1);
  }
  struct mv_analysis *a = close_and_analyze(s, dir);
  if (!a)
    return;
  ASSERT_INT_EQ(TICKS(a, "wait_barrier", 0, NULL), 300);
  ASSERT_INT_EQ(TICKS(a, "delay_barrier", 1, "work"), 300);
  check_identity(a, "wait_barrier", NULL);
  ASSERT_INT_EQ(TICKS(a, "critical_path", 1, "work"), 400);
  mv_analysis_free(a);
}

/* Completion time (Scalasca's GetSynchpointTimes): a rank that stays in a synchronizing call after
 * its partner could leave (descheduled, on LAMMPS' 2 shared cores) is late by that much, and the
 * next synchronization interval starts where the partner left, not at its own leave. Rank 0:
 * work [0,100], MPI_Send to 1 [100,110], work [110,210], MPI_Recv from 1 [210,410]; rank 1:
 * MPI_Recv from 0 [0,300] (waits 100 for the send, stays 190 after the sender left at 110), work
 * [300,400], MPI_Send to 0 [400,410]. Rank 0 waits 400 - 210 = 190.
 * Rank 0's wait first (end 400): both intervals start at 110 (min of the two leaves of the first
 * message); rank 1 has MPI_Recv 190 (110 to 300) and work 100, rank 0 work 100: delay MPI_Recv
 * 190, scale 1 / 190: 190 on rank 1's MPI_Recv. Rank 1's wait (end 100): rank 0's work 100 from
 * the start against nothing on rank 1: 100. Identity: 190 + 100 = 290 = all waiting. From rank 1's
 * leave (300) instead, the intervals had work 100 each: no delay, 190 unexplained (mpivet 0.24). */
static void test_completion_p2p(void)
{
  char dir[320];
  struct mv__synth *s = open_archive(dir, sizeof dir, 2, 0);
  compute(s, 0, 0, 100, "work");
  mv__synth_send(s, 0, 100, 110, 1, 0);
  compute(s, 0, 110, 210, "work");
  mv__synth_recv(s, 0, 210, 410, 1, 0);
  mv__synth_recv(s, 1, 0, 300, 0, 0);
  compute(s, 1, 300, 400, "work");
  mv__synth_send(s, 1, 400, 410, 0, 0);
  struct mv_analysis *a = close_and_analyze(s, dir);
  if (!a)
    return;
  EXPECT_TICKS(a,
      {"late_sender", 0, NULL, 190}, {"late_sender", 1, NULL, 100},
      {"delay_latesender", 1, "MPI_Recv", 190}, {"delay_latesender", 0, "work", 100},
      {"delay_latesender", -1, NULL, 290}, {"delay_latesender_longterm", -1, NULL, 0});
  check_identity(a, "late_sender", NULL);
  mv_analysis_free(a);
}

/* The same for a collective: it could end at its earliest leave, not before the last entrant.
 * Ranks 0 and 1 work [0,100], rank 2 [0,200]; barrier 1: ranks 0 and 1 enter at 100, rank 2 at
 * 200; ranks 1 and 2 leave at 210, rank 0 at 400 (completion 190). Then work 100 each: rank 0
 * [400,500], ranks 1-2 [210,310]; barrier 2: rank 0 [500,510], ranks 1-2 [310,510] (wait 190
 * each). Barrier 1 could end at 210 for all. Barrier 2's waits (end 500): rank 0's interval from
 * 210 has MPI_Barrier 190 and work 100, each waiter's work 100: delay 190 on MPI_Barrier, scale
 * 1 / 190: 190 + 190. Barrier 1's waits (end 200): rank 2's work 200 against 100: delay 100,
 * 100 + 100. delay_barrier 580 = the waiting 100 + 100 + 190 + 190. */
static void test_completion_barrier(void)
{
  char dir[320];
  struct mv__synth *s = open_archive(dir, sizeof dir, 3, 0);
  for (int r = 0; r < 3; r++) {
    compute(s, r, 0, r == 2 ? 200 : 100, "work");
    mv__synth_coll(s, r, r == 2 ? 200 : 100, r ? 210 : 400, "MPI_Barrier", OTF2_COLLECTIVE_OP_BARRIER, -1);
    compute(s, r, r ? 210 : 400, r ? 310 : 500, "work");
    mv__synth_coll(s, r, r ? 310 : 500, 510, "MPI_Barrier", OTF2_COLLECTIVE_OP_BARRIER, -1);
  }
  struct mv_analysis *a = close_and_analyze(s, dir);
  if (!a)
    return;
  EXPECT_TICKS(a,
      {"wait_barrier", 0, NULL, 100}, {"wait_barrier", 1, NULL, 290}, {"wait_barrier", 2, NULL, 190},
      {"delay_barrier", 0, "MPI_Barrier", 380}, {"delay_barrier", 2, "work", 200},
      {"delay_barrier", -1, NULL, 580}, {"delay_barrier_longterm", -1, NULL, 0});
  check_identity(a, "wait_barrier", NULL);
  mv_analysis_free(a);
}

/* mpivet's own traces hold only MPI calls: the gaps between them are computation, named after
 * the next call (site 0x10 here); Time is first to last event. Rank 0 computes [0,500) before
 * its send, rank 1 [0,100) before its receive: Late Sender 400 caused by rank 0's computation
 * before the send (delay 500 - 100 = 400). */
static void test_computation_paths(void)
{
  char dir[320];
  struct mv__synth *s = open_archive(dir, sizeof dir, 2, 0);
  mv__synth_coll(s, 0, 0, 0, "MPI_Init", OTF2_COLLECTIVE_OP_BARRIER, -1);
  mv__synth_coll(s, 1, 0, 0, "MPI_Init", OTF2_COLLECTIVE_OP_BARRIER, -1);
  mv__synth_site(s, 0x10);
  mv__synth_send(s, 0, 500, 510, 1, 0);
  mv__synth_site(s, 0x20);
  mv__synth_recv(s, 1, 100, 510, 0, 0);
  mv__synth_coll(s, 0, 600, 700, "MPI_Finalize", OTF2_COLLECTIVE_OP_BARRIER, -1);
  mv__synth_coll(s, 1, 690, 700, "MPI_Finalize", OTF2_COLLECTIVE_OP_BARRIER, -1);
  struct mv_analysis *a = close_and_analyze(s, dir);
  if (!a)
    return;
  EXPECT_TICKS(a,
      {"time", -1, NULL, 1400},
      {"comp", 0, "Computation", 500 + 90}, {"comp", 1, "Computation", 100 + 180},
      {"delay_latesender", 0, "Computation", 400}, {"delay_latesender", -1, NULL, 400});
  mv_analysis_free(a);
}

/* The critical path runs as Scalasca's backward replay: from the rank that entered MPI_Finalize
 * last back to the leave of MPI_Init (LAMMPS' path had MPI_Init at its top: rank 0, launched
 * first, spends the others' start-up in it, which is no wait state). Rank 0: MPI_Init [0,500],
 * work [500,700], MPI_Finalize [700,950]; rank 1: MPI_Init [300,500], work [500,900],
 * MPI_Finalize [900,950]. Path: rank 1 [500,950]: work 400, MPI_Finalize 50; 450 in all, no
 * MPI_Init (from the end of rank 0, the first of the two ending last, it would be rank 0's
 * whole run, MPI_Init 500 at its top). work: 400 on the path, average (200 + 400) / 2 = 300:
 * imbalance 100. */
static void test_init_finalize(void)
{
  char dir[320];
  struct mv__synth *s = open_archive(dir, sizeof dir, 2, 0);
  compute(s, 0, 0, 500, "MPI_Init");   /* enter and leave only, as mpivet's tracer records them */
  compute(s, 1, 300, 500, "MPI_Init");
  compute(s, 0, 500, 700, "work");
  compute(s, 1, 500, 900, "work");
  compute(s, 0, 700, 950, "MPI_Finalize");
  compute(s, 1, 900, 950, "MPI_Finalize");
  struct mv_analysis *a = close_and_analyze(s, dir);
  if (!a)
    return;
  EXPECT_TICKS(a,
      {"critical_path", -1, NULL, 450}, {"critical_path", 1, "work", 400},
      {"critical_path", 1, "MPI_Finalize", 50}, {"critical_path", -1, "MPI_Init", 0},
      {"critical_path", 0, NULL, 0}, {"critical_path_imbalance", -1, "work", 100});
  char *t = NULL;
  size_t len = 0;
  FILE *fp = open_memstream(&t, &len);
  ASSERT_TRUE(fp != NULL);
  if (fp) {
    ASSERT_INT_EQ(mv_analysis_write_text(a, fp, 10), 0);
    fclose(fp);
    ASSERT_HAS(t, "critical path: 4.5e-07 s, back from the end of rank 1 (the last to enter MPI_Finalize) to "
                  "the end of MPI_Init, handed over 0 times at wait states, through rank 1");
    free(t);
  }
  mv_analysis_free(a);
}

/* MPI_Init synchronizes everybody (Scalasca's INIT synchronization point): an interval with no
 * earlier synchronization point starts at the earliest leave of MPI_Init, not at the location's
 * first event, so the launch (rank 0 started first and sat in MPI_Init) is no delay. Rank 0:
 * MPI_Init [0,500], work [500,600], MPI_Send to 1 [600,610]; rank 1: MPI_Init [300,500],
 * MPI_Recv [500,610]: Late Sender 100. Both intervals from 500: rank 0's work 100 against nothing
 * on rank 1, delay 100, all on work. From the first events instead, rank 0's MPI_Init 500 - 200
 * = 300 was a delay too and took 75 of the 100 (LAMMPS: "0.128 s of waiting ... caused by
 * MPI_Init on rank 0"). */
static void test_init_sync(void)
{
  char dir[320];
  struct mv__synth *s = open_archive(dir, sizeof dir, 2, 0);
  compute(s, 0, 0, 500, "MPI_Init");
  compute(s, 1, 300, 500, "MPI_Init");
  compute(s, 0, 500, 600, "work");
  mv__synth_send(s, 0, 600, 610, 1, 0);
  mv__synth_recv(s, 1, 500, 610, 0, 0);
  struct mv_analysis *a = close_and_analyze(s, dir);
  if (!a)
    return;
  EXPECT_TICKS(a,
      {"late_sender", 1, NULL, 100}, {"delay_latesender", 0, "work", 100},
      {"delay_latesender", 0, "MPI_Init", 0}, {"delay", -1, NULL, 100});
  check_identity(a, "late_sender", NULL);
  mv_analysis_free(a);
}

/* The rank lists of the plain words (mv__rank_list), worked out by hand. Runs of ranks become
 * ranges. A list longer than the buffer (262 bytes, as words.c uses: "ranks " and 256) keeps 40
 * bytes for its tail and ends after a whole entry: every other rank of 1024 (512 ranks) gives
 * "0" (1 byte), ", 2" .. ", 8" (4 x 3), ", 10" .. ", 98" (45 x 4): 193 bytes; ", 100" .. ", 106"
 * (5 each) fit while 193 + 5 j + 5 + 40 < 256, i.e. j = 0..3 (213 bytes); ", 108" would need
 * 258: the list ends ", 106, ... (512 ranks in all)" (24 more bytes: 237, 243 with "ranks ").
 * Before, the list was cut anywhere: "..., 340, is caused by" at 1024 SMPI ranks. */
static void test_rank_list(void)
{
  char buf[262];
  uint8_t on[1024] = {0};
  ASSERT_STR_EQ(mv__rank_list(buf, sizeof buf, on, 6), "rank ?");
  on[2] = 1;
  ASSERT_STR_EQ(mv__rank_list(buf, sizeof buf, on, 6), "rank 2");
  on[1] = on[3] = on[5] = 1;
  ASSERT_STR_EQ(mv__rank_list(buf, sizeof buf, on, 6), "ranks 1-3, 5");
  on[1] = on[2] = on[3] = 0;
  ASSERT_STR_EQ(mv__rank_list(buf, sizeof buf, on, 6), "rank 5");
  for (int r = 0; r < 1024; r++)
    on[r] = r % 2 == 0;
  const char *t = mv__rank_list(buf, sizeof buf, on, 1024);
  ASSERT_INT_EQ((int)strlen(t), 243);
  ASSERT_TRUE(strncmp(t, "ranks 0, 2, 4, 6, 8, 10, 12, ", 29) == 0);
  const char *tail = ", 98, 100, 102, 104, 106, ... (512 ranks in all)";
  ASSERT_TRUE(strlen(t) >= strlen(tail) && strcmp(t + strlen(t) - strlen(tail), tail) == 0);
}

int main(void)
{
  if (fixture_begin("rootcause", 'r'))
    return 1;
  RUN_TEST(test_chain);
  RUN_TEST(test_collectives);
  RUN_TEST(test_computation_paths);
  RUN_TEST(test_instant_last_entrant);
  RUN_TEST(test_completion_p2p);
  RUN_TEST(test_completion_barrier);
  RUN_TEST(test_init_finalize);
  RUN_TEST(test_init_sync);
  RUN_TEST(test_rank_list);
  fixture_end();
  return TEST_EXIT();
}
