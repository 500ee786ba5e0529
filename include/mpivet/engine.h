/* What each launch engine is (simulated? deterministic? measures memory? default runs), in one
 * table that every layer may ask: results.csv's engine column names the same engines, so the
 * statistics above the results (regress, guidelines) decide from these facts, never from the
 * engine's name. The launchers themselves live in src/campaign/engine-*.c. */
#ifndef MPIVET_ENGINE_H
#define MPIVET_ENGINE_H

struct mv_engine_facts {
  const char *name;         /* "mpirun", "srun" or "smpi" */
  int simulated;            /* a simulated cluster (SMPI): platform files, simulation options */
  int deterministic;        /* a launch repeats the previous one to the last digit */
  int measures_memory;      /* memory per rank (mem_bytes, rss_bytes) means something */
  int default_runs;         /* launches per process count (`check` and `bench`) */
  int default_reps;         /* repetitions inside a launch (`check`) */
  const char *default_np;   /* process counts of `check` */
};

/* The facts of the engine named engine, or NULL when there is none (or engine is NULL). */
const struct mv_engine_facts *mv_engine_facts(const char *engine);

#endif
