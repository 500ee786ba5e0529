/* The analysis result (struct mv_analysis) and how per-process parts are packed, merged on
 * process 0 into one call tree and finalized (own values of the MPI category metrics). */
#ifndef MV_ANALYZE_RESULT_H
#define MV_ANALYZE_RESULT_H

#include "internal.h"

/* The analysis passes timed for --verbose; names in mv__pass_names. */
enum { MV__PASS_REPLAY, MV__PASS_MERGE, MV__PASS_ROOTCAUSE, MV__PASS_CRITPATH, MV__PASS_COUNT };
extern const char *const mv__pass_names[MV__PASS_COUNT];
double mv__now(void);   /* monotonic wall clock, seconds */

struct mv_analysis {
  uint64_t resolution, events, unmatched;
  int partial;
  char note[200];
  uint32_t nloc, nranks;
  uint32_t *loc_rank;
  struct mv__tree tree;     /* global call tree; region refs index names[] */
  char **names;             /* region ref -> name */
  uint8_t *classes;         /* region ref -> enum mv__rclass */
  uint32_t nregions;
  struct mv__store values;  /* (metric, loc, cp) -> own value */
  struct mv__map sites;     /* call-site hash -> index in site_labels */
  char **site_labels;       /* "module+0xoffset(symbol)" from the archive's callsites.txt */
  uint32_t nsites;
  double explained;         /* waiting time explained by the delay costs (ticks) */
  double pass_sec[MV__PASS_COUNT];   /* wall time of each pass (mv_analysis_pass_time) */
  /* kept for the reports after the passes: the call-path timelines of the locations, the wait
   * states with their causes and the messages, the critical path, who waited for which delay */
  struct mv__tlset *tls;
  struct mv__causes causes;
  struct mv__tlset *cpath;  /* struct mv__cpseg, from the end backwards, location 0 */
  struct mv__vec blames;    /* struct mv__blame */
};

struct mv__part_hdr {
  uint64_t events, unmatched, nquads;
  uint32_t truncated, ntree;
  char note[160];
};

/* Pack this process's call tree and values (patterns and raw exclusive time) into *buf. */
int mv__part_pack(const struct mv__tree *tree, const struct mv__store *vals, const struct mv__read_result *rr,
                  uint64_t unmatched, void **buf, size_t *len);
/* The root-cause input: *tls, the timelines of all locations, and causes, the wait states and
 * synchronization points of all (the serial part's own, or process 0's merge of every process's:
 * analyze.c), call paths of their part's tree, read through the translation to the global tree. */
struct mv__rc_direct {
  struct mv__tlset **tls;
  struct mv__causes *causes;
};
/* Merge the parts of all processes (concatenated, process order) into a new result. owner(loc)
 * tells which process's tree holds a location's call paths. The result takes over *direct->tls
 * (NULLed) and direct->causes' streams; on failure *direct->tls says why if it failed. */
int mv__result_build(struct mv__defs *d, const void *parts, size_t len, int nparts,
                     uint32_t (*owner)(uint32_t loc, uint32_t nloc, int nparts), struct mv__rc_direct *direct,
                     struct mv_analysis **out);
uint32_t mv__owner(uint32_t loc, uint32_t nloc, int nparts);
/* Labels of call sites from callsites.txt next to the anchor (absent file: no labels). */
int mv__result_load_sites(struct mv_analysis *a, const char *anchor);
/* Stretch k of the critical path (0: the last in time) into *s; 0 past the end or when reading
 * it back failed (a->cpath->err). */
int mv__cpath_at(const struct mv_analysis *a, struct mv__tlcur *c, uint64_t k, struct mv__cpseg *s);
/* "MPI_Recv" or "MPI_Recv@late-sender+0x10ea" for call path cp. */
void mv__node_label(const struct mv_analysis *a, uint32_t cp, char *buf, size_t size);

#endif
