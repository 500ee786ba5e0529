/* Tests of message-size lists (mpivet-bench --msizes, `mpivet bench --msizes`): items, limits,
 * empty items, overflow, capacity, and the item named in the error. */
#include "test.h"
#include "mpivet/error.h"
#include "mpivet/sizelist.h"

static void test_lists(void)
{
  int64_t v[4];
  size_t n = 99;
  char bad[16] = "";
  ASSERT_INT_EQ(mv_size_list_parse("8,1024", v, 4, &n, bad, sizeof bad), 0);
  ASSERT_INT_EQ(n, 2);
  ASSERT_INT_EQ(v[0], 8);
  ASSERT_INT_EQ(v[1], 1024);
  ASSERT_INT_EQ(mv_size_list_parse(MV_BENCH_DEFAULT_MSIZES, v, 4, &n, bad, sizeof bad), 0);
  ASSERT_INT_EQ(n, 2);
  ASSERT_INT_EQ(mv_size_list_parse("0,2147483648", v, 4, &n, bad, sizeof bad), 0);  /* 2^31 */
  ASSERT_INT_EQ(v[1], 2147483648);
  static const struct { const char *text, *bad; } wrong[] = {
    {"8,abc", "abc"}, {"", ""}, {"8,", ""}, {",8", ""}, {"8,,9", ""}, {"-8", "-8"},
    {"2147483649", "2147483649"}, {"99999999999999999999999", "999999999999999"}, {"8 ", "8 "},
    {"1k", "1k"},
  };
  for (size_t i = 0; i < sizeof wrong / sizeof *wrong; i++) {
    ASSERT_INT_EQ(mv_size_list_parse(wrong[i].text, v, 4, &n, bad, sizeof bad), MV_EPARSE);
    ASSERT_STR_EQ(bad, wrong[i].bad);
  }
  ASSERT_INT_EQ(mv_size_list_parse("1,2,3,4,5", v, 4, &n, bad, sizeof bad), MV_ERANGE);
  ASSERT_INT_EQ(mv_size_list_parse("1,2,3,4", v, 4, &n, NULL, 0), 0);
  ASSERT_INT_EQ(n, 4);
}

int main(void)
{
  RUN_TEST(test_lists);
  return TEST_EXIT();
}
