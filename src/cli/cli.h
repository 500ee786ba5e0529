/* Shared helpers of the command layer: exit codes, one-line error messages, --help detection
 * and the final check of stdout. Only commands (src/cli/) print and choose exit codes. */
#ifndef MPIVET_CLI_H
#define MPIVET_CLI_H

#include <stddef.h>
#include <stdio.h>

enum mv_exit {
  MV_EXIT_OK = 0,        /* success, every verdict passed */
  MV_EXIT_VERDICT = 1,   /* an expectation, guideline or regression check failed */
  MV_EXIT_USAGE = 2,     /* usage or input error */
  MV_EXIT_EXTERNAL = 3   /* mpirun, srun, smpirun or another program failed */
};

#define MV_COMMAND(name, summary) int cmd_##name(int argc, char **argv);
#include "commands.def"
#undef MV_COMMAND

/* Print "mpivet <cmd>: <message>" on stderr; returns MV_EXIT_USAGE. */
int mv_cli_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Same, for an error value from the library: exit 3 for MV_EEXTERN, 2 otherwise. */
int mv_cli_fail(const char *cmd, int err, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
struct mv_error;
/* mv_cli_fail for a library function's struct mv_error: "mpivet CMD: where: what". */
int mv_cli_fail_error(const char *cmd, const struct mv_error *e);
struct option;
/* getopt_long for every command: the next option of argv (-1 after the last), getopt's own
 * messages off. An unknown option, a missing value or a value given to a flag prints one line
 * naming the option ("option --np needs a value", "option -o (--output) needs a value",
 * "unknown option --bogus") and returns '?', so no command uses '?' as an option code.
 * main dispatches each command once, with getopt in its initial state (optind 1). */
int mv_cli_getopt(const char *cmd, int argc, char **argv, const char *shortopts,
                  const struct option *longopts, int *longindex);
/* Every option through mv_cli_getopt: 'h' (-h, --help) prints usage on stdout and returns
 * MV_CLI_HELP; an option error returns MV_EXIT_USAGE; any other option goes to
 * fn(ctx, code, optarg), whose non-zero value (an exit code) ends the parse. 0 otherwise. */
#define MV_CLI_HELP (-1)
int mv_cli_options(const char *cmd, int argc, char **argv, const char *shortopts,
                   const struct option *longopts, const char *usage,
                   int (*fn)(void *ctx, int c, const char *arg), void *ctx);
/* Every name of an --ops list is an operation or group of mpivet-bench; sized: a name may end
 * in @SIZE (which the plan checks). 0, or the exit code after the message. */
int mv_cli_check_ops(const char *cmd, const char *arg, int sized);
/* --platform SPEC|FILE of an smpi run (platform-arg.c): a built-in spec, or a SimGrid XML file
 * read whole (and --hosts checked against it); *count gets the hosts the ranks go to (0 without
 * --platform), and ppn > 0 must place max_np ranks. 0, or the exit code after the message. */
int mv_cli_platform_hosts(const char *cmd, const char *platform, const char *hosts, long ppn,
                          int max_np, long *count);
/* Output files (output.c). "mpivet CMD: cannot write PATH: REASON" for a writer's error value,
 * REASON the system's (errno, kept by the writers) for MV_EIO and MV_ENOENT; the exit code. */
int mv_cli_write_failed(const char *cmd, const char *path, int err);
/* That REASON alone, for messages built elsewhere. */
const char *mv_cli_reason(int err);
/* Write path whole through fn (util/atomic.c). 0; the exit code after the message above for an
 * open, write or commit failure; fn's own other error value (negative) for the caller to name. */
int mv_cli_write_file(const char *cmd, const char *path, int (*fn)(FILE *fp, void *arg), void *arg);
/* The same into a new file that never replaces one, not even one another process creates while
 * this one writes: "PATH exists; not overwriting it (HINT)" and the usage exit code then. */
int mv_cli_write_new_file(const char *cmd, const char *path, const char *hint,
                          int (*fn)(FILE *fp, void *arg), void *arg);
/* " (no space left on the device holding DIR)" or " (DIR is on a read-only file system)" when
 * that is so, else "": why a program writing into DIR (a launch, a calibration) may have failed. */
void mv_cli_disk_note(const char *dir, char *buf, size_t size);
/* 1 when arg is -h or --help. */
int mv_cli_is_help(const char *arg);
/* Parse a whole-string integer / double; 0 on success, MV_EPARSE otherwise. */
int mv_cli_parse_long(const char *s, long *out);
int mv_cli_parse_double(const char *s, double *out);
/* Flush and check stdout so that a full disk is an error; returns the exit code to use. */
int mv_cli_finish(int code);

#endif
