/* Running the launches of `mpivet check`: progress while each launch runs (a ticker thread), and
 * Ctrl-C / SIGTERM / SIGHUP stopping the running launch, whose launcher has a process group of
 * its own that the terminal's signal does not reach. */
#ifndef MV_CLI_CHECK_RUN_H
#define MV_CLI_CHECK_RUN_H

#include "mpivet/campaign.h"

/* Run every pending launch of c with mv_campaign_bench_launch; cost_engine names the cost model
 * ("smpi", "mpirun/mpich", ...). Returns 0, or the campaign's error (c->error) after a failed
 * or interrupted launch; *signo is the signal that interrupted it (0: none). */
int mv__check_run(struct mv_campaign *c, const char *cost_engine, int *signo);

#endif
