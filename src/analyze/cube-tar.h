/* Growable byte buffers and a minimal ustar archive writer (regular files only), enough for
 * the .cubex container of the CUBE4 report (cube.c). */
#ifndef MV_ANALYZE_CUBE_TAR_H
#define MV_ANALYZE_CUBE_TAR_H

#include <stddef.h>
#include <stdio.h>

struct mv__membuf {
  char *data;
  size_t len, cap;
  int err;   /* an allocation failed: the content is incomplete */
};
void mv__membuf_init(struct mv__membuf *b);
void mv__membuf_add(struct mv__membuf *b, const void *p, size_t n);
void mv__membuf_release(struct mv__membuf *b);

struct mv__tar {
  FILE *fp;
};
void mv__tar_init(struct mv__tar *t, FILE *fp);
/* Appends a file (name < 100 bytes, mode 0644, time 0 so that reports are reproducible). */
int mv__tar_add(struct mv__tar *t, const char *name, const void *data, size_t len);
/* The two zero blocks that end an archive; MV_EIO when the stream failed. */
int mv__tar_finish(struct mv__tar *t);

#endif
