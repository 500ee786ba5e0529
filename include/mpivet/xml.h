/* Escaping text for XML and HTML (element content and quoted attribute values): the one
 * escaper of report.html, the JUnit XML of `mpivet regress` and the CUBE4 file of the analyzer. */
#ifndef MPIVET_XML_H
#define MPIVET_XML_H

#include <stdio.h>

/* Write s to fp with & < > " ' as entities (&amp; &lt; &gt; &quot; &apos;); control characters
 * that XML 1.0 forbids (below 0x20 except tab, newline, carriage return) are left out. NULL
 * writes nothing. Other bytes, UTF-8 included, pass unchanged. */
void mv_xml_escape(FILE *fp, const char *s);

#endif
