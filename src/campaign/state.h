/* Internal pieces of the campaign folder shared by state.c, planfile.c, journal.c and run.c. */
#ifndef MPIVET_CAMPAIGN_STATE_H
#define MPIVET_CAMPAIGN_STATE_H

#include "mpivet/campaign.h"

/* Write the plan and stored options to path atomically (temporary file renamed). */
int mv__plan_write(const struct mv_campaign *c, const char *path);
/* Read them back; c->error names file:line on a parse error. */
int mv__plan_read(struct mv_campaign *c, const char *path);
/* Read campaign.journal into c->done / c->results_size, dropping a torn last line. */
int mv__journal_read(struct mv_campaign *c);
/* Append "done INDEX BYTES" and fsync. */
int mv__journal_append(struct mv_campaign *c, int index, long long bytes);


#endif
