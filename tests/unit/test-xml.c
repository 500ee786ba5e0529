/* The XML/HTML escaper (util/xml.c). Known answers from the XML 1.0 specification: section 2.4
 * (& and < must be escaped in character data; &gt; &quot; &apos; are the predefined entities)
 * and section 2.2 (Char: tab, newline, carriage return and 0x20 upward; other controls are not
 * allowed anywhere in a document). */
#include <stdio.h>
#include <stdlib.h>

#include "mpivet/xml.h"
#include "test.h"

static char *escaped(const char *s)
{
  static char out[256];
  out[0] = '\0';
  FILE *fp = fmemopen(out, sizeof out, "w");
  if (!fp)
    return NULL;
  mv_xml_escape(fp, s);
  fclose(fp);
  return out;
}

static void test_entities(void)
{
  ASSERT_STR_EQ(escaped("MPI_Allreduce"), "MPI_Allreduce");
  ASSERT_STR_EQ(escaped("a<b && c>d"), "a&lt;b &amp;&amp; c&gt;d");
  ASSERT_STR_EQ(escaped("say \"it's\""), "say &quot;it&apos;s&quot;");
  ASSERT_STR_EQ(escaped("&amp;"), "&amp;amp;");   /* already-escaped text is escaped again */
  ASSERT_STR_EQ(escaped(""), "");
  ASSERT_STR_EQ(escaped(NULL), "");
}

static void test_controls(void)
{
  ASSERT_STR_EQ(escaped("a\tb\nc\rd"), "a\tb\nc\rd");
  ASSERT_STR_EQ(escaped("x\001y\033z\037"), "xyz");
  ASSERT_STR_EQ(escaped("\xce\xb4(p) \xc2\xb2"), "\xce\xb4(p) \xc2\xb2");   /* δ(p) ² in UTF-8 */
}

int main(void)
{
  RUN_TEST(test_entities);
  RUN_TEST(test_controls);
  return TEST_EXIT();
}
