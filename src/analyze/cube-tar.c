/* Growable byte buffers and a minimal ustar (POSIX.1-1988) archive writer: one 512-byte header
 * per file (octal fields, checksum over the header with the checksum field as spaces), the
 * content padded to 512 bytes, two zero blocks at the end. */
#include <stdlib.h>
#include <string.h>

#include "cube-tar.h"
#include "mpivet/error.h"
#include "mpivet/grow.h"

void mv__membuf_init(struct mv__membuf *b)
{
  memset(b, 0, sizeof *b);
}

void mv__membuf_add(struct mv__membuf *b, const void *p, size_t n)
{
  if (b->err)
    return;
  if (mv_grow(&b->data, &b->cap, b->len + n, 1, 4096) < 0) {
    b->err = 1;
    return;
  }
  memcpy(b->data + b->len, p, n);
  b->len += n;
}

void mv__membuf_release(struct mv__membuf *b)
{
  free(b->data);
  memset(b, 0, sizeof *b);
}

void mv__tar_init(struct mv__tar *t, FILE *fp)
{
  t->fp = fp;
}

int mv__tar_add(struct mv__tar *t, const char *name, const void *data, size_t len)
{
  unsigned char h[512] = {0};
  if (strlen(name) >= 100)
    return MV_ERANGE;
  memcpy(h, name, strlen(name));
  snprintf((char *)h + 100, 8, "%07o", 0644);
  snprintf((char *)h + 108, 8, "%07o", 0);
  snprintf((char *)h + 116, 8, "%07o", 0);
  snprintf((char *)h + 124, 12, "%011llo", (unsigned long long)len);
  snprintf((char *)h + 136, 12, "%011o", 0);
  h[156] = '0';
  memcpy(h + 257, "ustar", 6);
  memcpy(h + 263, "00", 2);
  memset(h + 148, ' ', 8);
  unsigned sum = 0;
  for (size_t i = 0; i < sizeof h; i++)
    sum += h[i];
  snprintf((char *)h + 148, 8, "%06o", sum);   /* six digits, NUL, and the space left there */
  static const char zeros[512];
  size_t pad = (512 - len % 512) % 512;
  if (fwrite(h, 1, sizeof h, t->fp) != sizeof h || fwrite(data, 1, len, t->fp) != len ||
      fwrite(zeros, 1, pad, t->fp) != pad)
    return MV_EIO;
  return 0;
}

int mv__tar_finish(struct mv__tar *t)
{
  static const char zeros[1024];
  if (fwrite(zeros, 1, sizeof zeros, t->fp) != sizeof zeros || fflush(t->fp) != 0 || ferror(t->fp))
    return MV_EIO;
  return 0;
}
