/* The matching check's state (check.c: point-to-point, collectives, the run; check-rma.c:
 * post/start/complete/wait epochs and passive-target locks). Counters live in one open-addressing
 * table of 64-bit keys (hashes of what they count) with two counters each. */
#ifndef MPIVET_BENCHGEN_CHECK_H
#define MPIVET_BENCHGEN_CHECK_H

#include <stddef.h>
#include <stdint.h>

#include "internal.h"

/* The check refuses a trace whose per-rank tables (request slots, communicator numbers) would
 * take more than this many bytes in all, rather than fail to allocate them. */
#define MV__BG_CHECK_MAX_BYTES 1e9

struct view { long inst; size_t n, me; const uint32_t *m; };   /* a rank's communicator */
/* A posted operation or a collective (key: hash). recv 0: done when the key's receive counter
 * passes ord; 1: when its send counter passes ord; 2: a collective, when ord members arrived. */
struct pend { uint64_t key, ord; int recv, live; };
/* The post and start groups (world ranks) of a rank's open epochs on window w. */
struct wgroups { uint32_t w; uint32_t *grp[2]; size_t n[2]; };
struct rank {
  struct mv__bg_iter it;
  long sig;
  int stage, done;
  uint64_t calls;
  struct pend *slots, tmp[2];
  uint64_t *ncoll;                                              /* per instance */
  struct pend *wait; size_t nwait, capwait;                     /* one-sided: what the call waits for */
  struct wgroups *wg; size_t nwg;
};
struct sim {
  const struct mv_mvt *t;
  uint32_t nsyms;
  size_t ninst, nslots;                                          /* instance 0 world, 1+i comms[i] */
  struct view *views;                                            /* rank * nsyms + sym */
  struct rank *ranks;
  uint64_t *keys, *sends, *recvs;                                /* open addressing */
  size_t nkeys, capkeys;
  char *msg;
  size_t msgsize;
};

uint64_t mv__bg_hkey(long inst, uint32_t src, uint32_t dst, uint64_t tag);
/* The counter index of hash h, made if new; -1 when out of memory (indices move when the table
 * grows: keep hashes, look them up again with mv__bg_find). */
long mv__bg_key(struct sim *s, uint64_t h);
size_t mv__bg_find(const struct sim *s, uint64_t h);
int mv__bg_matched(const struct sim *s, const struct pend *p);
/* Rank r's view of communicator sym (NULL when it has no such communicator); m NULL: itself. */
const struct view *mv__bg_view(const struct sim *s, uint32_t r, uint32_t sym);
/* One one-sided synchronisation call of rank r (post, start, complete, wait, test, lock,
 * unlock, flush, sync): 1 done, 0 blocked, < 0 an error (msg set). */
int mv__bg_check_rma(struct sim *s, uint32_t r, const struct mv_mvt_sig *g);
void mv__bg_check_rma_release(struct rank *R);

#endif
