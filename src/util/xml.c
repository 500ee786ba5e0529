/* The one XML/HTML text escaper (include/mpivet/xml.h). */
#include "mpivet/xml.h"

void mv_xml_escape(FILE *fp, const char *s)
{
  for (; s && *s; s++)
    switch (*s) {
    case '<': fputs("&lt;", fp); break;
    case '>': fputs("&gt;", fp); break;
    case '&': fputs("&amp;", fp); break;
    case '"': fputs("&quot;", fp); break;
    case '\'': fputs("&apos;", fp); break;
    default:
      if ((unsigned char)*s >= 0x20 || *s == '\t' || *s == '\n' || *s == '\r')
        fputc(*s, fp);
    }
}
