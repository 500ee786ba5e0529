/* `mpivet trace [options] -- LAUNCHER ARGS...`: runs an MPI application with libmpivet-trace
 * preloaded (the library built for the launcher's MPI flavor; under SMPI the application links
 * it instead), passes the options through the environment, and after the run completes an
 * archive the application left unfinished (crash, MPI_Abort) with mpivet-trace-finish. */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"
#include "mpivet/dirlock.h"
#include "mpivet/error.h"
#include "mpivet/paths.h"
#include "mpivet/trace-files.h"

static const char usage[] =
  "usage: mpivet trace [-o DIR] [--buffer SIZE] [--record GROUPS] [--callstack N]\n"
  "                    [--format LIST] [--mpi openmpi|mpich|smpi] -- LAUNCHER [ARGS...]\n"
  "Trace an MPI application into the OTF2 archive DIR/traces.otf2 (default DIR: trace) and\n"
  "the compressed trace DIR/compressed.mvt (mpivet benchgen; docs/formats.md).\n"
  "  -o, --output DIR     output folder (one that holds an earlier trace is refused)\n"
  "  --buffer SIZE        event buffer per rank before it is flushed to disk (default "
  MV_TRACE_BUFFER_DEFAULT ")\n"
  "  --record GROUPS      comma list of p2p,coll,rma,comm,io or all (default all)\n"
  "  --callstack N        return addresses hashed into the call-site id (default 1)\n"
  "  --format LIST        otf2, mvt or otf2,mvt (default): mvt alone for long or large runs\n"
  "  --mpi FLAVOR         MPI library of the application (default: guessed from LAUNCHER;\n"
  "                       a launcher of another flavor, e.g. mpirun.openmpi, is refused)\n"
  "The tracer is added to LD_PRELOAD; a command that sets the ranks' own LD_PRELOAD\n"
  "(-x LD_PRELOAD=..., -genv LD_PRELOAD ...) is refused: set LD_PRELOAD for mpivet trace.\n"
  "Under SMPI (smpirun) the application must be linked with the library, e.g.\n"
  "  smpicc app.c -o app -L LIB -Wl,--no-as-needed -lmpivet-trace -Wl,--disable-new-dtags,-rpath,LIB\n"
  "with LIB the folder of lib/mpivet/smpi/libmpivet-trace.so (see docs/trace.md).\n"
  "Example: mpivet trace -o tr -- mpirun -np 8 ./app\n";

struct opts {
  const char *dir, *buffer, *record, *callstack, *flavor, *format;
};

/* Launchers that belong to one flavor, matched in the launcher's name and then in the path it
 * resolves to (/usr/bin/mpirun -> orterun): the one place that knows them. */
static const struct { const char *part, *flavor; } launchers[] = {
  {"smpirun", "smpi"}, {"mpich", "mpich"}, {"hydra", "mpich"},
  {"openmpi", "openmpi"}, {"orterun", "openmpi"}, {"prterun", "openmpi"}};

static const char *flavor_in(const char *path)
{
  const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
  for (size_t i = 0; i < sizeof launchers / sizeof *launchers; i++)
    if (strstr(base, launchers[i].part))
      return launchers[i].flavor;
  return NULL;
}

/* The launcher's own path, links resolved: as given, or found in PATH. "" when not found. */
static void resolve(const char *launcher, char *resolved)
{
  char found[PATH_MAX];
  if (mv_path_find(launcher, found, sizeof found) != 0 || !realpath(found, resolved))
    resolved[0] = 0;
}

/* The flavor a launcher belongs to (mpirun.mpich, or an mpirun that resolves to MPICH's hydra:
 * mpich), or NULL for one that runs any flavor (srun) or is no known launcher (a script). */
static const char *launcher_flavor(const char *launcher)
{
  char resolved[PATH_MAX];
  const char *f = flavor_in(launcher);
  if (f)
    return f;
  resolve(launcher, resolved);
  return resolved[0] ? flavor_in(resolved) : NULL;
}

/* An application started by a launcher of another flavor crashes with the wrong tracer
 * preloaded (or under SMPI never loads it): refuse before anything runs. */
static int check_launcher(const char *flavor, const char *launcher)
{
  const char *lf = launcher_flavor(launcher);
  const char *base = strrchr(launcher, '/') ? strrchr(launcher, '/') + 1 : launcher;
  if (lf && strcmp(lf, flavor) != 0)
    return mv_cli_error("trace", "--mpi %s does not match the launcher %s, which runs %s "
                        "applications: give --mpi %s (or leave --mpi out), or a launcher of %s",
                        flavor, launcher, lf, lf, flavor);
  if (strcmp(flavor, "smpi") == 0 && strcmp(base, "srun") == 0)
    return mv_cli_error("trace", "--mpi smpi does not match the launcher srun: SMPI applications "
                        "run under smpirun");
  return 0;
}

static int option(void *ctx, int c, const char *arg)
{
  struct opts *o = ctx;
  switch (c) {
  case 'o': o->dir = arg; return 0;
  case 'b': o->buffer = arg; return 0;
  case 'r': o->record = arg; return 0;
  case 'c': o->callstack = arg; return 0;
  case 'm': o->flavor = arg; return 0;
  case 'f':
    if (strcmp(arg, "otf2") && strcmp(arg, "mvt") && strcmp(arg, "otf2,mvt") && strcmp(arg, "mvt,otf2"))
      return mv_cli_error("trace", "--format: expected otf2, mvt or otf2,mvt, got \"%s\"", arg);
    o->format = arg;
    return 0;
  }
  return MV_EXIT_USAGE;
}

static int parse(int argc, char **argv, struct opts *o)
{
  static const struct option longopts[] = {
    {"output", required_argument, NULL, 'o'}, {"buffer", required_argument, NULL, 'b'},
    {"record", required_argument, NULL, 'r'}, {"callstack", required_argument, NULL, 'c'},
    {"mpi", required_argument, NULL, 'm'},    {"help", no_argument, NULL, 'h'},
    {"format", required_argument, NULL, 'f'},
    {NULL, 0, NULL, 0}};
  return mv_cli_options("trace", argc, argv, "+o:h", longopts, usage, option, o);
}

/* Length of the leading entries of an LD_PRELOAD list (separated by ':' or ' ', as ld.so
 * reads it) that are sanitizer runtimes: AddressSanitizer refuses to run unless its runtime is
 * the first library loaded, so the tracer goes after them (and before everything else, so that
 * its MPI functions win over another preloaded PMPI tool's). */
static size_t sanitizer_prefix(const char *list)
{
  static const char *const runtimes[] = {"libasan.", "libubsan.", "libtsan.", "libhwasan.",
                                         "libclang_rt."};
  size_t keep = 0, at = 0;
  while (list[at]) {
    size_t len = strcspn(list + at, ": "), base = len;
    while (base > 0 && list[at + base - 1] != '/')
      base--;
    int sanitizer = 0;
    for (size_t i = 0; i < sizeof runtimes / sizeof *runtimes; i++)
      sanitizer |= strncmp(list + at + base, runtimes[i], strlen(runtimes[i])) == 0;
    if (len > 0 && !sanitizer)
      break;
    at += len + (list[at + len] != '\0');
    keep = at;
  }
  return keep;
}

/* lib NULL: nothing to preload (SMPI). */
static int set_env(const struct opts *o, const char *lib, const char *absdir)
{
  if (lib) {
    char preload[2 * PATH_MAX];
    const char *old = getenv("LD_PRELOAD");
    old = old ? old : "";
    size_t keep = sanitizer_prefix(old);
    int n = snprintf(preload, sizeof preload, "%.*s%s%s%s%s", (int)keep, old,
                     keep && !strchr(": ", old[keep - 1]) ? ":" : "", lib,
                     old[keep] ? ":" : "", old + keep);
    if (n < 0 || (size_t)n >= sizeof preload) {
      errno = ENAMETOOLONG;
      return -1;
    }
    if (setenv("LD_PRELOAD", preload, 1))
      return -1;
  }
  if (setenv("MPIVET_TRACE_DIR", absdir, 1))
    return -1;
  if (o->buffer && setenv("MPIVET_TRACE_BUFFER", o->buffer, 1))
    return -1;
  if (o->record && setenv("MPIVET_TRACE_RECORD", o->record, 1))
    return -1;
  if (o->format && setenv("MPIVET_TRACE_FORMAT", o->format, 1))
    return -1;
  return o->callstack ? setenv("MPIVET_TRACE_CALLSTACK", o->callstack, 1) : 0;
}

/* The launcher argument that gives the ranks an LD_PRELOAD of its own, which replaces the one
 * carrying the tracer (the ranks then run untraced), or NULL: "LD_PRELOAD=..." (mpirun -x
 * LD_PRELOAD=..., env LD_PRELOAD=... app) or "LD_PRELOAD" after MPICH's -env/-genv. Stop 34:
 * HPL's runs preloaded their own library with -x and "no trace was written". */
static const char *own_preload(char **cmd)
{
  for (int i = 1; cmd[i]; i++) {
    if (strncmp(cmd[i], "LD_PRELOAD=", 11) == 0)
      return cmd[i];
    if (strcmp(cmd[i], "LD_PRELOAD") == 0 &&
        (strcmp(cmd[i - 1], "-env") == 0 || strcmp(cmd[i - 1], "-genv") == 0))
      return cmd[i];
  }
  return NULL;
}

/* Runs argv; returns its exit status (128+signal when killed), or -1 if it could not start. */
static int run(char **argv)
{
  pid_t pid = fork();
  if (pid < 0)
    return -1;
  if (pid == 0) {
    execvp(argv[0], argv);
    fprintf(stderr, "mpivet trace: cannot run %s: %s\n", argv[0], strerror(errno));
    _exit(127);
  }
  int status;
  while (waitpid(pid, &status, 0) < 0)
    if (errno != EINTR)
      return -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

static int exists(const char *dir, const char *name)
{
  char path[PATH_MAX + 64];
  struct stat st;
  snprintf(path, sizeof path, "%s/%s", dir, name);
  return stat(path, &st) == 0;
}

/* The first file of an earlier run of the tracer in dir, or NULL: it would be taken for this
 * run's (or clash with it inside OTF2), and the tracer would delete it. */
static const char *earlier_trace(const char *dir)
{
  static const char *const names[] = {MV_TRACE_OUTPUT_FILES, MV_TRACE_OUTPUT_DIRS};
  for (size_t i = 0; i < sizeof names / sizeof *names; i++)
    if (exists(dir, names[i]))
      return names[i];
  return NULL;
}

/* Completes an archive the application did not finish, and says what was written. */
static int conclude(const char *flavor, const char *dir, int app_status, int otf2)
{
  char finisher[PATH_MAX], disk[PATH_MAX + 64];
  mv_cli_disk_note(dir, disk, sizeof disk);
  if (!otf2 && exists(dir, "compressed.mvt") && !exists(dir, "mpivet-raw/rank-0.defs")) {
    fprintf(stderr, "mpivet trace: wrote %s/compressed.mvt\n", dir);
    return app_status ? mv_cli_fail("trace", MV_EEXTERN, "the application exited with status %d",
                                    app_status) : MV_EXIT_OK;
  }
  if (!exists(dir, "mpivet-raw/rank-0.defs") && !exists(dir, "traces.otf2"))
    return mv_cli_fail("trace", MV_EEXTERN, "%s: no trace was written%s%s", dir, disk,
                       strcmp(flavor, "smpi") == 0 && !disk[0] ? ": under SMPI link the application "
                       "with libmpivet-trace (see mpivet trace --help)" : "");
  if (exists(dir, "mpivet-raw/rank-0.defs") || !exists(dir, "traces.otf2")) {
    if (mv_path_self_dir(finisher, sizeof finisher) != 0 ||
        strlen(finisher) + sizeof "/mpivet-trace-finish" > sizeof finisher)
      return mv_cli_error("trace", "mpivet-trace-finish not found: the raw trace stays in "
                          "%s/mpivet-raw", dir);
    strcat(finisher, "/mpivet-trace-finish");
    char *fargv[] = {finisher, (char *)dir, NULL};
    if (run(fargv) != 0)
      return mv_cli_fail("trace", MV_EEXTERN, "%s: no readable trace could be built%s", dir, disk);
  }
  int truncated = exists(dir, "TRUNCATED");
  fprintf(stderr, "mpivet trace: wrote %s/traces.otf2%s%s%s\n", dir,
          truncated ? " (TRUNCATED: see TRUNCATED)" : "", exists(dir, "compressed.mvt") ? " and " : "",
          exists(dir, "compressed.mvt") ? "compressed.mvt" : "");
  if (app_status != 0)
    return mv_cli_fail("trace", MV_EEXTERN, "the application exited with status %d", app_status);
  return MV_EXIT_OK;
}

int cmd_trace(int argc, char **argv)
{
  struct opts o = {"trace", NULL, NULL, NULL, NULL, NULL};
  int rc = parse(argc, argv, &o);
  if (rc)
    return rc == MV_CLI_HELP ? mv_cli_finish(MV_EXIT_OK) : rc;
  if (optind >= argc)
    return mv_cli_error("trace", "missing the command to run after -- (see mpivet trace --help)");
  char **cmd = argv + optind;
  const char *flavor = o.flavor ? o.flavor : launcher_flavor(cmd[0]);
  flavor = flavor ? flavor : "openmpi";
  int smpi = strcmp(flavor, "smpi") == 0;
  if (strcmp(flavor, "openmpi") != 0 && strcmp(flavor, "mpich") != 0 && !smpi)
    return mv_cli_error("trace", "--mpi %s: expected openmpi, mpich or smpi", flavor);
  if ((rc = check_launcher(flavor, cmd[0])) != 0)
    return rc;
  const char *preload = smpi ? NULL : own_preload(cmd);
  if (preload)
    return mv_cli_error("trace", "the command sets the ranks' LD_PRELOAD (%s), which would replace "
                        "the tracer's: set LD_PRELOAD in mpivet trace's environment instead, the "
                        "tracer is added to it", preload);
  char lib[PATH_MAX], absdir[PATH_MAX];
  if (mv_path_mpi(flavor, "libmpivet-trace.so", lib, sizeof lib) != 0)
    return mv_cli_error("trace", "libmpivet-trace.so was not built for %s", flavor);
  if (mkdir(o.dir, 0777) != 0 && errno != EEXIST)
    return mv_cli_error("trace", "%s: cannot create: %s", o.dir, strerror(errno));
  if (!realpath(o.dir, absdir))
    return mv_cli_error("trace", "%s: %s", o.dir, strerror(errno));
  int lrc = mv_dir_lock(absdir);
  if (lrc)
    return mv_cli_error("trace", "%s: %s", o.dir, lrc == MV_EBUSY ? "in use by another mpivet "
                        "trace" : "cannot create its lock file");
  const char *earlier = earlier_trace(absdir);
  if (earlier)
    return mv_cli_error("trace", "%s: holds an earlier trace (%s): choose a new folder with -o DIR",
                        o.dir, earlier);
  /* SMPI loads each rank's copy of the application with RTLD_DEEPBIND, so a preloaded
   * library never sees its MPI calls: the application links the library itself. */
  if (set_env(&o, smpi ? NULL : lib, absdir) != 0)
    return mv_cli_error("trace", "cannot set the environment: %s", strerror(errno));
  int status = run(cmd);
  if (status < 0 || status == 127)
    return mv_cli_fail("trace", MV_EEXTERN, "cannot run %s", cmd[0]);
  return conclude(flavor, absdir, status, !o.format || strstr(o.format, "otf2") != NULL);
}
