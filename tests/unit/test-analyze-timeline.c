/* The timelines of the backward passes in blocks in a temporary file (src/analyze/timeline.c):
 * points written and read back through a cache of two blocks against a plain array (the
 * reference: the same points scanned linearly), and whole analyses with blocks of 2 points
 * spilled against the same analyses with the blocks in memory: every report byte for byte.
 * A temporary folder that cannot be created and a file that cannot grow are clear errors. */
#include <errno.h>
#include <fcntl.h>
#include <otf2/OTF2_Events.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "analyze/internal.h"
#include "mpivet/analyze.h"
#include "mpivet/error.h"
#include "analyze-fixture.h"
#include "test.h"

static void set_sizes(const char *block, const char *cache, const char *spill)
{
  setenv("MPIVET_ANALYZE_BLOCK", block, 1);
  setenv("MPIVET_ANALYZE_CACHE", cache, 1);
  setenv("MPIVET_ANALYZE_SPILL", spill, 1);
}

static void unset_sizes(void)
{
  unsetenv("MPIVET_ANALYZE_BLOCK"), unsetenv("MPIVET_ANALYZE_CACHE"), unsetenv("MPIVET_ANALYZE_SPILL");
}

/* The reference segment at time a of n points t[] (cp[]), the last ending at last: the linear
 * scan the binary searches replace. */
static size_t ref_at(const uint64_t *t, size_t n, uint64_t a)
{
  size_t i = 0;
  while (i + 1 < n && t[i + 1] <= a)
    i++;
  return i;
}

/* Three locations written interleaved, 3 points per block, 2 blocks cached: location 0 gets 10
 * points (a zero-length segment at 50 replaced), 1 gets 1, 2 none. Every segment from every
 * seek time must be the reference's, in order, to the end. */
static void test_blocks(void)
{
  set_sizes("3", "2", "1");
  struct mv__tlset s;
  ASSERT_INT_EQ(mv__tlset_init(&s, 3), 0);
  uint64_t t[10];
  uint32_t cp[10];
  size_t n = 0;
  for (uint64_t k = 1; k <= 10; k++) {
    mv__tl_push(&s, 0, 10 * k, 100 + (uint32_t)k);
    if (k == 5)   /* replaced by the next point at 50: the reference keeps the second */
      mv__tl_push(&s, 0, 50, 999);
    if (k == 2)
      mv__tl_push(&s, 1, 7, 5);
    t[n] = 10 * k, cp[n++] = k == 5 ? 999 : 100 + (uint32_t)k;
  }
  uint32_t *last = mv__tl_last_cp(&s, 0);   /* the last point may still change (a pending gap) */
  ASSERT_TRUE(last && *last == 110);
  *last = 42, cp[9] = 42;
  s.loc[0].last = 120, s.loc[1].last = 9;
  ASSERT_INT_EQ(mv__tlset_finish(&s), 0);
  ASSERT_INT_EQ((long long)s.loc[0].n, 10);
  ASSERT_INT_EQ((long long)s.loc[0].blocks.len, 4);   /* 3 + 3 + 3 + 1 */
  ASSERT_INT_EQ((long long)s.nblocks, 5);
  ASSERT_INT_EQ((long long)s.bytes, 11 * 12);
  for (uint64_t a = 0; a <= 125; a++) {
    struct mv__tlcur c;
    uint64_t b, e;
    uint32_t p;
    size_t i = ref_at(t, n, a), got = 0;
    for (mv__tl_seek(&c, &s, 0, a); mv__tl_next(&c, &b, &e, &p); i++, got++) {
      ASSERT_TRUE(i < n);
      if (i >= n)
        break;
      ASSERT_INT_EQ((long long)b, (long long)t[i]);
      ASSERT_INT_EQ((long long)e, (long long)(i + 1 < n ? t[i + 1] : 120));
      ASSERT_INT_EQ((long long)p, (long long)cp[i]);
    }
    ASSERT_INT_EQ((long long)got, (long long)(n - ref_at(t, n, a)));
  }
  struct mv__tlcur c;
  uint64_t b, e;
  uint32_t p;
  mv__tl_seek(&c, &s, 1, 0);
  ASSERT_INT_EQ(mv__tl_next(&c, &b, &e, &p), 1);
  ASSERT_TRUE(b == 7 && e == 9 && p == 5);
  ASSERT_INT_EQ(mv__tl_next(&c, &b, &e, &p), 0);
  mv__tl_seek(&c, &s, 2, 0);
  ASSERT_INT_EQ(mv__tl_next(&c, &b, &e, &p), 0);
  ASSERT_TRUE(s.loads > 4);   /* 2 slots for 4 blocks: evicted and read again */
  ASSERT_INT_EQ(s.err, 0);
  mv__tlset_release(&s);
  unset_sizes();
}

/* Two "processes" of the parallel analysis with locations {0, 2} and {1} of 3 (blocks of 3
 * points, 2 cached) send them in rounds of at most 2 points to a third set: every round's
 * pieces of both, process order, as process 0 unpacks them. Location 2 has no point but its
 * first and last events arrive. Rounds: process A 7 points, 7 / 2 + 1 = 4; B 3 points, 2. The
 * received timelines are the sent ones point for point; a failed sender fails the unpacking. */
static void test_pieces(void)
{
  set_sizes("3", "2", "1");
  struct mv__tlset a, b, all;
  ASSERT_INT_EQ(mv__tlset_init(&a, 3), 0);
  ASSERT_INT_EQ(mv__tlset_init(&b, 3), 0);
  ASSERT_INT_EQ(mv__tlset_init(&all, 3), 0);
  for (uint64_t k = 0; k < 7; k++)
    mv__tl_push(&a, 0, 100 + 10 * k, 7 + (uint32_t)k);
  for (uint64_t k = 0; k < 3; k++)
    mv__tl_push(&b, 1, 5 + k, MV__TL_PENDING - (uint32_t)k % 2);
  a.loc[0].first = 90, a.loc[0].last = 200, a.loc[0].init_end = 95, a.loc[0].fin_enter = 190;
  a.loc[0].started = 1;
  a.loc[2].started = 1, a.loc[2].first = 1, a.loc[2].last = 2;
  b.loc[1].started = 1, b.loc[1].first = 5, b.loc[1].last = 9;
  ASSERT_INT_EQ(mv__tlset_finish(&a), 0);
  ASSERT_INT_EQ(mv__tlset_finish(&b), 0);
  struct mv__tlsend qa = {0}, qb = {0};
  for (int round = 0; round < 4; round++) {
    void *pa = NULL, *pb = NULL;
    size_t la = 0, lb = 0;
    ASSERT_INT_EQ(mv__tl_pack(&a, &qa, 2, &pa, &la), 0);
    ASSERT_INT_EQ(mv__tl_pack(&b, &qb, 2, &pb, &lb), 0);
    char *cat = malloc(la + lb + 1);
    if (la)
      memcpy(cat, pa, la);
    if (lb)
      memcpy(cat + la, pb, lb);
    ASSERT_INT_EQ(mv__tl_unpack(&all, cat, la + lb), 0);
    free(pa), free(pb), free(cat);
  }
  ASSERT_INT_EQ(mv__tlset_finish(&all), 0);
  for (uint32_t l = 0; l < 3; l++) {
    const struct mv__tlset *src = l == 1 ? &b : &a;
    const struct mv__tl *x = &all.loc[l], *y = &src->loc[l];
    ASSERT_TRUE(x->started && x->first == y->first && x->last == y->last && x->init_end == y->init_end &&
                x->fin_enter == y->fin_enter);
    ASSERT_INT_EQ((long long)x->n, (long long)y->n);
    struct mv__tlcur c1, c2;
    uint64_t s1, e1, s2, e2;
    uint32_t p1, p2;
    mv__tl_seek(&c1, &all, l, 0);
    mv__tl_seek(&c2, (struct mv__tlset *)src, l, 0);
    for (int more = 1; more;) {
      more = mv__tl_next(&c1, &s1, &e1, &p1);
      ASSERT_INT_EQ(mv__tl_next(&c2, &s2, &e2, &p2), more);
      if (more)
        ASSERT_TRUE(s1 == s2 && e1 == e2 && p1 == p2);
    }
  }
  ASSERT_INT_EQ((long long)all.loc[0].n, 7);
  ASSERT_INT_EQ((long long)all.loc[2].n, 0);
  /* a sender whose timelines cannot be read back (its file now /dev/null: block 0 of location 0,
   * evicted from the 2 cached by blocks 1 and 2, reads nothing): its piece fails the unpacking */
  struct mv__tlsend qf = {0};
  void *pf = NULL;
  size_t lf = 0;
  close(a.fd);
  a.fd = open("/dev/null", O_RDONLY);
  mv__tlset_release(&all);
  ASSERT_INT_EQ(mv__tlset_init(&all, 3), 0);
  ASSERT_INT_EQ(mv__tl_pack(&a, &qf, 2, &pf, &lf), MV_EIO);
  ASSERT_TRUE(strstr(a.why, "reading the timelines back from the temporary file in ") != NULL);
  ASSERT_INT_EQ(mv__tl_unpack(&all, pf, lf), MV_EIO);
  free(pf);
  mv__tlset_release(&a), mv__tlset_release(&b), mv__tlset_release(&all);
  unset_sizes();
}

/* A stencil of 4 ranks over 30 iterations: rank i computes 100 + 37 * ((i + it) % 4) ns, sends
 * to both ring neighbours, waits for both (Late Senders chained around the ring), and every 7th
 * iteration an allreduce: waits, delays, long-term costs and a critical path over many blocks. */
static void write_stencil(struct mv__synth *s)
{
  uint64_t now[4] = {0};
  for (int it = 0; it < 30; it++) {
    for (int r = 0; r < 4; r++) {
      uint64_t c = 100 + 37 * (uint64_t)((r + it) % 4);
      compute(s, r, now[r], now[r] + c, "kernel");
      now[r] += c;
      mv__synth_isend(s, r, now[r], now[r] + 2, (r + 1) % 4, it);
      mv__synth_isend(s, r, now[r] + 2, now[r] + 4, (r + 3) % 4, it);
      now[r] += 4;
    }
    uint64_t done[4];
    for (int r = 0; r < 4; r++) {   /* both messages arrive at the senders' last Isend */
      uint64_t a = now[(r + 3) % 4], b = now[(r + 1) % 4], m = a > b ? a : b;
      done[r] = (m > now[r] ? m : now[r]) + 5;
      int srcs[2] = {(r + 3) % 4, (r + 1) % 4}, tags[2] = {it, it};
      mv__synth_waitall(s, r, now[r], done[r], 2, srcs, tags);
    }
    memcpy(now, done, sizeof now);
    if (it % 7 == 6) {
      uint64_t m = 0;
      for (int r = 0; r < 4; r++)
        m = now[r] > m ? now[r] : m;
      for (int r = 0; r < 4; r++)
        mv__synth_coll(s, r, now[r], m + 10, "MPI_Allreduce", OTF2_COLLECTIVE_OP_ALLREDUCE, -1);
      for (int r = 0; r < 4; r++)
        now[r] = m + 10;
    }
  }
}

/* A new stencil archive; its anchor in anchor. */
static void stencil_anchor(char *anchor, size_t size)
{
  char dir[320];
  struct mv__synth *s = open_archive(dir, sizeof dir, 4, 0);
  write_stencil(s);
  ASSERT_INT_EQ(mv__synth_close(s), 0);
  snprintf(anchor, size, "%s/traces.otf2", dir);
}

/* Text, JSON and HTML of the analysis of dir with the given sizes, in one buffer. */
static char *reports(const char *dir, const char *block, const char *cache, const char *spill, uint64_t v[6])
{
  set_sizes(block, cache, spill);
  struct mv_analysis *a = analyze(dir);
  unset_sizes();
  ASSERT_TRUE(a != NULL);
  if (!a)
    return NULL;
  char *buf = NULL;
  size_t len = 0;
  FILE *fp = open_memstream(&buf, &len);
  ASSERT_INT_EQ(mv_analysis_write_text(a, fp, 20), 0);
  ASSERT_INT_EQ(mv_analysis_write_json(a, fp), 0);
  ASSERT_INT_EQ(mv_analysis_write_html(a, fp, "t"), 0);
  fclose(fp);
  mv_analysis_spill(a, 0, v);
  mv_analysis_free(a);
  return buf;
}

static void test_identical(void)
{
  char dir[320];
  struct mv__synth *s = open_archive(dir, sizeof dir, 4, 0);
  write_stencil(s);
  ASSERT_INT_EQ(mv__synth_close(s), 0);
  uint64_t vm[6], vs[6], vd[6];
  char *mem = reports(dir, "2", "2", "0", vm), *spilled = reports(dir, "2", "2", "1", vs);
  char *dflt = reports(dir, "", "", "", vd);
  ASSERT_TRUE(mem && spilled && dflt);
  if (mem && spilled && dflt) {
    ASSERT_TRUE(strlen(mem) > 10000);
    ASSERT_TRUE(strcmp(mem, spilled) == 0);
    ASSERT_TRUE(strcmp(mem, dflt) == 0);
    ASSERT_TRUE(strstr(mem, "\"delay_latesender\"") != NULL);
  }
  /* a point per new time of an Enter or Leave: per rank and iteration the kernel's enter, the
   * two Isends' and the Waitall's (each at the previous call's leave), the Waitall's leave being
   * the next kernel's enter; the Allreduces' leaves (4) and the last leave: 30 x 4 + 4 + 1 = 125
   * points per rank, 63 blocks of at most 2, 12 bytes a point; every block read back at least
   * once (the page), the cache two blocks (2 x 2 x 12 bytes) */
  ASSERT_INT_EQ((long long)vs[1], 4 * 63);
  ASSERT_INT_EQ((long long)vs[0], 4 * 125 * 12);
  ASSERT_INT_EQ((long long)vm[0], 4 * 125 * 12);
  ASSERT_INT_EQ((long long)vs[2], 2);
  ASSERT_TRUE(vs[3] >= vs[1]);
  ASSERT_INT_EQ((long long)vs[4], 48);
  ASSERT_INT_EQ((long long)vd[1], 4);   /* default blocks: one per rank */
  free(mem), free(spilled), free(dflt);
}

/* Reference order of synchronization points: leave, partner, comm, enter, done. */
static int sp_ref_cmp(const void *x, const void *y)
{
  const struct mv__sp *a = x, *b = y;
  uint64_t ka[5] = {a->leave, a->partner, a->comm, a->enter, a->done}, kb[5] = {b->leave, b->partner, b->comm,
                                                                                 b->enter, b->done};
  for (int i = 0; i < 5; i++)
    if (ka[i] != kb[i])
      return ka[i] < kb[i] ? -1 : 1;
  return 0;
}

/* Items that come out of order: within the unwritten ones (a block of 2 and 2 more) they are
 * sorted in; later ones are kept aside and their location rewritten at finish. Read back, each
 * location must be the qsort of what was put, and mv__tl_find the first item at or after every
 * key (a linear scan of the sorted reference). */
static void test_late(void)
{
  set_sizes("2", "2", "1");
  static const uint64_t leaves[2][14] = {{10, 20, 30, 40, 50, 5, 60, 25, 70, 25, 15, 80, 80, 1},
                                         {3, 1, 2, 9, 8, 7, 30, 31, 32, 33, 34, 35, 36, 0}};
  struct mv__sp ref[2][14];
  struct mv__tlset s;
  ASSERT_INT_EQ(mv__tlset_init_kind(&s, 2, &mv__tl_syncs), 0);
  for (int k = 0; k < 14; k++)
    for (uint32_t l = 0; l < 2; l++) {
      /* equal leaves apart by partner (25) or by enter (80) */
      struct mv__sp p = {leaves[l][k], leaves[l][k] / 2 + (uint64_t)k % 2, leaves[l][k], (uint32_t)k % 3, 0};
      ref[l][k] = p;
      mv__tl_put(&s, l, &p);
    }
  ASSERT_INT_EQ(mv__tlset_finish(&s), 0);
  ASSERT_TRUE(s.nlate >= 4);   /* 5, 25, 25, 15, 1 after 30-50 were written; 0 on location 1 */
  for (uint32_t l = 0; l < 2; l++) {
    qsort(ref[l], 14, sizeof ref[l][0], sp_ref_cmp);
    ASSERT_INT_EQ((long long)s.loc[l].n, 14);
    struct mv__tlcur c = {0};
    for (uint64_t k = 0; k < 14; k++) {
      const void *item = mv__tl_item(&c, &s, l, k);
      ASSERT_TRUE(item != NULL);
      if (item)
        ASSERT_INT_EQ(sp_ref_cmp(item, &ref[l][k]), 0);
    }
    ASSERT_TRUE(mv__tl_item(&c, &s, l, 14) == NULL);
    for (uint64_t key = 0; key < 90; key++) {
      uint64_t want = 0;
      while (want < 14 && ref[l][want].leave < key)
        want++;
      ASSERT_INT_EQ((long long)mv__tl_find(&c, &s, l, key), (long long)want);
    }
  }
  mv__tlset_release(&s);
  unset_sizes();
}

/* Items far out of order in bulk, blocks of one item (so every item more than two places late is
 * late), in memory and in the file: 300 synchronization points per location in a scrambled order
 * (leave = v / 2 for v = 7919 k mod 300, so pairs share a leave). Late items are held four at a
 * time (four blocks' worth), then written as sorted runs, at most 8 (merged into one when there
 * are more), whatever their number; read back, each location must be the qsort of what was put. */
static void test_late_runs(void)
{
  for (int spill = 0; spill < 2; spill++) {
    set_sizes("1", "2", spill ? "1" : "0");
    enum { N = 300 };
    static struct mv__sp ref[2][N];
    struct mv__tlset s;
    ASSERT_INT_EQ(mv__tlset_init_kind(&s, 2, &mv__tl_syncs), 0);
    size_t most_late = 0, most_runs = 0;
    for (uint64_t k = 0; k < N; k++)
      for (uint32_t l = 0; l < 2; l++) {
        uint64_t v = (7919 * k + 31 * l) % N;
        struct mv__sp p = {v / 2, v, v + 1, (uint32_t)(v % 3), l};
        ref[l][k] = p;
        mv__tl_put(&s, l, &p);
        most_late = s.late.len > most_late ? s.late.len : most_late;
        most_runs = s.runs.len > most_runs ? s.runs.len : most_runs;
      }
    ASSERT_TRUE(s.nlate > N);   /* most of the 600 */
    ASSERT_TRUE(most_late < 4);
    ASSERT_TRUE(most_runs <= 8);
    ASSERT_INT_EQ(mv__tlset_finish(&s), 0);
    for (uint32_t l = 0; l < 2; l++) {
      qsort(ref[l], N, sizeof ref[l][0], sp_ref_cmp);
      ASSERT_INT_EQ((long long)s.loc[l].n, N);
      struct mv__tlcur c = {0};
      for (uint64_t k = 0; k < N; k++) {
        const void *item = mv__tl_item(&c, &s, l, k);
        ASSERT_TRUE(item != NULL);
        if (item)
          ASSERT_INT_EQ(sp_ref_cmp(item, &ref[l][k]), 0);
      }
    }
    mv__tlset_release(&s);
  }
  unset_sizes();
}

/* The parallel analysis's rounds of wait states and synchronization points (causes.c): two
 * processes found waits of the same locations (as the lock chains' process does), in another
 * order; process 0 merges their pieces, round by round of 100 bytes per process by time, into the
 * same streams as one process that found them all (the serial analysis), item by item. A process
 * that failed sends a piece that fails the merge. */
static void test_causes_rounds(void)
{
  set_sizes("2", "2", "1");
  struct mv__causes part[2], one, all;
  for (int p = 0; p < 2; p++)
    ASSERT_INT_EQ(mv__causes_init(&part[p], 3), 0);
  ASSERT_INT_EQ(mv__causes_init(&one, 3), 0);
  ASSERT_INT_EQ(mv__causes_init(&all, 3), 0);
  for (uint64_t k = 0; k < 40; k++) {
    uint32_t wloc = (uint32_t)(k % 3), dloc = (wloc + 1 + (uint32_t)(k % 2)) % 3;
    uint64_t enter = 37 * ((k * 11) % 40);   /* out of order, far beyond a block */
    struct mv__wait w = {enter, enter + 50, 1 + k % 4, enter + 10, enter + 30, wloc, (uint32_t)k, dloc, 1, 4, 0};
    ASSERT_INT_EQ(mv__causes_wait(&part[k % 5 == 0], &w), 0);
    ASSERT_INT_EQ(mv__causes_wait(&one, &w), 0);
  }
  struct mv__sp c = {75, 70, 72, MV__NONE, 1};
  ASSERT_INT_EQ(mv__causes_sync(&part[1], 2, &c), 0);
  ASSERT_INT_EQ(mv__causes_sync(&one, 2, &c), 0);
  for (int p = 0; p < 2; p++)
    ASSERT_INT_EQ(mv__causes_finish(&part[p]), 0);
  ASSERT_INT_EQ(mv__causes_finish(&one), 0);
  /* rounds by time of at most 100 bytes per process (a wait is 64 bytes, a sync point 32) */
  uint64_t at[2][6] = {{0}}, rounds = 0, most = 0, sent = 0;
  for (int last = 0; !last; rounds++) {
    uint64_t t[2], bound;
    void *b[2];
    size_t n[2];
    for (int p = 0; p < 2; p++)
      ASSERT_INT_EQ(mv__causes_bound(&part[p], at[p], 100, &t[p]), 0);
    bound = t[0] < t[1] ? t[0] : t[1];
    last = bound == UINT64_MAX;
    for (int p = 0; p < 2; p++)
      ASSERT_INT_EQ(mv__causes_pack(&part[p], at[p], bound, rounds == 0, &b[p], &n[p]), 0);
    char *cat = malloc(n[0] + n[1]);
    memcpy(cat, b[0], n[0]), memcpy(cat + n[0], b[1], n[1]);
    ASSERT_INT_EQ(mv__causes_merge(cat, n[0] + n[1], 2, &all), 0);
    for (int p = 0; p < 2; p++) {   /* size, messages, 6 counts: the rest are items */
      uint64_t items = n[p] - 8 * 8;
      most = items > most ? items : most;
    }
    free(cat), free(b[0]), free(b[1]);
  }
  for (int p = 0; p < 2; p++)
    for (int h = 0; h < 6; h++)
      sent += at[p][h];
  /* 40 waits and 81 sync points (2 per wait and a collective call), 5152 bytes: 26 rounds of 200
   * bytes at least; no piece over its 100 bytes */
  ASSERT_INT_EQ((long long)sent, 121);
  ASSERT_TRUE(rounds >= 26);
  ASSERT_TRUE(most <= 100);
  ASSERT_INT_EQ(mv__causes_finish(&all), 0);
  struct mv__tlset *got[2] = {all.waits, all.syncs}, *want[2] = {one.waits, one.syncs};
  for (int k = 0; k < 2; k++)
    for (uint32_t l = 0; l < 3; l++) {
      ASSERT_INT_EQ((long long)got[k]->loc[l].n, (long long)want[k]->loc[l].n);
      struct mv__tlcur cg = {0}, cw = {0};
      for (uint64_t i = 0; i < want[k]->loc[l].n; i++) {
        const void *x = mv__tl_item(&cg, got[k], l, i), *y = mv__tl_item(&cw, want[k], l, i);
        ASSERT_TRUE(x && y && memcmp(x, y, want[k]->k->isz) == 0);
      }
    }
  ASSERT_INT_EQ((long long)one.waits->loc[0].n + one.waits->loc[1].n + one.waits->loc[2].n, 40);
  /* location 2: waiter of k = 2, 5, .., 38 (13), delayer of the odd k on 0 (7) and the even k on
   * 1 (6), one collective call */
  ASSERT_INT_EQ((long long)one.syncs->loc[2].n, 13 + 7 + 6 + 1);
  ASSERT_TRUE(one.waits->nlate > 0);
  struct mv__causes bad;
  ASSERT_INT_EQ(mv__causes_init(&bad, 3), 0);
  part[0].waits->err = MV_EIO;   /* a process whose stream failed: its piece says so */
  void *b[2];
  size_t n[2];
  uint64_t at0[6] = {0};
  ASSERT_INT_EQ(mv__causes_pack(&part[0], at0, UINT64_MAX, 1, &b[0], &n[0]), MV_EIO);
  ASSERT_INT_EQ(mv__causes_pack(&part[1], NULL, UINT64_MAX, 1, &b[1], &n[1]), MV_EIO);   /* failed elsewhere */
  ASSERT_INT_EQ((long long)n[1], 8);
  char *cat = malloc(n[0] + n[1]);
  memcpy(cat, b[0], n[0]), memcpy(cat + n[0], b[1], n[1]);
  ASSERT_INT_EQ(mv__causes_merge(cat, n[0] + n[1], 2, &bad), MV_EIO);
  free(cat), free(b[0]), free(b[1]);
  mv__causes_release(&bad), mv__causes_release(&all), mv__causes_release(&one);
  mv__causes_release(&part[0]), mv__causes_release(&part[1]);
  unset_sizes();
}

/* TMPDIR that does not exist: the analysis fails and says where. */
static void test_no_tmpdir(void)
{
  char anchor[400];
  stencil_anchor(anchor, sizeof anchor);
  const char *old = getenv("TMPDIR");
  char *saved = old ? strdup(old) : NULL;
  setenv("TMPDIR", "/nonexistent-mpivet-dir", 1);
  struct mv_analysis *a = NULL;
  struct mv_error e;
  ASSERT_INT_EQ(mv_analyze_trace(anchor, NULL, &a, &e), MV_EIO);
  ASSERT_TRUE(a == NULL);
  ASSERT_TRUE(strstr(e.what, "cannot create the temporary file of the timelines in /nonexistent-mpivet-dir: "
                             "No such file or directory") != NULL);
  if (saved)
    setenv("TMPDIR", saved, 1);
  else
    unsetenv("TMPDIR");
  free(saved);
}

/* A file that cannot grow past 1 KiB (RLIMIT_FSIZE, SIGXFSZ ignored: write fails with EFBIG as
 * with a full disk): the analysis fails with a clear message, in a child process. */
static void test_file_full(void)
{
  char anchor[400];
  stencil_anchor(anchor, sizeof anchor);
  pid_t pid = fork();
  if (pid == 0) {
    struct rlimit rl = {1024, 1024};
    signal(SIGXFSZ, SIG_IGN);
    setrlimit(RLIMIT_FSIZE, &rl);
    set_sizes("2", "2", "1");
    struct mv_analysis *a = NULL;
    struct mv_error e;
    int rc = mv_analyze_trace(anchor, NULL, &a, &e);
    if (rc != MV_EIO || a || !strstr(e.what, "writing the timelines to a temporary file in ") ||
        !strstr(e.what, strerror(EFBIG))) {
      fprintf(stderr, "file full: rc %d, '%s'\n", rc, e.what);
      _exit(1);
    }
    _exit(0);
  }
  int st = 0;
  ASSERT_TRUE(pid > 0 && waitpid(pid, &st, 0) == pid);
  ASSERT_TRUE(WIFEXITED(st) && WEXITSTATUS(st) == 0);
}

int main(void)
{
  if (fixture_begin("timeline", 't'))
    return 1;
  RUN_TEST(test_blocks);
  RUN_TEST(test_pieces);
  RUN_TEST(test_late);
  RUN_TEST(test_late_runs);
  RUN_TEST(test_causes_rounds);
  RUN_TEST(test_identical);
  RUN_TEST(test_no_tmpdir);
  RUN_TEST(test_file_full);
  fixture_end();
  return TEST_EXIT();
}
