/* Tests of the printed units (mpivet/units.h): per value and per axis, seconds with SI prefixes,
 * bytes with binary ones (1 KiB = 1024 B, IEC 80000-13); expected texts worked out by hand. */
#include "test.h"
#include "mpivet/units.h"

static void test_format(void)
{
  static const struct {
    enum mv_unit_kind kind;
    double v;
    const char *want;
  } cases[] = {
    {MV_UNIT_SECONDS, 16.35e-6, "16.4 µs"}, {MV_UNIT_SECONDS, 0.0045, "4.5 ms"},
    {MV_UNIT_SECONDS, 2, "2 s"}, {MV_UNIT_SECONDS, 3600, "3600 s"},
    {MV_UNIT_SECONDS, 0, "0 s"}, {MV_UNIT_SECONDS, 5e-10, "0.5 ns"},
    {MV_UNIT_SECONDS, 512.4e-6, "512 µs"}, {MV_UNIT_SECONDS, 999.7e-6, "1000 µs"},
    {MV_UNIT_SECONDS, -2.5e-3, "-2.5 ms"},
    {MV_UNIT_BYTES, 800, "800 B"}, {MV_UNIT_BYTES, 1023, "1023 B"}, {MV_UNIT_BYTES, 1024, "1 KiB"},
    {MV_UNIT_BYTES, 1536, "1.5 KiB"}, {MV_UNIT_BYTES, 65536, "64 KiB"},
    {MV_UNIT_BYTES, 1048575, "1024 KiB"}, {MV_UNIT_BYTES, 3 * 1048576.0, "3 MiB"},
    {MV_UNIT_BYTES, 0, "0 B"}, {MV_UNIT_BYTES, 5 * 1073741824.0, "5 GiB"},
    {MV_UNIT_NONE, 1.5, "1.5"},
  };
  char buf[MV_UNITS_SIZE];
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
    ASSERT_STR_EQ(mv_units_format(cases[i].kind, cases[i].v, buf, sizeof buf), cases[i].want);
}

static void test_metric_and_axis(void)
{
  ASSERT_INT_EQ(mv_units_of_metric("time_s"), MV_UNIT_SECONDS);
  ASSERT_INT_EQ(mv_units_of_metric("rss_bytes"), MV_UNIT_BYTES);
  ASSERT_INT_EQ(mv_units_of_metric("mem_bytes"), MV_UNIT_BYTES);
  ASSERT_INT_EQ(mv_units_of_metric("visits"), MV_UNIT_NONE);
  ASSERT_INT_EQ(mv_units_of_metric(NULL), MV_UNIT_NONE);
  double f;
  ASSERT_STR_EQ(mv_units_axis(MV_UNIT_SECONDS, 34.4e-6, &f), "µs");
  ASSERT_DOUBLE_REL(f, 1e6, 1e-12);
  ASSERT_STR_EQ(mv_units_axis(MV_UNIT_SECONDS, 1.2, &f), "s");
  ASSERT_STR_EQ(mv_units_axis(MV_UNIT_BYTES, 2e6, &f), "MiB");
  ASSERT_DOUBLE_REL(f, 1.0 / 1048576, 1e-12);
  ASSERT_STR_EQ(mv_units_axis(MV_UNIT_NONE, 7, &f), "");
  ASSERT_DOUBLE_REL(f, 1, 0);
  ASSERT_INT_EQ(mv_units_pad(11, "16.4 µs"), 12);  /* 8 bytes, 7 columns */
  ASSERT_INT_EQ(mv_units_pad(11, "4.5 ms"), 11);
}

int main(void)
{
  RUN_TEST(test_format);
  RUN_TEST(test_metric_and_axis);
  return TEST_EXIT();
}
