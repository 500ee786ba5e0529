/* The 3-D layout of benchmarks for any process count (src/benchgen/scale-fit.c):
 * mv__bg_dims3 against MPI_Dims_create(p, 3) of MPICH 4.0 (Debian 12's libmpich, printed by a
 * 10-line program for p = 8..100; Open MPI 4.1 printed the same table), the 27 regions of
 * rank r in that grid counted by hand, and the terms T2 and T1 * T2 (a row, a plane). */
#include <stdint.h>

#include "benchgen/scale.h"
#include "test.h"

static const uint32_t mpich[][4] = {
  {8, 2, 2, 2}, {9, 3, 3, 1}, {10, 5, 2, 1}, {11, 11, 1, 1}, {12, 3, 2, 2}, {13, 13, 1, 1},
  {14, 7, 2, 1}, {15, 5, 3, 1}, {16, 4, 2, 2}, {17, 17, 1, 1}, {18, 3, 3, 2}, {19, 19, 1, 1},
  {20, 5, 2, 2}, {21, 7, 3, 1}, {22, 11, 2, 1}, {23, 23, 1, 1}, {24, 4, 3, 2}, {25, 5, 5, 1},
  {26, 13, 2, 1}, {27, 3, 3, 3}, {28, 7, 2, 2}, {29, 29, 1, 1}, {30, 5, 3, 2}, {31, 31, 1, 1},
  {32, 4, 4, 2}, {33, 11, 3, 1}, {34, 17, 2, 1}, {35, 7, 5, 1}, {36, 4, 3, 3}, {37, 37, 1, 1},
  {38, 19, 2, 1}, {39, 13, 3, 1}, {40, 5, 4, 2}, {41, 41, 1, 1}, {42, 7, 3, 2}, {43, 43, 1, 1},
  {44, 11, 2, 2}, {45, 5, 3, 3}, {46, 23, 2, 1}, {47, 47, 1, 1}, {48, 4, 4, 3}, {49, 7, 7, 1},
  {50, 5, 5, 2}, {51, 17, 3, 1}, {52, 13, 2, 2}, {53, 53, 1, 1}, {54, 6, 3, 3}, {55, 11, 5, 1},
  {56, 7, 4, 2}, {57, 19, 3, 1}, {58, 29, 2, 1}, {59, 59, 1, 1}, {60, 5, 4, 3}, {61, 61, 1, 1},
  {62, 31, 2, 1}, {63, 7, 3, 3}, {64, 4, 4, 4}, {65, 13, 5, 1}, {66, 11, 3, 2}, {67, 67, 1, 1},
  {68, 17, 2, 2}, {69, 23, 3, 1}, {70, 7, 5, 2}, {71, 71, 1, 1}, {72, 6, 4, 3}, {73, 73, 1, 1},
  {74, 37, 2, 1}, {75, 5, 5, 3}, {76, 19, 2, 2}, {77, 11, 7, 1}, {78, 13, 3, 2}, {79, 79, 1, 1},
  {80, 5, 4, 4}, {81, 9, 3, 3}, {82, 41, 2, 1}, {83, 83, 1, 1}, {84, 7, 4, 3}, {85, 17, 5, 1},
  {86, 43, 2, 1}, {87, 29, 3, 1}, {88, 11, 4, 2}, {89, 89, 1, 1}, {90, 6, 5, 3}, {91, 13, 7, 1},
  {92, 23, 2, 2}, {93, 31, 3, 1}, {94, 47, 2, 1}, {95, 19, 5, 1}, {96, 6, 4, 4}, {97, 97, 1, 1},
  {98, 7, 7, 2}, {99, 11, 3, 3}, {100, 5, 5, 4}
};

static void test_dims3(void)
{
  for (size_t i = 0; i < sizeof mpich / sizeof mpich[0]; i++) {
    uint32_t d[3];
    mv__bg_dims3(mpich[i][0], d);
    for (int k = 0; k < 3; k++)
      ASSERT_INT_EQ((int)d[k], (int)mpich[i][k + 1]);
  }
}

/* 45 ranks = 5 x 3 x 3, rank r at (r / 9, r / 3 % 3, r % 3): rank 0 the first corner (region 0),
 * rank 44 the last (26); the interior (region 13: x 1..3, y 1, z 1) is ranks 13, 22, 31; the
 * face x first, y interior, z interior (region 4) is rank 4 alone; 12 ranks have x interior and
 * y, z at a corner of their plane (regions 9, 11, 15, 17: 3 each). */
static void test_regions(void)
{
  unsigned n[27] = {0};
  for (uint32_t r = 0; r < 45; r++)
    n[mv__bg_region(3, 45, r)]++;
  ASSERT_INT_EQ((int)mv__bg_region(3, 45, 0), 0);
  ASSERT_INT_EQ((int)mv__bg_region(3, 45, 44), 26);
  ASSERT_INT_EQ((int)mv__bg_region(3, 45, 13), 13);
  ASSERT_INT_EQ((int)mv__bg_region(3, 45, 22), 13);
  ASSERT_INT_EQ((int)mv__bg_region(3, 45, 31), 13);
  ASSERT_INT_EQ((int)n[13], 3);
  ASSERT_INT_EQ((int)n[4], 1);
  ASSERT_INT_EQ((int)(n[9] + n[11] + n[15] + n[17]), 12);
  for (unsigned k = 0; k < 27; k++)
    ASSERT_TRUE(n[k] > 0);
  ASSERT_STR_EQ(mv__bg_region_name(3, 13), "the interior");
}

static void test_terms(void)
{
  ASSERT_DOUBLE_NEAR(mv__bg_term(MV__BG_T_T2, 48), 3, 0);      /* 4 x 4 x 3 */
  ASSERT_DOUBLE_NEAR(mv__bg_term(MV__BG_T_T12, 48), 12, 0);
  ASSERT_DOUBLE_NEAR(mv__bg_term(MV__BG_T_T12, 45), 9, 0);     /* 5 x 3 x 3 */
  ASSERT_STR_EQ(mv__bg_term_name(MV__BG_T_T12), "(T1 * T2)");
}

int main(void)
{
  RUN_TEST(test_dims3);
  RUN_TEST(test_regions);
  RUN_TEST(test_terms);
  return TEST_EXIT();
}
