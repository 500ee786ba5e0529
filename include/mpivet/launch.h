/* Launching MPI programs: one engine per launcher (mpirun for Open MPI or MPICH, srun, smpirun),
 * a command line built from (engine, flavor, np, ppn, hosts/platform, program, args), a run
 * with a timeout, and the capture of mpivet-bench rows into a results.csv with `run` set.
 * Shared by `mpivet bench` and `mpivet check`. */
#ifndef MPIVET_LAUNCH_H
#define MPIVET_LAUNCH_H

#include <stddef.h>

#include "mpivet/error.h"

struct mv_row_sink;

/* What to launch. Zero-initialise, then fill; NULL/0 fields take the documented default. */
struct mv_launch_spec {
  const char *engine;      /* "mpirun", "srun" or "smpi" (required) */
  const char *mpi;         /* "openmpi" or "mpich": the MPI the program was built with. NULL: openmpi
                              for mpirun/srun; ignored for smpi (always the smpi flavor) */
  int np;                  /* number of ranks (required, >= 1) */
  int ppn;                 /* processes per node; 0: np on one node for mpirun, engine default for
                              srun, 1 rank per simulated host for smpi */
  const char *hosts;       /* mpirun/srun: comma-separated host list, NULL: local / allocation */
  /* srun only (NULL/0: Slurm's default) */
  int nodes;               /* --nodes */
  const char *partition;   /* --partition */
  const char *time_limit;  /* --time, in Slurm's syntax: minutes, MM:SS, HH:MM:SS, D-HH */
  const char *pmi;         /* --mpi plugin; NULL: the one the flavor's Debian build speaks
                              (pmix for Open MPI, pmi2 for MPICH: mv_launch_srun_pmi) */
  const char *platform;    /* smpi: built-in SPEC ("cluster:64", "fattree:...", see platform.h) or an
                              XML file; NULL: "cluster:<ceil(np/ppn)>" */
  const char *program;     /* path of the MPI program; NULL: mpivet-bench of the flavor */
  const char *const *args; /* program arguments, NULL-terminated; NULL: none */
  const char *const *launcher_args; /* extra launcher options (before the program), NULL-terminated */
  const char *workdir;     /* directory for generated platform/hostfile and logs (required for smpi
                              and for mv_launch_bench); must exist */
  double timeout_s;        /* kill the launch (whole process group) after this; 0: no limit */
};

/* A command line: argv[argc] == NULL. */
struct mv_cmdline {
  char **argv;
  int argc;
  size_t cap;
};

void mv_cmdline_init(struct mv_cmdline *c);
/* Append a copy of s (MV_ENOMEM on failure). */
int mv_cmdline_add(struct mv_cmdline *c, const char *s);
/* Append printf-formatted text as one argument. */
int mv_cmdline_addf(struct mv_cmdline *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The command line as one shell-quoted string into buf (for logs and meta.json). */
int mv_cmdline_format(const struct mv_cmdline *c, char *buf, size_t size);
void mv_cmdline_release(struct mv_cmdline *c);

/* Names of the built-in engines, NULL-terminated ("mpirun", "srun", "smpi"). */
const char *const *mv_launch_engines(void);

/* 0 when spec names a known engine/flavor with np >= 1 and ppn >= 0, MV_EINVAL otherwise. */
int mv_launch_validate(const struct mv_launch_spec *spec);
/* The MPI flavor whose programs this spec runs: "openmpi", "mpich" or "smpi". */
const char *mv_launch_flavor(const struct mv_launch_spec *spec);
/* Largest np this engine accepts for a spec (e.g. mpirun on this machine: 64, smpi: 65536). */
int mv_launch_max_np(const struct mv_launch_spec *spec);
/* The srun fields (nodes, partition, time_limit, pmi) well-formed, and given to the srun engine
 * only? 0, or MV_EINVAL with the reason in e (when non-NULL): `--time-limit: expected ...,
 * got "x"`, `--partition applies to --engine srun only (got --engine smpi)`. */
int mv_launch_srun_check(const struct mv_launch_spec *spec, struct mv_error *e);
/* srun's --mpi plugin for a flavor ("openmpi": "pmix", "mpich": "pmi2"); NULL for others. */
const char *mv_launch_srun_pmi(const char *flavor);
/* The engine and flavor launcher executable found in PATH? 0, or MV_ENOENT. */
int mv_launch_available(const struct mv_launch_spec *spec);

/* Build the full command line (launcher, its options, program, args). For smpi the platform XML and
 * hostfile are written into spec->workdir. MV_ENOENT when the program for the flavor is not built. */
int mv_launch_command(const struct mv_launch_spec *spec, struct mv_cmdline *out);

/* Run a command line, stdout+stderr appended to log_path (NULL: inherited), with a timeout
 * (0: none). Returns 0 when it exited 0; MV_EEXTERN when it failed, could not be executed
 * (exit 127), was killed or timed out (*timed_out set when non-NULL); MV_EIO when fork failed. */
int mv_launch_exec(const struct mv_cmdline *cmd, const char *log_path, double timeout_s,
                   int *timed_out);

/* Outcome of one mpivet-bench launch. */
struct mv_launch_result {
  long rows;             /* rows captured into the writer */
  int timed_out;
  double seconds;        /* wall time of the launch */
  char csv[512];         /* the launch's own rows: <workdir>/run-<run>.csv (kept) */
  char meta[512];        /* mpivet-bench's meta for this launch: <workdir>/run-<run>.json (clock-sync
                            method, measured accuracy, library, seed); a JSON object */
  char log[512];         /* launcher stdout/stderr: <workdir>/run-<run>.log */
  char command[2048];    /* the command line, shell-quoted */
  struct mv_error error; /* when the launch failed (where: the log): mpivet-bench's own first
                            error line from the log (e.g. a world of the wrong size), without its
                            prefix, else the log's last line (the launcher's error); or "" */
};

/* One launch of mpivet-bench: builds the command line (spec->program NULL selects mpivet-bench;
 * spec->args are the bench options such as "--ops", "MPI_Bcast", "--msizes", "8,1024"), adds the
 * output options, runs it, then hands every row of its CSV to sink with `run` = run (parsed
 * once). MV_EEXTERN when the launcher fails or times out (see res->log), MV_EPARSE when the
 * rows are bad. */
int mv_launch_bench(const struct mv_launch_spec *spec, int run, const struct mv_row_sink *sink,
                    struct mv_launch_result *res);

/* Hand the rows of a results.csv to sink, setting run = run; *rows counts them. */
int mv_launch_capture(const char *csv_path, int run, const struct mv_row_sink *sink, long *rows);

#endif
