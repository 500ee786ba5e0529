/* The compressed trace from end to end without MPI: raw records written as the tracer writes
 * them (rawfmt.h) -> one rank's compression (src/trace/ctrace*.c) -> merge -> compressed.mvt ->
 * reader, dump, check and generator (src/benchgen). Known answers are counted by hand: a loop of
 * (A B)^3 is one rule of two signatures repeated 3 times, ((A B)^2 C)^2 nests, and the encoded
 * grammar of (A B C)^N has the same size for N = 10 .. 10000 but for the varint of N (1 to 2
 * bytes, LEB128). Times are kept per call item of the grammar: a loop (A B A C)^N whose first
 * A follows 100 ns of work and whose second A follows 3000 ns keeps 100 and 3000 ns at the two
 * places (kept per signature, as format version 4 did, both would be 1550 ns). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ctrace.h"
#include "mpivet/benchgen.h"
#include "mpivet/error.h"
#include "mvt.h"
#include "rawfmt.h"
#include "test.h"
#include "trace-regions.h"

static size_t grammar_size(uint64_t n, struct mv__grammar *g)
{
  struct mv__bytes b = {0};
  *g = (struct mv__grammar){0};
  for (uint64_t i = 0; i < n; i++)
    for (uint64_t s = 0; s < 3; s++)
      mv__grammar_push(g, s * 2);
  mv__grammar_encode(g, &b);
  size_t len = b.n;
  mv__bytes_release(&b);
  return len;
}

static void test_grammar(void)
{
  struct mv__grammar g = {0};
  for (int i = 0; i < 3; i++)
    mv__grammar_push(&g, 0), mv__grammar_push(&g, 2);  /* (A B)^3 */
  ASSERT_INT_EQ((int)g.ntop, 1);
  ASSERT_INT_EQ((int)g.top[0].sym, 1);      /* rule 0 */
  ASSERT_INT_EQ((int)g.top[0].count, 3);
  ASSERT_INT_EQ((int)g.body_len[0], 2);
  mv__grammar_release(&g);
  for (int k = 0; k < 2; k++) {             /* ((A B)^2 C)^2 */
    for (int i = 0; i < 2; i++)
      mv__grammar_push(&g, 0), mv__grammar_push(&g, 2);
    mv__grammar_push(&g, 4);
  }
  ASSERT_INT_EQ((int)g.ntop, 1);
  ASSERT_INT_EQ((int)g.top[0].count, 2);
  ASSERT_INT_EQ((int)g.rules.n, 2);         /* (A B) and ((A B)^2 C) */
  ASSERT_INT_EQ((int)g.body_len[g.top[0].sym >> 1], 2);
  mv__grammar_release(&g);
  for (int k = 0; k < 2; k++) {             /* (A B)^2 C (A B)^2: the second pair reuses rule 0 */
    mv__grammar_push(&g, 0), mv__grammar_push(&g, 2), mv__grammar_push(&g, 0), mv__grammar_push(&g, 2);
    if (k == 0)
      mv__grammar_push(&g, 4);
  }
  ASSERT_INT_EQ((int)g.rules.n, 1);
  ASSERT_INT_EQ((int)g.nitems, 2);          /* its body stored once (it was stored twice) */
  ASSERT_INT_EQ((int)g.ntop, 3);
  mv__grammar_release(&g);
  size_t s10 = grammar_size(10, &g);
  mv__grammar_release(&g);
  size_t s10000 = grammar_size(10000, &g);
  mv__grammar_release(&g);
  ASSERT_TRUE(s10000 - s10 <= 1);           /* 10 -> 10000: one more varint byte */
}

static void test_bins(void)
{
  /* bin b > 0 holds [1.2^(b-1), 1.2^b); its middle 1.2^(b-1/2) is within sqrt(1.2)-1 of it */
  ASSERT_INT_EQ((int)mv_mvt_bin(0, 192), 0);
  ASSERT_INT_EQ((int)mv_mvt_bin(1, 192), 1);
  ASSERT_INT_EQ((int)mv_mvt_bin(2, 192), 4);  /* 1.2^3 = 1.728 <= 2 < 1.2^4 = 2.0736 */
  for (uint64_t v = 1; v < 2000000000u; v = v * 3 + 1) {
    double mid = mv_mvt_bin_ns(mv_mvt_bin(v, 192));
    ASSERT_TRUE(mid / (double)v - 1 <= 0.0955 && 1 - mid / (double)v <= 0.0955);
  }
}

/* One rank's raw file: MPI_Init, ITERS x (compute 1000 ns, MPI_Send to rank+1, MPI_Recv from
 * rank-1 in a 4-rank world), MPI_Finalize. */
static void put_rec(FILE *f, uint64_t t, int kind, uint32_t a, uint32_t b, uint32_t c, uint64_t x)
{
  uint64_t w[MV__REC_MAX_WORDS] = {t, (uint64_t)kind | (uint64_t)a << 32};
  size_t k = 2;
  unsigned fl = mv__rec_fields[kind];
  if (fl & MV__F_BC)
    w[k++] = b | (uint64_t)c << 32;
  if (fl & MV__F_X)
    w[k++] = x;
  if (fl & MV__F_Y)
    w[k++] = 0;
  fwrite(w, sizeof *w, k, f);
}

/* A rank's raw file begun with MPI_Init from 100 to 110 ns; *t is then 110. */
static FILE *raw_open(const char *dir, int rank, uint64_t *t)
{
  char path[512];
  snprintf(path, sizeof path, "%s/" MV__RAW_DIR "/rank-%d.raw", dir, rank);
  FILE *f = fopen(path, "wb");
  *t = 100;
  put_rec(f, *t, MV__K_ENTER, MV__R_MPI_Init, 0, 0, 11), put_rec(f, *t += 10, MV__K_LEAVE, MV__R_MPI_Init, 0, 0, 0);
  return f;
}

static void raw_rank(const char *dir, int rank, int iters)
{
  uint64_t t;
  FILE *f = raw_open(dir, rank, &t);
  for (int i = 0; i < iters; i++) {
    put_rec(f, t += 1000, MV__K_ENTER, MV__R_MPI_Send, 0, 0, 22);
    put_rec(f, t, MV__K_SEND, (uint32_t)(rank + 1) % 4, 0, 5, 64);
    put_rec(f, t += 50, MV__K_LEAVE, MV__R_MPI_Send, 0, 0, 0);
    put_rec(f, t, MV__K_ENTER, MV__R_MPI_Recv, 0, 0, 33);
    put_rec(f, t += 70, MV__K_RECV, (uint32_t)(rank + 3) % 4, 0, 5, 64);
    put_rec(f, t, MV__K_LEAVE, MV__R_MPI_Recv, 0, 0, 0);
  }
  put_rec(f, t += 5, MV__K_ENTER, MV__R_MPI_Finalize, 0, 0, 44), put_rec(f, t, MV__K_LEAVE, MV__R_MPI_Finalize, 0, 0, 0);
  fclose(f);
}

/* One rank's raw file with one signature at two places of a loop: ITERS x (100 ns of work,
 * MPI_Send to rank+1 from site 22; 5000 ns, MPI_Recv from rank-1; 3000 ns, MPI_Send from site
 * 22 again; 5 ns, MPI_Barrier), then MPI_Finalize. */
static void raw_rank_places(const char *dir, int rank, int iters)
{
  uint64_t t;
  FILE *f = raw_open(dir, rank, &t);
  for (int i = 0; i < iters; i++)
    for (int half = 0; half < 2; half++) {
      put_rec(f, t += half ? 3000 : 100, MV__K_ENTER, MV__R_MPI_Send, 0, 0, 22);
      put_rec(f, t, MV__K_SEND, (uint32_t)(rank + 1) % 4, 0, 5, 64);
      put_rec(f, t += 50, MV__K_LEAVE, MV__R_MPI_Send, 0, 0, 0);
      if (half == 0) {
        put_rec(f, t += 5000, MV__K_ENTER, MV__R_MPI_Recv, 0, 0, 33);
        put_rec(f, t += 70, MV__K_RECV, (uint32_t)(rank + 3) % 4, 0, 5, 64);
        put_rec(f, t, MV__K_LEAVE, MV__R_MPI_Recv, 0, 0, 0);
      } else {
        put_rec(f, t += 5, MV__K_ENTER, MV__R_MPI_Barrier, 0, 0, 55);
        put_rec(f, t += 90, MV__K_COLL_END, 0xffffffffu, 0, 0, 0);
        put_rec(f, t, MV__K_LEAVE, MV__R_MPI_Barrier, 0, 0, 0);
      }
    }
  put_rec(f, t += 5, MV__K_ENTER, MV__R_MPI_Finalize, 0, 0, 44), put_rec(f, t, MV__K_LEAVE, MV__R_MPI_Finalize, 0, 0, 0);
  fclose(f);
}

/* The compressed trace of 4 such ranks written in dir; its size in bytes. */
static long write_trace(const char *dir, int iters, void (*raw)(const char *, int, int))
{
  struct mv__ct_set set = {0};
  struct mv__clock clk = {0};
  for (int r = 0; r < 4; r++) {
    struct mv__ct_comm world = {0, 4, r};
    struct mv__ct_input in = {dir, r, 4, &clk, &world, 1, NULL, 0};
    struct mv__ct_rank one;
    struct mv__ct_set s1 = {0};
    raw(dir, r, iters);
    ASSERT_INT_EQ(mv__ct_build(&in, &one), 0);
    mv__ct_set_add_rank(&s1, r, &one);
    mv__bytes_release(&one.blob);
    ASSERT_INT_EQ(mv__ct_set_merge(&set, &s1), 0);
  }
  ASSERT_INT_EQ((int)set.n, 1);          /* a ring: every rank sends to +1, receives from -1 */
  uint64_t members[4] = {0, 1, 2, 3};
  struct mv__def_set world = {.id = 0, .n = 4, .filled = 4, .members = members};
  struct mv__raw_defs defs = {.nranks = 4, .comms = &world, .ncomms = 1};
  strcpy(defs.meta, "test");
  ASSERT_INT_EQ(mv__ct_write(dir, &set, &defs, 4), 0);
  mv__ct_set_release(&set);
  char path[512];
  struct stat st;
  snprintf(path, sizeof path, "%s/" MV_MVT_FILE, dir);
  return stat(path, &st) == 0 ? (long)st.st_size : -1;
}

static void test_end_to_end(void)
{
  char dir[] = "/tmp/mv-test-ctrace.XXXXXX", path[512], msg[512];
  ASSERT_TRUE(mkdtemp(dir) != NULL);
  snprintf(path, sizeof path, "%s/" MV__RAW_DIR, dir);
  mkdir(path, 0777);
  long s10 = write_trace(dir, 10, raw_rank), s1000 = write_trace(dir, 1000, raw_rank);
  printf("compressed trace of 4 ranks: %ld B (10 iterations), %ld B (1000)\n", s10, s1000);
  /* only the loop's repeat count grows (10: one byte, 1000: two); times are means, weights
   * relative to the fullest bin and binary32 spans (format version 4) */
  ASSERT_TRUE(s10 > 0 && s1000 - s10 == 1);
  snprintf(path, sizeof path, "%s/" MV_MVT_FILE, dir);
  struct mv_mvt t;
  ASSERT_INT_EQ(mv_mvt_read(path, &t, NULL), 0);
  ASSERT_INT_EQ((int)t.nranks, 4);
  ASSERT_INT_EQ((int)t.nclasses, 1);
  ASSERT_INT_EQ((int)t.classes[0].nranks, 4);
  ASSERT_INT_EQ((int)t.nsigs, 3);                      /* Send, Recv, Finalize */
  ASSERT_STR_EQ(t.sigs[0].func, "MPI_Send");
  ASSERT_INT_EQ((int)t.sigs[0].ops[0].peer, 1);        /* rank + 1 */
  ASSERT_INT_EQ((int)t.sigs[1].ops[0].peer, -1);       /* rank - 1 */
  ASSERT_INT_EQ((int)mv_mvt_class_calls(&t.classes[0]), 2001);
  ASSERT_INT_EQ((int)t.classes[0].comp[0].sum, 4 * 1000 * 1000);   /* 1000 ns before each send */
  ASSERT_INT_EQ((int)t.classes[0].comp[0].values, 4 * 1000);         /* 1000 sends x 4 ranks */
  ASSERT_INT_EQ((int)t.classes[0].comp[0].n, 1);                      /* one bin: 1000 ns */
  ASSERT_INT_EQ((int)t.classes[0].comp[0].weight[0], 127);
  ASSERT_INT_EQ((int)t.classes[0].dur[1].sum, 4 * 1000 * 70);       /* 70 ns in each receive */
  char *buf = NULL;
  size_t len = 0;
  FILE *out = open_memstream(&buf, &len);
  ASSERT_INT_EQ(mv_benchgen_emit(&t, &(struct mv_benchgen_opts){1, 1, NULL}, out, NULL), 0);
  fclose(out);
  ASSERT_TRUE(strstr(buf, "for (long i = 0; i < 1000L; i++)") != NULL);
  ASSERT_TRUE(strstr(buf, "MPI_Send(sbuf, elems(64, 1), MPI_BYTE, peer(0, 1), 5, comm[0]);") != NULL);
  free(buf);
  /* every rank sends before it receives: MPI_Send may wait for its receive, a potential deadlock */
  ASSERT_INT_EQ(mv_benchgen_check(&t, 1000000, msg, sizeof msg), 1);
  ASSERT_TRUE(strstr(msg, "potential deadlock: 4 ranks") != NULL);
  mv_mvt_release(&t);
  /* every cut of the file is refused with an error, never a crash */
  FILE *f = fopen(path, "rb");
  uint8_t data[4096];
  size_t n = fread(data, 1, sizeof data, f);
  fclose(f);
  for (size_t cut = 0; cut < n; cut++) {
    int rc = mv_mvt_parse(data, cut, &t, NULL);
    ASSERT_TRUE(rc == MV_EPARSE);
  }
  /* one signature at two places of a loop keeps the work before each place */
  ASSERT_TRUE(write_trace(dir, 50, raw_rank_places) > 0);
  ASSERT_INT_EQ(mv_mvt_read(path, &t, NULL), 0);
  const struct mv_mvt_class *c = &t.classes[0];
  ASSERT_INT_EQ((int)t.nsigs, 4);                      /* Send, Recv, Barrier, Finalize */
  ASSERT_INT_EQ((int)c->nrules, 1);                    /* r0 = (Send Recv Send Barrier) */
  ASSERT_INT_EQ((int)c->rules[0].n, 4);
  ASSERT_INT_EQ((int)c->rules[0].items[0].sym, (int)c->rules[0].items[2].sym);
  ASSERT_INT_EQ((int)c->nitems, 6);                    /* and main = r0^50 Finalize */
  ASSERT_INT_EQ((int)c->comp[0].values, 4 * 50);
  ASSERT_INT_EQ((int)c->comp[0].sum, 4 * 50 * 100);    /* the first Send: 100 ns before it */
  ASSERT_INT_EQ((int)c->comp[2].sum, 4 * 50 * 3000);   /* the second: 3000 ns */
  ASSERT_INT_EQ((int)c->comp[1].sum, 4 * 50 * 5000);
  ASSERT_INT_EQ((int)c->comp[4].values, 0);            /* the loop item has no times */
  ASSERT_INT_EQ((int)c->dur[3].sum, 4 * 50 * 90);      /* 90 ns in each Barrier */
  out = open_memstream(&buf, &len);
  ASSERT_INT_EQ(mv_benchgen_emit(&t, &(struct mv_benchgen_opts){1, 1, NULL}, out, NULL), 0);
  fclose(out);
  ASSERT_TRUE(strstr(buf, "static struct dist c0_d0 = {100, 1,") != NULL);
  ASSERT_TRUE(strstr(buf, "static struct dist c0_d2 = {3000, 1,") != NULL);
  free(buf);
  mv_mvt_release(&t);
  snprintf(path, sizeof path, "rm -rf %s", dir);
  ASSERT_INT_EQ(system(path), 0);
}

int main(void)
{
  RUN_TEST(test_grammar);
  RUN_TEST(test_bins);
  RUN_TEST(test_end_to_end);
  return TEST_EXIT();
}
