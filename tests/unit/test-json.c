/* Unit tests of the JSON writer: nesting, commas, escaping and non-finite numbers. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "mpivet/json.h"
#include "test.h"

static void test_compact(void)
{
  char *buf = NULL;
  size_t len = 0;
  FILE *fp = open_memstream(&buf, &len);
  struct mv_json j;
  mv_json_init(&j, fp, 0);
  mv_json_array_begin(&j);
  mv_json_object_begin(&j);
  mv_json_kv_string(&j, "callpath", "MPI_\"Bcast\"\n");
  mv_json_kv_number(&j, "ar2", 0.5);
  mv_json_kv_number(&j, "nan", NAN);
  mv_json_key(&j, "terms");
  mv_json_array_begin(&j);
  mv_json_int(&j, 1);
  mv_json_bool(&j, 0);
  mv_json_null(&j);
  mv_json_array_end(&j);
  mv_json_key(&j, "empty");
  mv_json_object_begin(&j);
  mv_json_object_end(&j);
  mv_json_object_end(&j);
  mv_json_string(&j, "\x01");
  mv_json_array_end(&j);
  ASSERT_INT_EQ(mv_json_finish(&j), 0);
  fclose(fp);
  ASSERT_STR_EQ(buf, "[{\"callpath\":\"MPI_\\\"Bcast\\\"\\n\",\"ar2\":0.5,\"nan\":null,"
                     "\"terms\":[1,false,null],\"empty\":{}},\"\\u0001\"]\n");
  free(buf);
}

int main(void)
{
  RUN_TEST(test_compact);
  return TEST_EXIT();
}
