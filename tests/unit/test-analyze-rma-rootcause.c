/* Truth tests of the one-sided root causes (the thesis's extension of Böhme et al.'s cost model,
 * rma-wait-states-thesis.txt chapter 4) and of the critical path through one-sided wait states,
 * on synthetic OTF2 archives with exact timestamps (ns). Each archive is a chain: rank 0 computes
 * longer, so rank 1 waits for it (a Late Sender), and rank 1's wait delays the one-sided call that
 * rank 2 waits for; or the holder of a lock waited before it made another rank wait. Expected
 * values are worked out by hand in the comments: delay d(c) = the delayer's waiting-time-adjusted
 * time minus the waiter's per call path over their synchronization intervals (definitions 5-7),
 * short-term costs wait x d / (sum d + W), W the waits in the delayer's interval, which receive
 * wait x W / (sum d + W) as propagation costs (definitions 14-16); interval-delay costs for Lock
 * Contention with r = W / wait (definitions 17-19); critical path handed from each wait state to
 * its cause (section 4.2). */
#include <otf2/OTF2_Events.h>
#include <stdlib.h>
#include <unistd.h>

#include "analyze/internal.h"
#include "mpivet/analyze.h"
#include "analyze-fixture.h"
#include "test.h"

/* The common start of the synchronization chains: every rank runs prep [0,10]; rank 0 computes
 * [10,310] and sends to rank 1 [310,320]; ranks 1 and 2 compute [10,160]; rank 1 receives
 * [160,320]: Late Sender 310 - 160 = 150, caused by rank 0's compute_a (delay 300 - 150). */
static void chain_start(struct mv__synth *s)
{
  for (int r = 0; r < 3; r++) {
    compute(s, r, 0, 10, "prep");
    compute(s, r, 10, r ? 160 : 310, "compute_a");
  }
  mv__synth_send(s, 0, 310, 320, 1, 0);
  mv__synth_recv(s, 1, 160, 320, 0, 0);
}

/* Rank 1's Late Sender received the propagation costs of rank 2's wait: its costs go to rank 0's
 * compute_a, 150 short-term (Late Sender) and 150 long-term of rank 2's pattern. The critical path
 * (rank 2 ends last, at 460) runs back through rank 2's wait to rank 1 at the time the wait ended,
 * through rank 1's Late Sender to rank 0 at 310: compute_a 300 on it, whose imbalance is
 * 300 - (300 + 150 + 150) / 3 = 100. */
static void check_chain_start(struct mv_analysis *a, const char *long_key)
{
  EXPECT_TICKS(a,
      {"late_sender", 1, "MPI_Recv", 150},
      {"delay_latesender", 0, "compute_a", 150}, {"delay_latesender", -1, NULL, 150},
      {long_key, 0, "compute_a", 150}, {long_key, -1, NULL, 150},
      {"critical_path", -1, NULL, 460}, {"critical_path", 0, "compute_a", 300},
      {"critical_path", 0, "prep", 10}, {"critical_path", 1, "compute_a", 0},
      {"critical_path_imbalance", -1, "compute_a", 100}, {"critical_path_imbalance", -1, "prep", 0},
      /* rank 1's wait caused rank 2's: propagating; rank 2's is terminal */
      {"mpi_wait_propagating_ls", 1, NULL, 150},
      {"mpi_wait_terminal", 1, NULL, 0});
}

/* Late Post (pattern 3): rank 2 starts an access epoch to rank 1 at 160; rank 1 posts at 320
 * after its receive: Late Post 160 in MPI_Win_start [160,330]. Rank 1's interval [0,320]: prep 10,
 * compute_a 150, MPI_Recv 160 - 150 waiting = 10; rank 2's [0,160]: prep 10, compute_a 150.
 * Delay: MPI_Recv 10; W = 150; scale 1 / 160: short-term 10 on rank 1's MPI_Recv, 150 to rank 1's
 * wait as Late Post propagation costs. Identity: 10 + 150 + 150 = 310 = 150 + 160. Critical path:
 * rank 2 [320,460] (start 10, complete 10, tail 120), rank 1 [310,320] (MPI_Recv 10), rank 0
 * [0,310]. */
static void test_late_post(void)
{
  char dir[320];
  struct mv__synth *s = open_archive(dir, sizeof dir, 3, 1);
  int one[1] = {1}, two[1] = {2};
  uint32_t g1 = mv__synth_group(s, 1, one), g2 = mv__synth_group(s, 1, two);
  chain_start(s);
  mv__synth_gsync(s, 1, 320, 330, "MPI_Win_post", 0, g2);
  mv__synth_gsync(s, 1, 340, 350, "MPI_Win_wait", 0, g2);
  mv__synth_gsync(s, 2, 160, 330, "MPI_Win_start", 0, g1);
  mv__synth_gsync(s, 2, 330, 340, "MPI_Win_complete", 0, g1);
  compute(s, 2, 340, 460, "tail");
  struct mv_analysis *a = close_and_analyze(s, dir);
  if (!a)
    return;
  EXPECT_TICKS(a,
      {"late_post", 2, "MPI_Win_start", 160},
      {"early_wait", -1, NULL, 0},
      {"delay_latepost", 1, "MPI_Recv", 10}, {"delay_latepost", -1, NULL, 10});
  check_chain_start(a, "delay_latepost_longterm");
  check_identity(a, "late_sender", "late_post");
  EXPECT_TICKS(a,
      {"critical_path", 2, "MPI_Win_start", 10}, {"critical_path", 2, "MPI_Win_complete", 10},
      {"critical_path", 2, "tail", 120}, {"critical_path", 1, "MPI_Recv", 10},
      /* tail: 120 on the path, average 120 / 3: imbalance 80 */
      {"critical_path_imbalance", -1, "tail", 80},
      {"mpi_wait_terminal", 2, NULL, 160},
      {"mpi_wait_indirect", 2, NULL, 150});
  mv_analysis_free(a);
}

/* Early Wait with Late Complete (patterns 4, 5): rank 2 exposes its window to rank 1 (post at 0)
 * and waits from 160; rank 1 starts at 0, puts [320,325] after its receive, computes gap
 * [325,330] and completes at 330: Early Wait 330 - 160 = 170, of which 330 - 325 = 5 is Late
 * Complete. Rank 1's interval [0,330]: prep 10, compute_a 150, MPI_Recv 10 (after its wait), put 5,
 * gap 5; rank 2's [0,160]: prep 10, compute_a 150 (post and start take no time). Delays 10 + 5 + 5,
 * W = 150, scale 1 / 170: short-term 10, 5, 5; 150 to rank 1's wait. Identity: 20 + 150 + 150 =
 * 320 = 150 + 170. */
static void test_early_wait(void)
{
  char dir[320];
  struct mv__synth *s = open_archive(dir, sizeof dir, 3, 1);
  int one[1] = {1}, two[1] = {2};
  uint32_t g1 = mv__synth_group(s, 1, one), g2 = mv__synth_group(s, 1, two);
  mv__synth_gsync(s, 2, 0, 0, "MPI_Win_post", 0, g1);
  mv__synth_gsync(s, 1, 0, 0, "MPI_Win_start", 0, g2);
  chain_start(s);
  mv__synth_rma(s, 1, 320, 325, "MPI_Put", 0, 2);
  compute(s, 1, 325, 330, "gap");
  mv__synth_gsync(s, 1, 330, 340, "MPI_Win_complete", 0, g2);
  mv__synth_gsync(s, 2, 160, 340, "MPI_Win_wait", 0, g1);
  compute(s, 2, 340, 460, "tail");
  struct mv_analysis *a = close_and_analyze(s, dir);
  if (!a)
    return;
  EXPECT_TICKS(a,
      {"early_wait", 2, "MPI_Win_wait", 170},
      {"late_complete", 2, "MPI_Win_wait", 5},
      {"late_post", -1, NULL, 0},
      {"delay_earlywait", 1, "MPI_Recv", 10}, {"delay_earlywait", 1, "MPI_Put", 5},
      {"delay_earlywait", 1, "gap", 5}, {"delay_earlywait", -1, NULL, 20});
  check_chain_start(a, "delay_earlywait_longterm");
  check_identity(a, "late_sender", "early_wait");
  /* path: rank 2 [330,460] (wait 10, tail 120), rank 1 [310,330] (MPI_Recv 10, put 5, gap 5) */
  EXPECT_TICKS(a,
      {"critical_path", 2, "MPI_Win_wait", 10}, {"critical_path", 1, "MPI_Put", 5},
      {"critical_path", 1, "gap", 5}, {"critical_path", 1, "MPI_Recv", 10});
  /* gap: 5 on the path, average 5 / 3 on the 3 locations: imbalance 10 / 3 */
  ASSERT_DOUBLE_NEAR(mv_analysis_value(a, "critical_path_imbalance", -1, "gap") * 1e9, 10.0 / 3, 0.5);
  mv_analysis_free(a);
}

/* Window collectives (Wait at Fence, Window Create, Window Free; op): rank 1 works after its
 * receive [320,340] and enters last, at 340; everybody leaves at 350. Rank 2 (entered 160) waits
 * 180: rank 1's interval [0,340] against rank 2's [0,160]: delays MPI_Recv 10, post_work 20,
 * W = 150, scale 1 / 180: short-term 10 and 20, 150 to rank 1's wait. Rank 0 (entered 320) waits
 * 20: both intervals start at their Late Sender (rank 0's send and rank 1's receive left at 320):
 * rank 1's post_work 20, scale 1 / 20: short-term 20. Identity: 50 + 150 + 150 = 350 =
 * 150 + 180 + 20. */
static void one_window_collective(const char *region, int op, const char *wait_key, const char *short_key,
                                  const char *long_key)
{
  char dir[320];
  struct mv__synth *s = open_archive(dir, sizeof dir, 3, 1);
  int create = op != OTF2_COLLECTIVE_OP_CREATE_HANDLE;
  for (int r = 0; create && r < 3; r++)
    mv__synth_rcoll(s, r, 0, 0, "MPI_Win_create", OTF2_COLLECTIVE_OP_CREATE_HANDLE, 0);
  chain_start(s);
  compute(s, 1, 320, 340, "post_work");
  static const uint64_t enter[3] = {320, 340, 160};
  for (int r = 0; r < 3; r++)
    mv__synth_rcoll(s, r, enter[r], 350, region, op, 0);
  compute(s, 2, 350, 460, "tail");
  struct mv_analysis *a = close_and_analyze(s, dir);
  if (!a)
    return;
  EXPECT_TICKS(a,
      {wait_key, 2, region, 180}, {wait_key, 0, region, 20}, {wait_key, 1, region, 0},
      {short_key, 1, "MPI_Recv", 10}, {short_key, 1, "post_work", 40}, {short_key, -1, NULL, 50});
  check_chain_start(a, long_key);
  check_identity(a, "late_sender", wait_key);
  /* path: rank 2 [340,460] (the collective 10, tail 110), rank 1 [310,340] */
  EXPECT_TICKS(a,
      {"critical_path", 2, region, 10}, {"critical_path", 2, "tail", 110},
      {"critical_path", 1, "post_work", 20}, {"critical_path", 1, "MPI_Recv", 10},
      {"critical_path", 0, region, 0});
  mv_analysis_free(a);
}

static void test_window_collectives(void)
{
  one_window_collective("MPI_Win_fence", OTF2_COLLECTIVE_OP_BARRIER, "wait_fence", "delay_fence",
                        "delay_fence_longterm");
  one_window_collective("MPI_Win_create", OTF2_COLLECTIVE_OP_CREATE_HANDLE, "wait_win_create", "delay_wincreate",
                        "delay_wincreate_longterm");
  one_window_collective("MPI_Win_free", OTF2_COLLECTIVE_OP_DESTROY_HANDLE, "wait_win_free", "delay_winfree",
                        "delay_winfree_longterm");
}

/* Rank 2 computes [0,100] and sends to rank 0, which has been receiving since 0: Late Sender 100
 * on rank 0, caused by rank 2's compute_a (rank 0's interval is empty). Rank 0 then locks its own
 * window [120,140] (exclusive), computes bar [140,RELEASE] and unlocks [RELEASE,RELEASE + 20].
 * Every rank created the window at 0. */
static void holder_start(struct mv__synth *s, uint64_t release)
{
  for (int r = 0; r < 3; r++)
    mv__synth_rcoll(s, r, 0, 0, "MPI_Win_create", OTF2_COLLECTIVE_OP_CREATE_HANDLE, 0);
  mv__synth_recv(s, 0, 0, 120, 2, 0);
  compute(s, 2, 0, 100, "compute_a");
  mv__synth_send(s, 2, 100, 110, 0, 0);
  compute(s, 2, 110, 200, "tail");
  mv__synth_lock(s, 0, 120, 140, 0, 0, 1);
  compute(s, 0, 140, release, "bar");
  mv__synth_unlock(s, 0, release, release + 20, 0, 0);
}

/* Rank 1 computes [0,LOCK], waits in its lock call [LOCK,GOT], accumulates 10 and unlocks 10,
 * then computes its tail up to 500. */
static void contender(struct mv__synth *s, uint64_t lock, uint64_t got)
{
  compute(s, 1, 0, lock, "compute_a");
  mv__synth_lock(s, 1, lock, got, 0, 0, 1);
  mv__synth_rma(s, 1, got, got + 10, "MPI_Accumulate", 0, 0);
  mv__synth_unlock(s, 1, got + 10, got + 20, 0, 0);
  compute(s, 1, got + 20, 500, "tail");
}

/* Lock Contention (pattern 7) with interval-delay costs: rank 0 holds the lock in bar [140,280]
 * and releases it in its unlock [280,300]; rank 1 computes [0,100] and waits in its lock call
 * [100,310]: 300 - 100 = 200. Pre-contention intervals: rank 0 (kappa+) [0,300]: MPI_Recv 120 - 100
 * waiting = 20, lock 20, bar 140, unlock 20 (sum d+ = 200), its waits 100; rank 1 (kappa-) [0,100]:
 * compute_a 100 (sum d- = 100 < 200). r = 100 / 200: short-term interval-delay costs
 * 200 x (1 - r) / 200 x d = 10, 10, 70, 10; 200 x r = 100 to rank 0's Late Sender, whose cost
 * goes to rank 2's compute_a as 100 long-term Lock Contention next to its 100 short-term Late
 * Sender. Identity: 100 + 100 + 100 = 300 = 100 + 200. Critical path: rank 1 ends last (500):
 * [300,500] (lock 10, accumulate 10, unlock 10, tail 170), rank 0 [100,300] up to the end of its
 * release, rank 2 [0,100]. */
static void test_lock_contention(void)
{
  char dir[320];
  struct mv__synth *s = open_archive(dir, sizeof dir, 3, 1);
  holder_start(s, 280);
  compute(s, 0, 300, 400, "tail");
  contender(s, 100, 310);
  struct mv_analysis *a = close_and_analyze(s, dir);
  if (!a)
    return;
  EXPECT_TICKS(a,
      {"lock_contention", 1, "MPI_Win_lock", 200},
      {"wait_for_progress", -1, NULL, 0},
      {"late_sender", 0, "MPI_Recv", 100},
      {"delay_lockcontention", 0, "MPI_Recv", 10}, {"delay_lockcontention", 0, "MPI_Win_lock", 10},
      {"delay_lockcontention", 0, "bar", 70}, {"delay_lockcontention", 0, "MPI_Win_unlock", 10},
      {"delay_lockcontention", -1, NULL, 100},
      {"delay_lockcontention_longterm", 2, "compute_a", 100},
      {"delay_lockcontention_longterm", -1, NULL, 100},
      {"delay_latesender", 2, "compute_a", 100});
  check_identity(a, "late_sender", "lock_contention");
  /* rank 1's wait: half explained by rank 0's wait (indirect), terminal; rank 0's propagating */
  EXPECT_TICKS(a,
      {"mpi_wait_indirect", 1, NULL, 100},
      {"mpi_wait_direct", 1, NULL, 100},
      {"mpi_wait_terminal", 1, NULL, 200},
      {"mpi_wait_propagating_ls", 0, NULL, 100},
      {"critical_path", -1, NULL, 500}, {"critical_path", 1, "MPI_Win_lock", 10},
      {"critical_path", 1, "tail", 170}, {"critical_path", 0, "bar", 140},
      {"critical_path", 0, "MPI_Win_unlock", 20}, {"critical_path", 0, "MPI_Recv", 20},
      {"critical_path", 0, "tail", 0}, {"critical_path", 2, "compute_a", 100});
  /* bar: 140 on the path, average 140 / 3: imbalance 280 / 3; compute_a: 100 on the path,
   * average (100 + 100) / 3: 100 / 3 */
  ASSERT_DOUBLE_NEAR(mv_analysis_value(a, "critical_path_imbalance", -1, "bar") * 1e9, 280.0 / 3, 0.5);
  ASSERT_DOUBLE_NEAR(mv_analysis_value(a, "critical_path_imbalance", -1, "compute_a") * 1e9, 100.0 / 3, 0.5);
  mv_analysis_free(a);
}

/* Wait for Progress (pattern 6): rank 0 releases its lock at 260, then computes foo [260,400]
 * outside MPI and enters MPI_Test [400,410]. Rank 1 computes [0,300] and locks [300,410]: the lock
 * is free but the target makes no progress until 400: 100 by both heuristics (one dependency).
 * Synchronization-based: rank 0's interval [0,400]: MPI_Recv 20 (after its 100 waiting), lock 20,
 * bar 100, unlock 20, foo 140 (sum d = 300; rank 1 has only compute_a, which rank 0 lacks),
 * W = 100, scale 1 / 400: short-term 5, 5, 25, 5, 35; 25 to rank 0's Late Sender, which goes to
 * rank 2's compute_a as 25 long-term Wait for Progress. Identity: 75 + 25 + 100 = 200. Critical
 * path: rank 1 [400,500], rank 0 [100,400], rank 2 [0,100]. */
static void test_wait_for_progress(void)
{
  char dir[320];
  struct mv__synth *s = open_archive(dir, sizeof dir, 3, 1);
  holder_start(s, 240);
  compute(s, 0, 260, 400, "foo");
  mv__synth_enter(s, 0, 400, "MPI_Test");
  mv__synth_leave(s, 0, 410, "MPI_Test");
  compute(s, 0, 410, 450, "tail");
  contender(s, 300, 410);
  struct mv_analysis *a = close_and_analyze(s, dir);
  if (!a)
    return;
  EXPECT_TICKS(a,
      {"wait_for_progress", 1, "MPI_Win_lock", 100},
      {"wait_for_progress_upper", 1, "MPI_Win_lock", 100},
      {"lock_contention", -1, NULL, 0},
      {"delay_waitforprogress", 0, "MPI_Recv", 5}, {"delay_waitforprogress", 0, "MPI_Win_lock", 5},
      {"delay_waitforprogress", 0, "bar", 25}, {"delay_waitforprogress", 0, "MPI_Win_unlock", 5},
      {"delay_waitforprogress", 0, "foo", 35}, {"delay_waitforprogress", -1, NULL, 75},
      {"delay_waitforprogress_longterm", 2, "compute_a", 25},
      {"delay_waitforprogress_longterm", -1, NULL, 25},
      {"delay_latesender", 2, "compute_a", 100});
  check_identity(a, "late_sender", "wait_for_progress");
  EXPECT_TICKS(a,
      {"critical_path", -1, NULL, 500}, {"critical_path", 1, "MPI_Win_lock", 10},
      {"critical_path", 1, "tail", 70}, {"critical_path", 0, "foo", 140}, {"critical_path", 0, "MPI_Test", 0},
      {"critical_path", 2, "compute_a", 100});
  /* foo: 140 on the path, on rank 0 only: imbalance 140 - 140 / 3 */
  ASSERT_DOUBLE_NEAR(mv_analysis_value(a, "critical_path_imbalance", -1, "foo") * 1e9, 280.0 / 3, 0.5);
  mv_analysis_free(a);
}

/* The critical path hands a Wait for Progress over when the target entered MPI, not at the
 * call's enter plus its no-overlap time. As test_wait_for_progress, but rank 0's MPI_Test is
 * [400,403], then it enters a barrier at 403; rank 1 locks [300,410], accumulates [410,420],
 * unlocks [420,430] and enters the barrier at 430; rank 2 [200,450]; all leave at 450. Wait for
 * Progress: no-overlap [300,400] = 100 (algorithm 1 stops at the target's progress call: the lock
 * call's [403,410] after it is not waiting for progress; counting it gave 107, above the last-call
 * upper bound), last-call 400 - 300 = 100. Barrier: rank 0
 * waits 430 - 403 = 27, rank 2 230. Critical path from rank 0 (450): its barrier [430,450] 20,
 * at its wait to rank 1 (430): [400,430] (lock 10, accumulate 10, unlock 10), at its Wait for
 * Progress to rank 0 at 400: [100,400] (MPI_Recv 20, lock 20, bar 100, unlock 20, foo 140), at
 * its Late Sender to rank 2 at 100: compute_a [0,100]; 450 in all. Handing over at 407 (the
 * call's enter plus the no-overlap time with the old tail) would meet rank 0 inside its barrier
 * wait (403 to 430), which hands back to rank 1 at 407: a cycle that lost the path before 407
 * (mpivet 0.22 ended it there). */
static void test_progress_handover(void)
{
  char dir[320];
  struct mv__synth *s = open_archive(dir, sizeof dir, 3, 1);
  holder_start(s, 240);
  compute(s, 0, 260, 400, "foo");
  mv__synth_enter(s, 0, 400, "MPI_Test");
  mv__synth_leave(s, 0, 403, "MPI_Test");
  mv__synth_coll(s, 0, 403, 450, "MPI_Barrier", OTF2_COLLECTIVE_OP_BARRIER, -1);
  compute(s, 1, 0, 300, "compute_a");
  mv__synth_lock(s, 1, 300, 410, 0, 0, 1);
  mv__synth_rma(s, 1, 410, 420, "MPI_Accumulate", 0, 0);
  mv__synth_unlock(s, 1, 420, 430, 0, 0);
  mv__synth_coll(s, 1, 430, 450, "MPI_Barrier", OTF2_COLLECTIVE_OP_BARRIER, -1);
  mv__synth_coll(s, 2, 200, 450, "MPI_Barrier", OTF2_COLLECTIVE_OP_BARRIER, -1);
  struct mv_analysis *a = close_and_analyze(s, dir);
  if (!a)
    return;
  EXPECT_TICKS(a,
      {"wait_for_progress", 1, "MPI_Win_lock", 100}, {"wait_for_progress_upper", 1, "MPI_Win_lock", 100},
      {"wait_barrier", 0, NULL, 27}, {"wait_barrier", 2, NULL, 230}, {"late_sender", 0, NULL, 100},
      {"critical_path", -1, NULL, 450}, {"critical_path", 0, "MPI_Barrier", 20},
      {"critical_path", 1, "MPI_Win_lock", 10}, {"critical_path", 1, "MPI_Accumulate", 10},
      {"critical_path", 1, "MPI_Win_unlock", 10}, {"critical_path", 0, "MPI_Test", 0},
      {"critical_path", 0, "foo", 140}, {"critical_path", 0, "bar", 100}, {"critical_path", 0, "MPI_Recv", 20},
      {"critical_path", 2, "compute_a", 100});
  double delay = mv_analysis_value(a, "delay", -1, NULL);
  ASSERT_DOUBLE_NEAR(delay, mv_analysis_explained(a), 1e-9 * delay);
  mv_analysis_free(a);
}

int main(void)
{
  if (fixture_begin("rma-rootcause", 'o'))
    return 1;
  RUN_TEST(test_late_post);
  RUN_TEST(test_early_wait);
  RUN_TEST(test_window_collectives);
  RUN_TEST(test_lock_contention);
  RUN_TEST(test_wait_for_progress);
  RUN_TEST(test_progress_handover);
  fixture_end();
  return TEST_EXIT();
}
