/* mv-otf2-synth: writes synthetic OTF2 archives for the analyzer's benchmark and tests, and
 * measures the floor of reading an archive with OTF2's reader and empty callbacks.
 *   mv-otf2-synth stencil DIR RANKS ITERS [SLOW_NS]   2-D halo exchange with user regions
 *   mv-otf2-synth read-floor DIR/traces.otf2          events/s of a plain global read */
#include <math.h>
#include <otf2/otf2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpivet/progress.h"
#include "synth.h"

/* Per iteration and rank: compute (2 nested user regions), 4 Isend + 1 Waitall of 4 receives
 * with neighbours on a ring-of-rings grid, and an Allreduce every 10 iterations. */
static int stencil(const char *dir, int nranks, long iters, long slow)
{
  struct mv__synth *s = mv__synth_open(dir, nranks, 0);
  if (!s)
    return 1;
  int px = (int)sqrt((double)nranks);
  while (nranks % px)
    px--;
  int py = nranks / px;
  for (int r = 0; r < nranks; r++) {
    int x = r % px, y = r / px;
    int nb[4] = {y * px + (x + 1) % px, y * px + (x + px - 1) % px, ((y + 1) % py) * px + x,
                 ((y + py - 1) % py) * px + x};
    int tags[4] = {0, 1, 2, 3}, rtags[4] = {1, 0, 3, 2};
    uint64_t t = 1000;
    mv__synth_enter(s, r, t, "main");
    for (long i = 0; i < iters; i++) {
      /* everyone's step takes 100 us; rank 0 is slower by `slow` */
      uint64_t step = 100000 + (r == 0 ? (uint64_t)slow : 0), start = 1000 + (uint64_t)i * (200000 + slow);
      t = start + 10;
      mv__synth_enter(s, r, t, "iteration");
      mv__synth_enter(s, r, t + 1, "compute");
      mv__synth_enter(s, r, t + 2, "kernel");
      mv__synth_leave(s, r, t + step - 2, "kernel");
      mv__synth_leave(s, r, t + step - 1, "compute");
      t += step;
      for (int k = 0; k < 4; k++, t += 1000)
        mv__synth_isend(s, r, t, t + 500, nb[k], tags[k]);
      uint64_t done = start + 10 + 100000 + (uint64_t)slow + 6000;
      mv__synth_waitall(s, r, t, done > t ? done : t + 100, 4, nb, rtags);
      t = (done > t ? done : t + 100) + 10;
      if (i % 10 == 9) {
        mv__synth_coll(s, r, t, start + 200000 + (uint64_t)slow - 100, "MPI_Allreduce", 11, -1);
      }
      mv__synth_leave(s, r, start + 200000 + (uint64_t)slow - 50, "iteration");
    }
    mv__synth_leave(s, r, 1000 + (uint64_t)iters * (200000 + slow) + 100, "main");
  }
  return mv__synth_close(s) ? 1 : 0;
}

static OTF2_CallbackCode count_event(OTF2_LocationRef l, OTF2_TimeStamp t, void *u,
                                     OTF2_AttributeList *al, OTF2_RegionRef region)
{
  (void)l, (void)t, (void)al, (void)region;
  ++*(uint64_t *)u;
  return OTF2_CALLBACK_SUCCESS;
}

/* The floor: open every location and read all events globally with trivial callbacks. */
static int read_floor(const char *anchor)
{
  double t0 = mv_now();
  OTF2_Reader *rd = OTF2_Reader_Open(anchor);
  if (!rd)
    return 1;
  OTF2_Reader_SetSerialCollectiveCallbacks(rd);
  uint64_t nloc = 0, count = 0, n;
  OTF2_Reader_GetNumberOfLocations(rd, &nloc);
  for (uint64_t i = 0; i < nloc; i++)
    OTF2_Reader_SelectLocation(rd, i);
  OTF2_Reader_OpenEvtFiles(rd);
  for (uint64_t i = 0; i < nloc; i++)
    OTF2_Reader_GetEvtReader(rd, i);
  OTF2_GlobalEvtReader *g = OTF2_Reader_GetGlobalEvtReader(rd);
  OTF2_GlobalEvtReaderCallbacks *cb = OTF2_GlobalEvtReaderCallbacks_New();
  OTF2_GlobalEvtReaderCallbacks_SetEnterCallback(cb, count_event);
  OTF2_GlobalEvtReaderCallbacks_SetLeaveCallback(cb, count_event);
  OTF2_Reader_RegisterGlobalEvtCallbacks(rd, g, cb, &count);
  OTF2_Reader_ReadAllGlobalEvents(rd, g, &n);
  OTF2_GlobalEvtReaderCallbacks_Delete(cb);
  OTF2_Reader_CloseGlobalEvtReader(rd, g);
  OTF2_Reader_Close(rd);
  double dt = mv_now() - t0;
  printf("read-floor: %llu events (%llu with callbacks) in %.3f s = %.2f M events/s\n", (unsigned long long)n,
         (unsigned long long)count, dt, (double)n / dt / 1e6);
  return 0;
}

int main(int argc, char **argv)
{
  if (argc >= 5 && !strcmp(argv[1], "stencil"))
    return stencil(argv[2], atoi(argv[3]), atol(argv[4]), argc > 5 ? atol(argv[5]) : 0);
  if (argc == 3 && !strcmp(argv[1], "read-floor"))
    return read_floor(argv[2]);
  fprintf(stderr, "usage: mv-otf2-synth stencil DIR RANKS ITERS [SLOW_NS]\n"
                  "       mv-otf2-synth read-floor DIR/traces.otf2\n");
  return 2;
}
