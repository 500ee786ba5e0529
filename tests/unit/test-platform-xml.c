/* Hosts of a user SimGrid platform XML (platform-xml.c): hosts of <host>, <peer> and <cluster>
 * radicals in file order, the rules SimGrid 3.32 enforces at launch (checked by hand with
 * smpirun 3.32: its DOCTYPE, <platform version> 4 or 4.1, speed on every host, <host> inside a
 * <zone>), malformed XML with file:line:column, and the built-in platforms' own XML read back. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpivet/error.h"
#include "mpivet/platform.h"
#include "test.h"

#define HEAD "<?xml version='1.0'?>\n<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"

static int parse(const char *text, struct mv_platform_hosts *h, struct mv_error *err)
{
  return mv_platform_xml_hosts_parse(text, strlen(text), "p.xml", h, err);
}

static void test_hosts(void)
{
  struct mv_platform_hosts h;
  struct mv_error err;
  char name[64];
  const char *text = HEAD "<platform version=\"4.1\">\n <zone id=\"z\" routing=\"Full\">\n"
                     "  <!-- <host id=\"commented\" speed=\"1Gf\"/> -->\n"
                     "  <host id=\"a&amp;b\" speed=\"1Gf\"><prop id=\"k\" value=\"v\"/></host>\n"
                     "  <cluster id='c' prefix='n-' suffix='.x' radical='0-2,5' speed='1Gf' "
                     "bw='1GBps' lat='1us'/>\n  <peer id=\"p\" speed=\"2Gf\" bw_in=\"1\"/>\n"
                     " </zone>\n</platform>\n";
  ASSERT_INT_EQ(parse(text, &h, &err), 0);
  ASSERT_INT_EQ(h.count, 6);
  const char *want[] = {"a&b", "n-0.x", "n-1.x", "n-2.x", "n-5.x", "p"};
  for (long i = 0; i < 6; i++) {
    ASSERT_INT_EQ(mv_platform_hosts_name(&h, i, name, sizeof name), 0);
    ASSERT_STR_EQ(name, want[i]);
    ASSERT_INT_EQ(mv_platform_hosts_has(&h, want[i]), 1);
  }
  ASSERT_INT_EQ(mv_platform_hosts_name(&h, 6, name, sizeof name), MV_ERANGE);
  const char *absent[] = {"n-3.x", "n-05.x", "n-.x", "n-1", "commented", "a"};
  for (size_t i = 0; i < sizeof absent / sizeof absent[0]; i++)
    ASSERT_INT_EQ(mv_platform_hosts_has(&h, absent[i]), 0);
  mv_platform_hosts_release(&h);
}

/* Each bad file: MV_EPARSE, and the message names the place and the fault. */
static void test_errors(void)
{
  static const char *const bad[][2] = {
    {"", "p.xml:1:1: expected a <platform> element"},
    {"<platform version=\"4.1\"/>", "p.xml:1:1: expected <!DOCTYPE platform"},
    {"<!DOCTYPE platform SYSTEM \"simgrid.dtd\">", "p.xml:1:1: expected <!DOCTYPE platform"},
    {HEAD "<platform version=\"3\"/>", "p.xml:3:1: platform version \"3\""},
    {HEAD "<platform>", "p.xml:3:1: <platform> without the version attribute"},
    {HEAD "<zone/>", "p.xml:3:1: expected <platform>, got <zone>"},
    {HEAD "<platform version=\"4.1\">\n<zone id=\"z\">\n<host id=\"a\"/>\n</zone></platform>",
     "p.xml:5:1: <host> without the speed attribute"},
    {HEAD "<platform version=\"4.1\"><host id=\"a\" speed=\"1Gf\"/></platform>",
     "p.xml:3:25: <host> inside <platform>"},
    {HEAD "<platform version=\"4.1\"><zone id=\"z\"><host id=\"a\" speed=\"fast\"/></zone></platform>",
     "<host> speed: expected a number"},
    {HEAD "<platform version=\"4.1\"><zone id=\"z\"></platform>", "p.xml:3:38: expected </zone>, got </platform>"},
    {HEAD "<platform version=\"4.1\">\n<zone id=\"z\">", "expected </zone> (opened at line 4), got the end"},
    {HEAD "<platform version=\"4.1\"><zone id=z>", "p.xml:3:34: expected a quoted value for id"},
    {HEAD "<platform version=\"4.1\"><zone id=\"z", "p.xml:3:34: unterminated value of id"},
    {HEAD "<platform version=\"4.1\"><!-- x", "p.xml:3:25: unterminated comment"},
    {HEAD "<platform version=\"4.1\">text</platform>", "p.xml:3:25: expected a tag, got \"text"},
    {HEAD "<platform version=\"4.1\"><zone id=\"a&b\"/></platform>", "expected an entity"},
    {HEAD "<platform version=\"4.1\"><cluster id=\"c\" prefix=\"n\" suffix=\"\" radical=\"3-1\" "
          "speed=\"1Gf\" bw=\"1Bps\" lat=\"1s\"/></platform>", "radical: expected N or N-M"},
    {HEAD "<platform version=\"4.1\"><cluster id=\"c\" prefix=\"n\" radical=\"0-1\" "
          "speed=\"1Gf\" bw=\"1Bps\" lat=\"1s\"/></platform>", "without the suffix attribute"},
    {HEAD "<platform version=\"4.1\"><cluster id=\"c\" prefix=\"n\" suffix=\"\" radical=\"0-2000000\" "
          "speed=\"1Gf\" bw=\"1Bps\" lat=\"1s\"/></platform>", "radical: expected N or N-M"},
    {HEAD "<platform version=\"4.1\"><zone id=\"z\" routing=\"Full\"/></platform>", "no host"},
    {HEAD "<platform version=\"4.1\"/><platform version=\"4.1\"/>", "content after the end"},
    {HEAD "</zone>", "p.xml:3:1: </zone> closes no element"},
    {"\x7f\x45LF\x01\x02", "p.xml:1:1: expected a tag, got \"?ELF??\""},
  };
  struct mv_platform_hosts h;
  struct mv_error err;
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    int rc = parse(bad[i][0], &h, &err);
    if (rc != MV_EPARSE || !strstr(mv_test_errtext(&err), bad[i][1]))
      fprintf(stderr, "case %zu: rc %d, err \"%s\", want \"%s\"\n", i, rc, mv_test_errtext(&err),
              bad[i][1]);
    ASSERT_INT_EQ(rc, MV_EPARSE);
    ASSERT_TRUE(strstr(mv_test_errtext(&err), bad[i][1]) != NULL);
  }
}

/* Nested deeper than the scanner allows: refused, not a stack overflow. */
static void test_deep(void)
{
  size_t n = 100000;
  char *text = malloc(sizeof HEAD + 30 + n * 7);
  ASSERT_TRUE(text != NULL);
  char *p = text + sprintf(text, "%s<platform version=\"4.1\">", HEAD);
  for (size_t i = 0; i < n; i++)
    p += sprintf(p, "<zone>");
  struct mv_platform_hosts h;
  struct mv_error err;
  ASSERT_INT_EQ(parse(text, &h, &err), MV_EPARSE);
  ASSERT_TRUE(strstr(mv_test_errtext(&err), "nested deeper than") != NULL);
  free(text);
}

/* mpivet's own built-in platforms read back with their host count. */
static void test_builtin_roundtrip(void)
{
  const char *specs[] = {"cluster:5", "fattree:16", "torus:2x3", "dragonfly:2,2,2,2"};
  for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++) {
    struct mv_platform p;
    struct mv_platform_hosts h;
    struct mv_error err;
    char *buf = NULL, name[32];
    size_t len = 0;
    ASSERT_INT_EQ(mv_platform_parse(specs[i], &p, &err), 0);
    FILE *fp = open_memstream(&buf, &len);
    ASSERT_INT_EQ(mv_platform_write_xml(&p, fp), 0);
    fclose(fp);
    int rc = mv_platform_xml_hosts_parse(buf, len, specs[i], &h, &err);
    if (rc)
      fprintf(stderr, "%s: %s\n", specs[i], mv_test_errtext(&err));
    ASSERT_INT_EQ(rc, 0);
    ASSERT_INT_EQ(h.count, p.hosts);
    ASSERT_INT_EQ(mv_platform_hosts_name(&h, p.hosts - 1, name, sizeof name), 0);
    char want[32];
    mv_platform_host_name(p.hosts - 1, want, sizeof want);
    ASSERT_STR_EQ(name, want);
    mv_platform_hosts_release(&h);
    free(buf);
  }
}

static void test_missing_file(void)
{
  struct mv_platform_hosts h;
  struct mv_error err;
  ASSERT_INT_EQ(mv_platform_xml_hosts("/nonexistent/p.xml", &h, &err), MV_ENOENT);
  ASSERT_STR_EQ(mv_test_errtext(&err), "/nonexistent/p.xml: No such file or directory");
  ASSERT_INT_EQ(mv_platform_xml_hosts("/", &h, &err) < 0, 1);
}

/* Ranks to hosts: one per host wrapping around, or ppn consecutive ranks per host. */
static void test_rank_host(void)
{
  ASSERT_INT_EQ(mv_platform_rank_host(3, 0, 4), 1);
  ASSERT_INT_EQ(mv_platform_rank_host(3, 2, 4), 2);
  ASSERT_INT_EQ(mv_platform_rank_host(0, 0, 4), 0);
}

int main(void)
{
  RUN_TEST(test_hosts);
  RUN_TEST(test_errors);
  RUN_TEST(test_deep);
  RUN_TEST(test_builtin_roundtrip);
  RUN_TEST(test_missing_file);
  RUN_TEST(test_rank_host);
  return TEST_EXIT();
}
