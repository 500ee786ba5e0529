/* The analysis page (html.c) and its script (html-script.c). */
#ifndef MV_ANALYZE_HTML_H
#define MV_ANALYZE_HTML_H

extern const char mv__html_script[];

#endif
