/* The launcher API: validation, command lines of each engine (Open MPI and MPICH mpirun, srun,
 * smpirun with generated platform and hostfile), shell quoting, exec with exit codes and a
 * timeout, and the capture of rows with the run column set. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "mpivet/dirlock.h"
#include "mpivet/engine.h"
#include "mpivet/error.h"
#include "mpivet/launch.h"
#include "mpivet/results.h"
#include "mpivet/signals.h"
#include "test.h"

static char workdir[] = "/tmp/mv-test-launch-XXXXXX";
static const char *args[] = {"--ops", "MPI_Bcast", NULL};

static void command(const struct mv_launch_spec *s, char *buf, size_t size)
{
  struct mv_cmdline c;
  buf[0] = '\0';
  int rc = mv_launch_command(s, &c);
  ASSERT_INT_EQ(rc, 0);
  if (rc == 0) {
    ASSERT_INT_EQ(mv_cmdline_format(&c, buf, size), 0);
    mv_cmdline_release(&c);
  }
}

static void test_validate(void)
{
  struct mv_launch_spec s = {.engine = "mpirun", .np = 4};
  ASSERT_INT_EQ(mv_launch_validate(&s), 0);
  ASSERT_STR_EQ(mv_launch_flavor(&s), "openmpi");
  s.mpi = "mpich";
  ASSERT_STR_EQ(mv_launch_flavor(&s), "mpich");
  s.mpi = "lam";
  ASSERT_INT_EQ(mv_launch_validate(&s), MV_EINVAL);
  s.mpi = NULL;
  s.np = 0;
  ASSERT_INT_EQ(mv_launch_validate(&s), MV_EINVAL);
  s.np = mv_launch_max_np(&s) + 1;
  ASSERT_INT_EQ(mv_launch_validate(&s), MV_EINVAL);
  s.engine = "smpi";
  s.np = 4096;
  ASSERT_INT_EQ(mv_launch_validate(&s), 0);
  ASSERT_STR_EQ(mv_launch_flavor(&s), "smpi");
  s.engine = "qsub";
  ASSERT_INT_EQ(mv_launch_validate(&s), MV_EINVAL);
}

static void test_commands(void)
{
  char buf[8192];
  struct mv_launch_spec s = {.engine = "mpirun", .np = 4, .program = "/bin/prog", .args = args};
  command(&s, buf, sizeof buf);
  ASSERT_TRUE(strncmp(buf, "mpirun.openmpi -np 4 ", 21) == 0);
  ASSERT_TRUE(strstr(buf, "--oversubscribe /bin/prog --ops MPI_Bcast") != NULL);
  s.hosts = "a,b";
  s.ppn = 2;
  command(&s, buf, sizeof buf);
  ASSERT_TRUE(strstr(buf, "--host a:2,b:2 --map-by ppr:2:node /bin/prog") != NULL);
  s.mpi = "mpich";
  command(&s, buf, sizeof buf);
  ASSERT_STR_EQ(buf, "mpiexec.mpich -n 4 -ppn 2 -hosts a,b /bin/prog --ops MPI_Bcast");
  s.engine = "srun";
  command(&s, buf, sizeof buf);
  ASSERT_STR_EQ(buf, "srun --mpi=pmi2 --ntasks=4 --ntasks-per-node=2 --nodelist=a,b /bin/prog "
                     "--ops MPI_Bcast");
  /* Open MPI: pmix (Debian's Open MPI has no Slurm PMI-2 client); every Slurm option given */
  s.mpi = NULL;
  s.hosts = NULL;
  s.nodes = 2;
  s.partition = "debug";
  s.time_limit = "0:30";
  command(&s, buf, sizeof buf);
  ASSERT_STR_EQ(buf, "srun --mpi=pmix --ntasks=4 --nodes=2 --ntasks-per-node=2 --partition=debug "
                     "--time=0:30 /bin/prog --ops MPI_Bcast");
  s.pmi = "none";
  command(&s, buf, sizeof buf);
  ASSERT_TRUE(strncmp(buf, "srun --mpi=none --ntasks=4 ", 27) == 0);
  ASSERT_STR_EQ(mv_launch_srun_pmi("mpich"), "pmi2");
  ASSERT_TRUE(mv_launch_srun_pmi("smpi") == NULL);
}

static void test_smpi(void)
{
  char buf[8192], path[512], line[64];
  struct mv_launch_spec s = {.engine = "smpi", .np = 6, .ppn = 2, .program = "/bin/prog",
                             .workdir = workdir, .platform = "torus:2x2x2"};
  command(&s, buf, sizeof buf);
  ASSERT_TRUE(strncmp(buf, "smpirun ", 8) == 0);
  ASSERT_TRUE(strstr(buf, "-np 6 /bin/prog") != NULL);
  snprintf(path, sizeof path, "%s/platform.xml", workdir);
  ASSERT_TRUE(access(path, R_OK) == 0);
  snprintf(path, sizeof path, "%s/hostfile", workdir);
  FILE *fp = fopen(path, "r");
  int n = 0;
  while (fp && fgets(line, sizeof line, fp))
    n++;
  if (fp)
    fclose(fp);
  ASSERT_INT_EQ(n, 6);
  s.platform = "torus:1x";
  struct mv_cmdline c;
  ASSERT_INT_EQ(mv_launch_command(&s, &c), MV_EPARSE);
}

static void test_quoting(void)
{
  struct mv_cmdline c;
  char buf[256];
  mv_cmdline_init(&c);
  mv_cmdline_add(&c, "echo");
  mv_cmdline_add(&c, "a b");
  mv_cmdline_add(&c, "it's");
  ASSERT_INT_EQ(mv_cmdline_format(&c, buf, sizeof buf), 0);
  ASSERT_STR_EQ(buf, "echo 'a b' 'it'\\''s'");
  ASSERT_INT_EQ(mv_cmdline_format(&c, buf, 8), MV_ERANGE);
  mv_cmdline_release(&c);
}

static void test_exec(void)
{
  struct mv_cmdline c;
  int to = -1;
  const char *ok[] = {"true", NULL}, *bad[] = {"false", NULL}, *slow[] = {"sleep", "20", NULL};
  const char *missing[] = {"/nonexistent/launcher", NULL};
  const char *const *cases[] = {ok, bad, missing, slow};
  int want[] = {0, MV_EEXTERN, MV_EEXTERN, MV_EEXTERN};
  /* a generous limit where the command ends by itself (a loaded machine took over 0.3 s to run
   * `true` in the CI of eee1ede), a short one for the command that must be stopped */
  double limit[] = {60, 60, 60, 0.3};
  for (int i = 0; i < 4; i++) {
    mv_cmdline_init(&c);
    for (const char *const *a = cases[i]; *a; a++)
      mv_cmdline_add(&c, *a);
    ASSERT_INT_EQ(mv_launch_exec(&c, NULL, limit[i], &to), want[i]);
    ASSERT_INT_EQ(to, i == 3);
    mv_cmdline_release(&c);
  }
}

/* A forked process standing in for mpivet: it locks `lockdir` (unless NULL), runs `sh -c script`
 * through mv_launch_exec and exits 0 when the launch succeeded. Returns its pid (-1: no fork). */
static pid_t fake_mpivet(const char *script, const char *lockdir)
{
  pid_t fake = fork();
  if (fake == 0) {
    struct mv_cmdline c;
    mv_cmdline_init(&c);
    mv_cmdline_add(&c, "sh");
    mv_cmdline_add(&c, "-c");
    mv_cmdline_add(&c, script);
    if (lockdir && mv_dir_lock(lockdir) != 0)
      _exit(2);
    _exit(mv_launch_exec(&c, NULL, 0, NULL) == 0 ? 0 : 1);
  }
  return fake;
}

/* A launch outlives no mpivet: the process that called mv_launch_exec (standing in for mpivet)
 * is killed with SIGKILL, so it forwards nothing; the command's own child (standing in for a
 * rank under mpirun) must be gone within the guard's 3 s of grace. Before the guard (stop 25),
 * such a `sleep` ran its full 30 s (seen with mpirun.openmpi and its ranks in issue 15's signal
 * rounds). */
static void test_orphaned(void)
{
  char pidfile[512], script[2048];
  snprintf(pidfile, sizeof pidfile, "%s/rank.pid", workdir);
  snprintf(script, sizeof script, "sleep 30 & echo $! > %s.new && mv %s.new %s; wait", pidfile,
           pidfile, pidfile);
  pid_t fake = fake_mpivet(script, NULL);
  ASSERT_TRUE(fake >= 0);
  long rank = 0;
  for (int i = 0; i < 2000 && rank <= 0; i++) {   /* up to 20 s for the shell to start */
    FILE *fp = fopen(pidfile, "r");
    if (!fp || fscanf(fp, "%ld", &rank) != 1)
      usleep(10000);
    if (fp)
      fclose(fp);
  }
  ASSERT_TRUE(rank > 0);
  ASSERT_INT_EQ(kill((pid_t)rank, 0), 0);
  kill(fake, SIGKILL);
  waitpid(fake, NULL, 0);
  int alive = 1;
  for (int i = 0; i < 1000 && alive; i++) {   /* 10 s: 3 s of grace on a loaded machine */
    char stat[256] = "";
    snprintf(stat, sizeof stat, "/proc/%ld/stat", rank);
    FILE *fp = fopen(stat, "r");
    char state = 'X';
    alive = fp && fscanf(fp, "%*d %*s %c", &state) == 1 && state != 'Z';
    if (fp)
      fclose(fp);
    if (alive)
      usleep(10000);
  }
  ASSERT_INT_EQ(alive, 0);
}

/* The folder lock of a killed mpivet ends with mpivet (stop 26: e2e/check-resume-kill failed 1 in
 * 15 because `check --resume` found the folder busy): the guard forks but never execs, so it held
 * the lock file that mpivet had opened (close-on-exec acts on exec only) for as long as it stayed,
 * up to its 3 s of grace when the command ignores SIGTERM, as this one does. */
static void test_lock_dies_with_mpivet(void)
{
  char dir[512], pidfile[600], script[2048];
  snprintf(dir, sizeof dir, "%s/locked", workdir);
  snprintf(pidfile, sizeof pidfile, "%s/started", workdir);
  ASSERT_INT_EQ(mkdir(dir, 0755), 0);
  snprintf(script, sizeof script, "trap '' TERM; touch %s; sleep 20", pidfile);
  pid_t fake = fake_mpivet(script, dir);
  ASSERT_TRUE(fake >= 0);
  struct stat st;
  for (int i = 0; i < 2000 && stat(pidfile, &st) != 0; i++)   /* up to 20 s for the shell */
    usleep(10000);
  ASSERT_INT_EQ(stat(pidfile, &st), 0);
  ASSERT_INT_EQ(mv_dir_lock(dir), MV_EBUSY);   /* held by the stand-in for mpivet */
  kill(fake, SIGKILL);
  waitpid(fake, NULL, 0);
  ASSERT_INT_EQ(mv_dir_lock(dir), 0);          /* at once: not after the guard's grace */
}

/* The launch ends as its command ended (the guard passes it on): killed by a signal is a failure,
 * exit 0 a success. */
static void test_status(void)
{
  struct mv_cmdline c;
  int to = -1;
  mv_cmdline_init(&c);
  mv_cmdline_add(&c, "sh");
  mv_cmdline_add(&c, "-c");
  mv_cmdline_add(&c, "kill -SEGV $$");
  ASSERT_INT_EQ(mv_launch_exec(&c, NULL, 60, &to), MV_EEXTERN);
  ASSERT_INT_EQ(to, 0);
  mv_cmdline_release(&c);
  mv_cmdline_init(&c);
  mv_cmdline_add(&c, "sh");
  mv_cmdline_add(&c, "-c");
  mv_cmdline_add(&c, "exit 0");
  ASSERT_INT_EQ(mv_launch_exec(&c, NULL, 60, &to), 0);
  mv_cmdline_release(&c);
}

static void handler(int sig) { (void)sig; }

/* A stop signal the user had ignored (nohup: SIGHUP) stays ignored while mpivet catches the
 * others, and everything is as before afterwards. Before stop 25 mpivet caught an ignored
 * SIGHUP too, so under nohup a closed terminal killed the running launch. */
static void test_ignored_signal(void)
{
  struct sigaction ign, now, old[MV_NSTOP_SIGNALS], before[MV_NSTOP_SIGNALS];
  memset(&ign, 0, sizeof ign);
  ign.sa_handler = SIG_IGN;
  sigaction(SIGHUP, &ign, &before[2]);
  sigaction(SIGINT, NULL, &before[0]);
  mv_signals_catch(handler, old);
  sigaction(SIGHUP, NULL, &now);
  ASSERT_TRUE(now.sa_handler == SIG_IGN);
  sigaction(SIGINT, NULL, &now);
  ASSERT_TRUE(now.sa_handler == handler);
  mv_signals_restore(old);
  sigaction(SIGINT, NULL, &now);
  ASSERT_TRUE(now.sa_handler == before[0].sa_handler);
  sigaction(SIGHUP, &before[2], NULL);
}

static void test_capture(void)
{
  char in[512], out[512];
  snprintf(in, sizeof in, "%s/in.csv", workdir);
  snprintf(out, sizeof out, "%s/out.csv", workdir);
  FILE *fp = fopen(in, "w");
  fprintf(fp, "%s\n0,smpi,SMPI 3.32,4,1,MPI_Bcast,default,8,time_s,0,1.5e-06,1\n"
              "0,smpi,SMPI 3.32,4,1,MPI_Bcast,default,8,time_s,1,2.5e-06,0\n", mv_results_header());
  fclose(fp);
  struct mv_results_writer *w;
  long rows = 0;
  ASSERT_INT_EQ(mv_results_writer_open(&w, out, MV_RESULTS_ATOMIC), 0);
  struct mv_row_sink sink = mv_results_writer_sink(w);
  ASSERT_INT_EQ(mv_launch_capture(in, 7, &sink, &rows), 0);
  ASSERT_INT_EQ(rows, 2);
  ASSERT_INT_EQ(mv_results_writer_close(w, 1), 0);
  struct mv_results_reader *r;
  struct mv_row row;
  ASSERT_INT_EQ(mv_results_reader_open(&r, out), 0);
  int n = 0;
  while (mv_results_reader_next(r, &row) == 1) {
    ASSERT_INT_EQ(row.run, 7);
    ASSERT_INT_EQ(row.valid, n == 0);
    n++;
  }
  mv_results_reader_close(r);
  ASSERT_INT_EQ(n, 2);
}

/* Every launcher has its facts in the one engine table, and the table answers by name only. */
static void test_engine_facts(void)
{
  int n = 0;
  for (const char *const *e = mv_launch_engines(); *e; e++, n++) {
    const struct mv_engine_facts *f = mv_engine_facts(*e);
    ASSERT_TRUE(f != NULL);
    if (f)
      ASSERT_STR_EQ(f->name, *e);
  }
  ASSERT_INT_EQ(n, 3);
  ASSERT_TRUE(mv_engine_facts("smpi")->deterministic && mv_engine_facts("smpi")->simulated);
  ASSERT_TRUE(!mv_engine_facts("mpirun")->deterministic);
  ASSERT_TRUE(mv_engine_facts("nosuch") == NULL && mv_engine_facts(NULL) == NULL);
}

int main(void)
{
  if (!mkdtemp(workdir))
    return 1;
  RUN_TEST(test_validate);
  RUN_TEST(test_engine_facts);
  RUN_TEST(test_commands);
  RUN_TEST(test_smpi);
  RUN_TEST(test_quoting);
  RUN_TEST(test_exec);
  RUN_TEST(test_orphaned);
  RUN_TEST(test_lock_dies_with_mpivet);
  RUN_TEST(test_status);
  RUN_TEST(test_ignored_signal);
  RUN_TEST(test_capture);
  char cmd[128];
  snprintf(cmd, sizeof cmd, "rm -rf %s", workdir);
  if (system(cmd) != 0)
    return 1;
  return TEST_EXIT();
}
