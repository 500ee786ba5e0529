/* Built-in SimGrid platforms: spec parsing (host counts, SimGrid topo_parameters as documented
 * in SimGrid 3.32 "Cluster topologies": FAT_TREE "levels;down;up;links", TORUS "A,B,C",
 * DRAGONFLY "G,l;C,l;R,l;N"), the XML and the hostfile placement. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpivet/error.h"
#include "mpivet/platform.h"
#include "test.h"

static void test_shapes(void)
{
  struct mv_platform p;
  struct mv_error err;
  ASSERT_INT_EQ(mv_platform_parse("cluster:64", &p, &err), 0);
  ASSERT_INT_EQ(p.hosts, 64);
  ASSERT_INT_EQ(p.kind, MV_PLATFORM_CLUSTER);
  ASSERT_INT_EQ(mv_platform_parse("torus:4x4x2", &p, &err), 0);
  ASSERT_INT_EQ(p.hosts, 32);
  ASSERT_STR_EQ(p.topo, "4,4,2");
  ASSERT_INT_EQ(mv_platform_parse("dragonfly:3,4,5,2", &p, &err), 0);
  ASSERT_INT_EQ(p.hosts, 120);
  ASSERT_STR_EQ(p.topo, "3,1;4,1;5,1;2");
  /* 256 = 16 * 16: leaves of 16 hosts, 16 leaves, 16 top switches */
  ASSERT_INT_EQ(mv_platform_parse("fattree:256", &p, &err), 0);
  ASSERT_INT_EQ(p.hosts, 256);
  ASSERT_STR_EQ(p.topo, "2;16,16;1,16;1,1");
  ASSERT_INT_EQ(mv_platform_parse("fattree:2;4,4;1,2;1,2", &p, &err), 0);
  ASSERT_INT_EQ(p.hosts, 16);
  ASSERT_STR_EQ(p.topo, "2;4,4;1,2;1,2");
}

static void test_options(void)
{
  struct mv_platform p;
  struct mv_error err;
  ASSERT_INT_EQ(mv_platform_parse("cluster:8,bw=1GBps,lat=5us,cores=4", &p, &err), 0);
  ASSERT_INT_EQ(p.hosts, 8);
  ASSERT_STR_EQ(p.bw, "1GBps");
  ASSERT_STR_EQ(p.lat, "5us");
  ASSERT_INT_EQ(p.cores, 4);
}

static void test_errors(void)
{
  struct mv_platform p;
  struct mv_error err;
  const char *bad[] = {"cluster", "cluster:0", "cluster:abc", "mesh:4", "torus:4x0", "torus:2x2x2x2",
                       "dragonfly:1,2,3", "fattree:3;4,4;1,2;1,2", "cluster:4,color=red",
                       "cluster:2000000"};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    int rc = mv_platform_parse(bad[i], &p, &err);
    if (rc != MV_EPARSE)
      fprintf(stderr, "spec %s accepted\n", bad[i]);
    ASSERT_INT_EQ(rc, MV_EPARSE);
    ASSERT_TRUE(strstr(mv_test_errtext(&err), "expected") != NULL);
  }
}

static void test_xml_and_hostfile(void)
{
  struct mv_platform p;
  struct mv_error err;
  char buf[4096];
  ASSERT_INT_EQ(mv_platform_parse("torus:2x2x2", &p, &err), 0);
  FILE *fp = fmemopen(buf, sizeof buf, "w");
  ASSERT_INT_EQ(mv_platform_write_xml(&p, fp), 0);
  fclose(fp);
  ASSERT_TRUE(strstr(buf, "<platform version=\"4.1\">") != NULL);
  ASSERT_TRUE(strstr(buf, "radical=\"0-7\"") != NULL);
  ASSERT_TRUE(strstr(buf, "topology=\"TORUS\" topo_parameters=\"2,2,2\"") != NULL);
  /* 6 ranks, 2 per host: node-0 node-0 node-1 node-1 node-2 node-2 */
  fp = fmemopen(buf, sizeof buf, "w");
  ASSERT_INT_EQ(mv_platform_write_hostfile(&p, 6, 2, fp), 0);
  fclose(fp);
  ASSERT_STR_EQ(buf, "node-0\nnode-0\nnode-1\nnode-1\nnode-2\nnode-2\n");
  /* ppn 0 wraps around the 8 hosts */
  fp = fmemopen(buf, sizeof buf, "w");
  ASSERT_INT_EQ(mv_platform_write_hostfile(&p, 10, 0, fp), 0);
  fclose(fp);
  ASSERT_TRUE(strncmp(buf + strlen(buf) - 14, "node-0\nnode-1\n", 14) == 0);
  fp = fmemopen(buf, sizeof buf, "w");
  ASSERT_INT_EQ(mv_platform_write_hostfile(&p, 17, 2, fp), MV_ERANGE);
  fclose(fp);
}

int main(void)
{
  RUN_TEST(test_shapes);
  RUN_TEST(test_options);
  RUN_TEST(test_errors);
  RUN_TEST(test_xml_and_hostfile);
  return TEST_EXIT();
}
