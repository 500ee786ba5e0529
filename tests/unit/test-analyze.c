/* Truth tests of the wait-state analyzer on synthetic OTF2 archives with exact timestamps (ns).
 * Every expected value is worked out by hand from the pattern definitions of the thesis
 * (rma-wait-states-thesis.txt, eq. 2.1/2.2 and wait-state patterns 1-7) in the comments. */
#include <otf2/OTF2_Events.h>
#include <stdlib.h>
#include <unistd.h>

#include "analyze/internal.h"
#include "mpivet/analyze.h"
#include "analyze-fixture.h"
#include "test.h"

static void test_late_sender_receiver(void)
{
  char dir[320];
  struct mv__synth *s = open_archive(dir, sizeof dir, 2, 0);
  mv__synth_enter(s, 0, 0, "main");
  mv__synth_send(s, 0, 500, 510, 1, 7);   /* receiver waits from 100: Late Sender 400 */
  mv__synth_send(s, 0, 600, 800, 1, 7);   /* blocks until the receive at 700: Late Receiver 100 */
  mv__synth_send(s, 0, 850, 860, 1, 7);   /* eager: returns before the receive, no wait */
  mv__synth_leave(s, 0, 1000, "main");
  mv__synth_enter(s, 1, 0, "main");
  mv__synth_recv(s, 1, 100, 520, 0, 7);
  mv__synth_recv(s, 1, 700, 800, 0, 7);
  mv__synth_recv(s, 1, 900, 910, 0, 7);
  mv__synth_leave(s, 1, 1000, "main");
  struct mv_analysis *a = close_and_analyze(s, dir);
  if (!a)
    return;
  EXPECT_TICKS(a,
      {"late_sender", 1, "MPI_Recv", 400}, {"late_sender", 0, NULL, 0},
      {"late_receiver", 0, "MPI_Send", 100}, {"late_receiver", 1, NULL, 0});
  ASSERT_DOUBLE_NEAR(mv_analysis_value(a, "late_sender", -1, NULL), 400e-9, 1e-15);
  /* time: 1000 ns per rank; MPI: rank 0 10+200+10, rank 1 420+100+10 */
  EXPECT_TICKS(a,
      {"time", -1, NULL, 2000},
      {"mpi", -1, NULL, 750},
      {"mpi_p2p", -1, NULL, 750});
  ASSERT_INT_EQ(mv_analysis_partial(a, NULL), 0);
  mv_analysis_free(a);
}

static void test_wrong_order_and_waitall(void)
{
  char dir[320];
  struct mv__synth *s = open_archive(dir, sizeof dir, 3, 0);
  mv__synth_send(s, 0, 100, 110, 2, 1);   /* ready at 110, received only at 530 */
  mv__synth_isend(s, 0, 650, 660, 2, 5);
  mv__synth_send(s, 1, 500, 510, 2, 2);   /* the one rank 2 waits for from 200: 300, wrong order */
  mv__synth_isend(s, 1, 800, 810, 2, 6);
  mv__synth_recv(s, 2, 200, 520, 1, 2);
  mv__synth_recv(s, 2, 530, 540, 0, 1);   /* no wait */
  /* waitall from 600 for sends entered at 650 and 800: the latest sender, 200, in order */
  int srcs[2] = {0, 1}, tags[2] = {5, 6};
  mv__synth_waitall(s, 2, 600, 900, 2, srcs, tags);
  struct mv_analysis *a = close_and_analyze(s, dir);
  if (!a)
    return;
  EXPECT_TICKS(a,
      {"late_sender_wrong_order", 2, "MPI_Recv", 300},
      {"late_sender", 2, "MPI_Recv", 300},   /* inclusive of wrong order */
      {"late_sender", 2, "MPI_Waitall", 200},
      {"late_sender_wrong_order", 2, "MPI_Waitall", 0},
      {"late_receiver", -1, NULL, 0});   /* no send blocked past the receive */
  mv_analysis_free(a);
}

/* MPI_Sendrecv between ranks 0 and 1: rank 0 [100,300], rank 1 [250,300]. Rank 0's receive
 * waits for rank 1's send: Late Sender 250 - 100 = 150. Its send is no Late Receiver (Scalasca's
 * is_mpi_block_send: MPI_Send and MPI_Ssend only), or the call's one wait of 150 would count
 * twice, 300 in a call of 200 (NWChem's Sendrecvs had negative point-to-point time). */
static void test_sendrecv(void)
{
  char dir[320];
  struct mv__synth *s = open_archive(dir, sizeof dir, 2, 0);
  mv__synth_sendrecv(s, 0, 100, 300, 1, 0);
  mv__synth_sendrecv(s, 1, 250, 300, 0, 0);
  struct mv_analysis *a = close_and_analyze(s, dir);
  if (!a)
    return;
  EXPECT_TICKS(a,
      {"late_sender", 0, "MPI_Sendrecv", 150}, {"late_sender", 1, NULL, 0},
      {"late_receiver", -1, NULL, 0},
      {"mpi_p2p", -1, NULL, 200 + 50});   /* inclusive: the calls' time, waits within it */
  mv_analysis_free(a);
}

static void test_collectives(void)
{
  char dir[320];
  struct mv__synth *s = open_archive(dir, sizeof dir, 4, 0);
  for (int r = 0; r < 4; r++) {
    static const uint64_t bar[4] = {100, 200, 300, 400}, nxn[4] = {500, 500, 500, 700};
    static const uint64_t bc[4] = {800, 900, 850, 950}, red[4] = {1100, 1200, 1300, 1250};
    mv__synth_coll(s, r, bar[r], 450, "MPI_Barrier", OTF2_COLLECTIVE_OP_BARRIER, -1);
    mv__synth_coll(s, r, nxn[r], 750, "MPI_Allreduce", OTF2_COLLECTIVE_OP_ALLREDUCE, -1);
    mv__synth_coll(s, r, bc[r], 1000, "MPI_Bcast", OTF2_COLLECTIVE_OP_BCAST, 1);
    mv__synth_coll(s, r, red[r], 1400, "MPI_Reduce", OTF2_COLLECTIVE_OP_REDUCE, 0);
  }
  struct mv_analysis *a = close_and_analyze(s, dir);
  if (!a)
    return;
  /* barrier: last enter 400 -> 300, 200, 100, 0 */
  EXPECT_TICKS(a,
      {"wait_barrier", 0, "MPI_Barrier", 300}, {"wait_barrier", 2, NULL, 100},
      {"wait_barrier", -1, NULL, 600},
      /* allreduce: last enter 700 -> 200 on ranks 0-2 */
      {"wait_nxn", -1, "MPI_Allreduce", 600}, {"wait_nxn", 3, NULL, 0},
      /* bcast from rank 1 entering at 900: rank 0 waits 100, rank 2 50, rank 3 entered later */
      {"late_broadcast", 0, NULL, 100}, {"late_broadcast", -1, "MPI_Bcast", 150},
      /* reduce to rank 0 entering at 1100; first sender enters at 1200 */
      {"early_reduce", 0, "MPI_Reduce", 100}, {"early_reduce", -1, NULL, 100});
  /* call durations: barrier 350+250+150+50, allreduce 3*250+50, bcast 200+100+150+50,
   * reduce 300+200+100+150 */
  ASSERT_INT_EQ(TICKS(a, "mpi_collective", -1, NULL), 800 + 800 + 500 + 750);
  mv_analysis_free(a);
}

static void test_fence(void)
{
  char dir[320];
  struct mv__synth *s = open_archive(dir, sizeof dir, 3, 1);
  static const uint64_t create[3] = {0, 50, 80}, close_fence[3] = {250, 500, 350}, freeing[3] = {600, 700, 650};
  for (int r = 0; r < 3; r++) {
    mv__synth_rcoll(s, r, create[r], 100, "MPI_Win_create", OTF2_COLLECTIVE_OP_CREATE_HANDLE, 0);
    mv__synth_rcoll(s, r, 200, 210, "MPI_Win_fence", OTF2_COLLECTIVE_OP_BARRIER, 0);
    if (r == 1)
      mv__synth_rma(s, 1, 400, 450, "MPI_Put", 0, 0);
    if (r == 2)
      mv__synth_rma(s, 2, 300, 320, "MPI_Put", 0, 0);
    mv__synth_rcoll(s, r, close_fence[r], 510, "MPI_Win_fence", OTF2_COLLECTIVE_OP_BARRIER, 0);
    mv__synth_rcoll(s, r, freeing[r], 710, "MPI_Win_free", OTF2_COLLECTIVE_OP_DESTROY_HANDLE, 0);
  }
  struct mv_analysis *a = close_and_analyze(s, dir);
  if (!a)
    return;
  /* create: all inside at 80 < 100 (synchronizing): 80 + 30 + 0 */
  ASSERT_INT_EQ(TICKS(a, "wait_win_create", -1, "MPI_Win_create"), 110);
  /* closing fence, last enter 500: 250 + 0 + 150; rank 0's last incoming put ends at 450,
   * so 200 of its 250 is Early Fence (pattern 2) */
  EXPECT_TICKS(a,
      {"wait_fence", -1, "MPI_Win_fence", 400}, {"wait_fence", 0, NULL, 250},
      {"early_fence", 0, NULL, 200}, {"early_fence", 2, NULL, 0},
      {"wait_win_free", -1, "MPI_Win_free", 150});
  /* pairs: 2 fences x 3 ranks x 2 partners = 12; the opening fence's 6 are unneeded, the
   * closing fence needs 0<->1 and 0<->2: ranks 1 and 2 each synchronized once in vain */
  EXPECT_TICKS(a,
      {"rma_pairwise_sync", -1, NULL, 12},
      {"rma_pairwise_sync_unneeded", -1, NULL, 8}, {"rma_pairwise_sync_unneeded", 0, NULL, 2});
  mv_analysis_free(a);
}

/* An ideal network (SMPI with zero latency) releases every member of a fence at the very tick
 * the last one enters: max E = min L still counts as synchronizing (fig. 3.16's common time
 * span shrinks to one instant). A later enter than the first leave does not synchronize. */
static void test_fence_instant(void)
{
  char dir[320];
  struct mv__synth *s = open_archive(dir, sizeof dir, 2, 1);
  static const uint64_t enter[2] = {0, 150}, free_enter[2] = {300, 200}, free_leave[2] = {310, 250};
  for (int r = 0; r < 2; r++) {
    mv__synth_rcoll(s, r, 0, 0, "MPI_Win_create", OTF2_COLLECTIVE_OP_CREATE_HANDLE, 0);
    mv__synth_rcoll(s, r, enter[r], 150, "MPI_Win_fence", OTF2_COLLECTIVE_OP_BARRIER, 0);
    mv__synth_rcoll(s, r, free_enter[r], free_leave[r], "MPI_Win_free", OTF2_COLLECTIVE_OP_DESTROY_HANDLE, 0);
  }
  struct mv_analysis *a = close_and_analyze(s, dir);
  if (!a)
    return;
  /* fence: max E 150 = min L 150: rank 0 waited 150 - 0 */
  EXPECT_TICKS(a,
      {"wait_fence", 0, "MPI_Win_fence", 150}, {"wait_fence", 1, NULL, 0},
      /* free: rank 1 left at 250 before rank 0 entered at 300: not synchronizing, no wait */
      {"wait_win_free", -1, NULL, 0});
  mv_analysis_free(a);
}

static void test_late_post(void)
{
  char dir[320];
  struct mv__synth *s = open_archive(dir, sizeof dir, 3, 1);
  int origins[2] = {1, 2}, target[1] = {0};
  uint32_t go = mv__synth_group(s, 2, origins), gt = mv__synth_group(s, 1, target);
  mv__synth_gsync(s, 0, 500, 510, "MPI_Win_post", 0, go);
  mv__synth_gsync(s, 0, 600, 700, "MPI_Win_wait", 0, go);
  mv__synth_gsync(s, 1, 100, 520, "MPI_Win_start", 0, gt);   /* blocks in start: 400 */
  mv__synth_rma(s, 1, 530, 540, "MPI_Put", 0, 0);
  mv__synth_gsync(s, 1, 550, 560, "MPI_Win_complete", 0, gt);
  mv__synth_gsync(s, 2, 100, 110, "MPI_Win_start", 0, gt);
  mv__synth_rma(s, 2, 120, 505, "MPI_Put", 0, 0);            /* blocks in the put: 380 */
  mv__synth_gsync(s, 2, 580, 590, "MPI_Win_complete", 0, gt);
  struct mv_analysis *a = close_and_analyze(s, dir);
  if (!a)
    return;
  EXPECT_TICKS(a,
      {"late_post", 1, "MPI_Win_start", 400},
      {"late_post_comm", 2, "MPI_Put", 380},
      {"late_post", 2, NULL, 0},
      /* the last complete (580) comes before the wait (600): no Early Wait */
      {"early_wait", -1, NULL, 0},
      {"rma_pairwise_sync", -1, NULL, 4},
      {"rma_pairwise_sync_unneeded", -1, NULL, 0});
  mv_analysis_free(a);
}

static void test_early_wait(void)
{
  char dir[320];
  struct mv__synth *s = open_archive(dir, sizeof dir, 2, 1);
  int o[1] = {1}, t[1] = {0};
  uint32_t go = mv__synth_group(s, 1, o), gt = mv__synth_group(s, 1, t);
  mv__synth_gsync(s, 0, 0, 10, "MPI_Win_post", 0, go);
  mv__synth_gsync(s, 0, 20, 500, "MPI_Win_wait", 0, go);
  mv__synth_gsync(s, 1, 5, 15, "MPI_Win_start", 0, gt);
  mv__synth_rma(s, 1, 30, 40, "MPI_Put", 0, 0);
  mv__synth_rma(s, 1, 50, 60, "MPI_Get", 0, 0);
  mv__synth_gsync(s, 1, 400, 410, "MPI_Win_complete", 0, gt);
  /* second epoch without operations */
  mv__synth_gsync(s, 0, 600, 610, "MPI_Win_post", 0, go);
  mv__synth_gsync(s, 0, 620, 700, "MPI_Win_wait", 0, go);
  mv__synth_gsync(s, 1, 605, 615, "MPI_Win_start", 0, gt);
  mv__synth_gsync(s, 1, 650, 660, "MPI_Win_complete", 0, gt);
  struct mv_analysis *a = close_and_analyze(s, dir);
  if (!a)
    return;
  /* epoch 1: complete enters at 400, wait at 20: 380, of which 400 - max(20, 60) = 340 is
   * Late Complete (pattern 5); epoch 2: 650 - 620 = 30, no operation so no Late Complete */
  EXPECT_TICKS(a,
      {"early_wait", 0, "MPI_Win_wait", 410},
      {"late_complete", 0, "MPI_Win_wait", 340},
      {"early_wait", 1, NULL, 0},
      {"rma_pairwise_sync", -1, NULL, 4},
      {"rma_pairwise_sync_unneeded", -1, NULL, 2});
  mv_analysis_free(a);
}

/* Thesis section 5.6: rank 0 holds its own exclusive lock in bar() from 1010 to 3020, then
 * computes foo() until 3120 without calling MPI; ranks 1-3 queue behind it. */
static void test_lock_chain(void)
{
  char dir[320];
  struct mv__synth *s = open_archive(dir, sizeof dir, 4, 1);
  static const uint64_t release[4] = {3020, 3050, 3130, 3150}, barrier[4] = {3120, 3060, 3140, 3160};
  for (int r = 0; r < 4; r++) {
    mv__synth_rcoll(s, r, 0, 100, "MPI_Win_allocate", OTF2_COLLECTIVE_OP_CREATE_HANDLE_AND_ALLOCATE, 0);
    uint64_t t = 1000 + 100 * (uint64_t)r;
    mv__synth_lock(s, r, t, t + 10, 0, 0, 1);
    if (r == 0) {
      mv__synth_enter(s, 0, 1010, "bar");
      mv__synth_leave(s, 0, 3010, "bar");
      mv__synth_unlock(s, 0, 3010, 3020, 0, 0);
      mv__synth_enter(s, 0, 3020, "foo");
      mv__synth_leave(s, 0, 3120, "foo");
    } else {
      mv__synth_rma(s, r, t + 10, t + 20, "MPI_Accumulate", 0, 0);
      mv__synth_unlock(s, r, t + 20, release[r], 0, 0);
    }
    mv__synth_coll(s, r, barrier[r], 4000, "MPI_Barrier", OTF2_COLLECTIVE_OP_BARRIER, -1);
    mv__synth_rcoll(s, r, 4000, 4100, "MPI_Win_free", OTF2_COLLECTIVE_OP_DESTROY_HANDLE_AND_DEALLOCATE, 0);
  }
  struct mv_analysis *a = close_and_analyze(s, dir);
  if (!a)
    return;
  /* rank 1: lock free at 3020 while rank 0 is still in MPI_Win_unlock: 3020 - 1120 contention */
  ASSERT_INT_EQ(TICKS(a, "lock_contention", 1, "MPI_Win_unlock"), 1900);
  /* rank 2: free at 3050 but rank 0 computes until it enters the barrier at 3120: progress is
   * the last factor, 3120 - 1220 by both heuristics (a single remote activity) */
  EXPECT_TICKS(a,
      {"lock_contention", 2, NULL, 0},
      {"wait_for_progress", 2, "MPI_Win_unlock", 1900},
      {"wait_for_progress_upper", 2, "MPI_Win_unlock", 1900},
      /* rank 3: free at 3130, rank 0 in the barrier already: contention 3130 - 1320 */
      {"lock_contention", 3, NULL, 1810},
      {"wait_for_progress", 3, NULL, 0},
      {"lock_contention", 0, NULL, 0},
      /* barrier: last enter 3160 */
      {"wait_barrier", -1, NULL, 40 + 100 + 20});
  mv_analysis_free(a);
}

/* Thesis 5.6 with blocking locks and unlocks acknowledged at the target (as MPICH does, see
 * docs/analyze.md "Lock chain under MPICH"): rank 0 holds its lock in bar() [1010, 3010],
 * unlocks [3010, 3020], works outside MPI until its barrier at 3120. Per rank r: lock, an
 * accumulate from lock leave to unlock enter (+10), unlock, barrier from the unlock leave. */
static struct mv_analysis *blocking_chain(int n, const uint64_t (*ep)[4])
{
  char dir[320];
  struct mv__synth *s = open_archive(dir, sizeof dir, n, 1);
  for (int r = 0; r < n; r++) {
    mv__synth_rcoll(s, r, 0, 100, "MPI_Win_allocate", OTF2_COLLECTIVE_OP_CREATE_HANDLE_AND_ALLOCATE, 0);
    mv__synth_lock(s, r, ep[r][0], ep[r][1], 0, 0, 1);
    if (r == 0) {
      mv__synth_enter(s, 0, 1010, "bar");
      mv__synth_leave(s, 0, 3010, "bar");
    } else {
      mv__synth_rma(s, r, ep[r][1], ep[r][1] + 10, "MPI_Accumulate", 0, 0);
    }
    mv__synth_unlock(s, r, ep[r][2], ep[r][3], 0, 0);
    uint64_t b = ep[r][3];
    if (r == 0) {
      mv__synth_enter(s, 0, 3020, "foo");
      mv__synth_leave(s, 0, 3120, "foo");
      b = 3120;
    }
    mv__synth_coll(s, r, b, 4000, "MPI_Barrier", OTF2_COLLECTIVE_OP_BARRIER, -1);
    mv__synth_rcoll(s, r, 4000, 4100, "MPI_Win_free", OTF2_COLLECTIVE_OP_DESTROY_HANDLE_AND_DEALLOCATE, 0);
  }
  ASSERT_INT_EQ(mv__synth_close(s), 0);
  return analyze(dir);
}

/* Pattern 6 in the unlock of a contended epoch: rank 1 gets the lock in its lock call at 3030
 * and its unlock [3040, 3125] waits for rank 0, outside MPI from 3020 to 3120. Rank 2 is
 * granted at 3130, after rank 1's release: releases are in chain order here. */
static void test_lock_unlock_progress(void)
{
  static const uint64_t ep[3][4] = {{1000, 1010, 3010, 3020}, {1100, 3030, 3040, 3125}, {1200, 3130, 3140, 3145}};
  struct mv_analysis *a = blocking_chain(3, ep);
  ASSERT_TRUE(a != NULL);
  if (!a)
    return;
  /* rank 1: lock call [1100, 3030], handed over at rank 0's release 3020, rank 0 in its unlock
   * then: contention 3020 - 1100. Its unlock from 3040: rank 0 out of MPI, enters the barrier at
   * 3120 < 3125: 3120 - 3040 by both heuristics (one dependency). */
  EXPECT_TICKS(a,
      {"lock_contention", 1, "MPI_Win_lock", 1920},
      {"wait_for_progress", 1, "MPI_Win_unlock", 80},
      {"wait_for_progress_upper", 1, "MPI_Win_unlock", 80},
      {"wait_for_progress", 1, "MPI_Win_lock", 0});
  /* rank 2: lock call [1200, 3130]; the lock is free from rank 1's unlock enter 3040 on, rank 0
   * outside MPI then and entering it at 3120 inside the call: progress is the last factor,
   * 3120 - 1200 (as rank 2 in the thesis), no contention */
  EXPECT_TICKS(a,
      {"wait_for_progress", 2, "MPI_Win_lock", 1920},
      {"wait_for_progress_upper", 2, "MPI_Win_lock", 1920},
      {"lock_contention", 2, NULL, 0});
  ASSERT_INT_EQ(TICKS(a, "lock_contention", 0, NULL) + TICKS(a, "wait_for_progress", 0, NULL), 0);
  mv_analysis_free(a);
}

/* Hand-over order differs from release order: rank 1 (granted 3030) leaves its unlock only at
 * 3200, after ranks 2 (granted 3150) and 3 (granted 3180) released (3170, 3195). Ordered by
 * unlock leave the chain would be 0, 2, 3, 1 (rank 1: 3195 - 3040 = 155 contention in its
 * unlock, rank 2: 3020 - 1200 = 1820, no progress wait); by grant it is 0, 1, 2, 3. */
static void test_lock_handover_order(void)
{
  static const uint64_t ep[4][4] = {
    {1000, 1010, 3010, 3020}, {1100, 3030, 3040, 3200}, {1200, 3150, 3160, 3170}, {1300, 3180, 3190, 3195}};
  struct mv_analysis *a = blocking_chain(4, ep);
  ASSERT_TRUE(a != NULL);
  if (!a)
    return;
  /* rank 1: contention 3020 - 1100 in the lock; unlock [3040, 3200]: 3120 - 3040 progress */
  EXPECT_TICKS(a,
      {"lock_contention", 1, NULL, 1920},
      {"wait_for_progress", 1, "MPI_Win_unlock", 80},
      /* rank 2: free from 3040 (rank 1's unlock enter), rank 0 enters MPI at 3120: 3120 - 1200 */
      {"wait_for_progress", 2, "MPI_Win_lock", 1920},
      {"wait_for_progress_upper", 2, NULL, 1920},
      {"lock_contention", 2, NULL, 0});
  /* rank 3: free from rank 2's unlock enter 3160, rank 0 in its barrier: handed over at rank
   * 2's release 3170 (before rank 3's grant 3180): contention 3170 - 1300 */
  EXPECT_TICKS(a,
      {"lock_contention", 3, "MPI_Win_lock", 1870},
      {"wait_for_progress", 3, NULL, 0},
      {"wait_for_progress_upper", -1, NULL, 80 + 1920});
  mv_analysis_free(a);
}

/* Clock condition violation, as caught under MPICH (docs/analyze.md, "Lock chain under MPICH"):
 * rank 1's clock is 5 ns behind, so its blocking lock [1100, 3005] seems to return before rank
 * 0 even entered the unlock that releases it (3010). Taking its accumulate [3005, 3015] as the
 * grant call gave 10 of contention and no progress wait ("almost no wait"). The lock call was
 * blocked until the hand-over (gap 5 < its 1905): it is the grant call, and rank 1's events
 * from its leave move by 5 (accumulate [3010, 3020], unlock [3022, 3132]). test_lock_chain
 * keeps deferred locks (10 long, ending 1900 before the lock is free) as they were. */
static void test_lock_clock_skew(void)
{
  static const uint64_t ep[3][4] = {{1000, 1010, 3010, 3020}, {1100, 3005, 3017, 3127}, {1200, 3135, 3145, 3150}};
  struct mv_analysis *a = blocking_chain(3, ep);
  ASSERT_TRUE(a != NULL);
  if (!a)
    return;
  /* rank 1: handed over at 3010, rank 0 in its unlock [3010, 3020]: contention 3010 - 1100 */
  EXPECT_TICKS(a,
      {"lock_contention", 1, "MPI_Win_lock", 1910}, {"lock_contention", 1, NULL, 1910},
      /* its unlock [3022, 3132]: rank 0 out of MPI from 3020, in the barrier from 3120: 98 */
      {"wait_for_progress", 1, "MPI_Win_unlock", 98},
      {"wait_for_progress_upper", 1, NULL, 98},
      /* rank 2: free from rank 1's corrected unlock enter 3022, rank 0 out of MPI until 3120 */
      {"wait_for_progress", 2, "MPI_Win_lock", 3120 - 1200},
      {"lock_contention", 2, NULL, 0});
  mv_analysis_free(a);
}

/* Two call sites of MPI_Recv (tracer attribute) are two call paths, labelled from callsites.txt;
 * the 400 ns wait belongs to the first only. */
static void test_call_sites(void)
{
  char dir[320], path[400];
  struct mv__synth *s = open_archive(dir, sizeof dir, 2, 0);
  mv__synth_send(s, 0, 500, 510, 1, 7);
  mv__synth_send(s, 0, 600, 610, 1, 7);
  mv__synth_site(s, 0xabc);
  mv__synth_recv(s, 1, 100, 520, 0, 7);
  mv__synth_site(s, 0xdef);
  mv__synth_recv(s, 1, 700, 710, 0, 7);
  ASSERT_INT_EQ(mv__synth_close(s), 0);
  snprintf(path, sizeof path, "%s/callsites.txt", dir);
  FILE *f = fopen(path, "w");
  if (f) {
    fputs("# mpivet::callsite hash, then module+offset(symbol) of each return address\n"
          "0000000000000abc prog+0x10(exchange)\n", f);
    fclose(f);
  }
  struct mv_analysis *a = analyze(dir);
  ASSERT_TRUE(a != NULL);
  if (!a)
    return;
  char *text = NULL;
  size_t len = 0;
  FILE *mem = open_memstream(&text, &len);
  ASSERT_INT_EQ(mv_analysis_write_json(a, mem), 0);
  fclose(mem);
  ASSERT_TRUE(text && strstr(text, "\"path\": \"MPI_Recv@prog+0x10(exchange)\""));
  ASSERT_TRUE(text && strstr(text, "\"path\": \"MPI_Recv@0000000000000def\""));
  free(text);
  ASSERT_INT_EQ(TICKS(a, "late_sender", 1, "MPI_Recv"), 400);
  mv_analysis_free(a);
}

/* A rank's event file cut in the middle: a partial analysis that says so, or an error value;
 * an anchor that is not OTF2: an error. */
static void test_truncated(void)
{
  char dir[320], path[400];
  struct mv__synth *s = open_archive(dir, sizeof dir, 2, 0);
  for (int i = 0; i < 200; i++) {
    uint64_t t = 1000 * (uint64_t)i;
    mv__synth_enter(s, 0, t, "main");
    mv__synth_send(s, 0, t + 500, t + 510, 1, 7);
    mv__synth_leave(s, 0, t + 900, "main");
    mv__synth_enter(s, 1, t, "main");
    mv__synth_recv(s, 1, t + 100, t + 520, 0, 7);
    mv__synth_leave(s, 1, t + 900, "main");
  }
  ASSERT_INT_EQ(mv__synth_close(s), 0);
  snprintf(path, sizeof path, "%s/traces/1.evt", dir);
  ASSERT_INT_EQ(truncate(path, 1500), 0);
  struct mv_analysis *a = analyze(dir);
  ASSERT_TRUE(a != NULL);
  if (a) {
    const char *note = NULL;
    ASSERT_INT_EQ(mv_analysis_partial(a, &note), 1);
    ASSERT_TRUE(note && note[0]);
    /* what was read is analyzed: some, not all, of the 200 late receives of 400 ns */
    int64_t ls = TICKS(a, "late_sender", 1, NULL);
    ASSERT_TRUE(ls > 0 && ls < 200 * 400);
    mv_analysis_free(a);
  }
  snprintf(path, sizeof path, "%s/traces.otf2", dir);
  FILE *f = fopen(path, "w");
  if (f) {
    fputs("not an archive", f);
    fclose(f);
  }
  struct mv_error err;
  struct mv_analysis *b = NULL;
  ASSERT_TRUE(mv_analyze_trace(path, NULL, &b, &err) < 0);
  ASSERT_TRUE(b == NULL && strstr(mv_test_errtext(&err), "not an OTF2") != NULL);
}

static void test_no_overlap(void)
{
  /* Algorithm 1 of the thesis (section 3.3, worked by hand): local [0,100), remote [10,30)
   * [20,50) [70,80): t_ref 0 -> +10 (0 to 10), t_ref 30, 50; +20 (50 to 70), t_ref 80; the loop
   * ends: 30. The time after the last remote leave (80 to 100) is not waiting for progress: the
   * lower bound stays at most the last-call upper bound E(last) - E(local) = 70 (it was 50 with
   * that tail, more than the upper bound in test_progress_handover: 107 against 100). */
  uint64_t e[3] = {10, 20, 70}, l[3] = {30, 50, 80};
  ASSERT_INT_EQ(mv__no_overlap(0, 100, e, l, 3), 30);
  ASSERT_INT_EQ(mv__no_overlap(0, 100, e, l, 0), 0);
  uint64_t e1[1] = {40}, l1[1] = {200};
  ASSERT_INT_EQ(mv__no_overlap(0, 100, e1, l1, 1), 40);
  /* the remote activity starts after the local one ended: capped at the local leave */
  uint64_t e2[1] = {150}, l2[1] = {160};
  ASSERT_INT_EQ(mv__no_overlap(0, 100, e2, l2, 1), 100);
  /* one remote activity inside: [20,30) of local [0,100): 20, equal to last-call 20 - 0 */
  uint64_t e3[1] = {20}, l3[1] = {30};
  ASSERT_INT_EQ(mv__no_overlap(0, 100, e3, l3, 1), 20);
}

/* MPI-IO regions (MPI_File_*) are their own category, File I/O, not generic MPI time: 2 ranks,
 * each a write of 300 (rank 0) or 200 ticks (rank 1) inside user code, and an MPI_Init of 50. */
static void test_file_io(void)
{
  char dir[320];
  struct mv__synth *s = open_archive(dir, sizeof dir, 2, 0);
  for (int r = 0; r < 2; r++) {
    mv__synth_enter(s, r, 0, "main");
    mv__synth_enter(s, r, 10, "MPI_Init");
    mv__synth_leave(s, r, 60, "MPI_Init");
    mv__synth_enter(s, r, 100, "MPI_File_write_at");
    mv__synth_leave(s, r, r == 0 ? 400 : 300, "MPI_File_write_at");
    mv__synth_leave(s, r, 1000, "main");
  }
  struct mv_analysis *a = close_and_analyze(s, dir);
  if (!a)
    return;
  EXPECT_TICKS(a,
      {"mpi_io", 0, "MPI_File_write_at", 300}, {"mpi_io", -1, NULL, 500},
      {"mpi_p2p", -1, NULL, 0},
      {"mpi", -1, "MPI_Init", 100});  /* own MPI time: Init only */
  mv_analysis_free(a);
}

int main(void)
{
  if (fixture_begin("analyze", 'a'))
    return 1;
  RUN_TEST(test_late_sender_receiver);
  RUN_TEST(test_wrong_order_and_waitall);
  RUN_TEST(test_sendrecv);
  RUN_TEST(test_collectives);
  RUN_TEST(test_fence);
  RUN_TEST(test_fence_instant);
  RUN_TEST(test_late_post);
  RUN_TEST(test_early_wait);
  RUN_TEST(test_lock_chain);
  RUN_TEST(test_lock_unlock_progress);
  RUN_TEST(test_lock_handover_order);
  RUN_TEST(test_lock_clock_skew);
  RUN_TEST(test_call_sites);
  RUN_TEST(test_truncated);
  RUN_TEST(test_no_overlap);
  RUN_TEST(test_file_io);
  fixture_end();
  return TEST_EXIT();
}
