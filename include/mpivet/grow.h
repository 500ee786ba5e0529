/* Growing arrays and whole-file reads, the two bits of memory plumbing every parser needs:
 * one implementation instead of a realloc loop in each component. */
#ifndef MPIVET_GROW_H
#define MPIVET_GROW_H

#include <stddef.h>
#include <stdio.h>

/* Make room for `need` elements of `elem` bytes in *ptr (capacity *cap, doubled as needed,
 * at least `min_cap`). Returns 0 or MV_ENOMEM (then *ptr and *cap are unchanged). */
int mv_grow(void *ptr, size_t *cap, size_t need, size_t elem, size_t min_cap);

/* mv_grow for an array that keeps no capacity: its capacity is implied by its length n, the
 * least power of two >= n (0 for n == 0), which is what mv_grow with min_cap 1 leaves. */
int mv_grow_implied(void *ptr, size_t n, size_t need, size_t elem);

/* Read the whole stream into a NUL-terminated malloc'd buffer (*len excludes the NUL).
 * A stream that is not a regular file (a pipe, /dev/zero, /dev/full) may be endless: past
 * MV_READ_STREAM_MAX bytes it is refused. Returns 0, MV_ENOMEM, MV_EIO or MV_ERANGE (such a
 * stream, too long); the stream stays open. */
#define MV_READ_STREAM_MAX ((size_t)64 << 20)
int mv_read_stream(FILE *fp, char **buf, size_t *len);

struct mv_error;
/* Read the file at path whole, as mv_read_stream; max > 0 refuses a larger file. Returns 0,
 * MV_ENOENT (no such file), MV_EIO (cannot open or read), MV_ERANGE (larger than max, or an
 * endless stream as above) or MV_ENOMEM, with the reason in e ("PATH: No such file or directory", "PATH: read error"). */
int mv_read_file(const char *path, size_t max, char **buf, size_t *len, struct mv_error *e);
/* A parser of a whole text: ctx is the parser's object, name the text's name in messages. */
typedef int mv_text_parser(void *ctx, const char *name, const char *text, size_t len,
                           struct mv_error *e);
/* mv_read_file, then parse(ctx, path, text, len, e): the one read-then-parse of every file
 * reader. Returns mv_read_file's error or parse's value. */
int mv_parse_file(const char *path, size_t max, mv_text_parser *parse, void *ctx,
                  struct mv_error *e);

#endif
