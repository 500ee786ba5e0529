#!/usr/bin/env python3
"""Argument fuzzer of every mpivet command (issue 15's adversarial pass).

Each command's options and whether they take a value are read from its real option table
(src/cli/cmd-<name>.c, the `struct option` list getopt_long gets). A run is a random sequence of
those options (and a few unknown ones) with boundary and odd values, and positional arguments of
the kind the command takes, drawn from a seeded generator: `--seed S --command C` with run
number N is reproducible (each finding prints its argv). Inputs are the user's files of a
scratch folder: a real results.csv, campaign and trace made at start-up, and odd files (empty,
header-only, binary, a 2 MiB line, a byte-order mark, a FIFO with no writer, a folder, symlinks
to the user's files, a dangling symlink), plus /dev/null, /dev/full and paths that cannot exist.

Every run is judged:
  signal      the command died of a signal (a crash);
  hang        it did not end within --timeout s (the whole process group is then killed);
  exit        an exit status other than 0..3;
  exit0-error exit 0 with "error", "cannot", "failed" or "refus" on stderr;
  sanitizer   an AddressSanitizer / UBSan / LeakSanitizer report (ASan build);
  changed     a file of the user's (every file of the scratch folder, checksummed before and
              after) changed, went away or appeared, where the command was not asked to write it:
              only the value of an output option that docs/formats.md calls atomic may be replaced
              (platform -o/--hostfile, regress --junit/--json, analyze --html/--cube, benchgen -o);
              a folder given to -o/--output/--workdir/--resume may get new files.
Exit 1 when any run was judged bad; the findings, counted per kind and command, go to stdout.
"""
import argparse
import hashlib
import os
import random
import re
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import threading
import time

# Commands that launch MPI programs: a run that the options let through can legitimately take
# long (a default campaign, a 1 GiB calibration), so their timeouts are listed for review, not
# counted; their tame runs get small work first (later options may ask for more).
LAUNCHING = {"check": ["--engine", "smpi", "--np", "2", "--ops", "MPI_Bcast", "--msizes", "8",
                       "--runs", "1"],
             "bench": ["--engine", "smpi", "--np", "2", "--ops", "MPI_Bcast", "--msizes", "8",
                       "--runs", "1"],
             "calibrate": ["--np", "2", "--max-size", "1024", "--reps", "2", "--kernels", "none",
                           "--no-self-check"],
             "simulate": ["--np", "2"], "trace": []}
COMMANDS = ["check", "bench", "model", "guidelines", "regress", "convert", "trace", "analyze",
            "platform", "calibrate", "simulate", "benchgen"]

# Options whose value is a file the command may replace (docs/formats.md, "Writing": atomic).
REPLACE_OK = {("platform", "output"), ("platform", "hostfile"), ("regress", "junit"),
              ("regress", "json"), ("analyze", "html"), ("analyze", "cube"),
              ("benchgen", "output")}
# Options whose value is a folder the command writes into (new files only, never a change).
FOLDER_OUT = {"output", "workdir", "resume"}
OUT_OPTS = {"output", "hostfile", "junit", "cube", "html", "workdir"}
IN_OPTS = {"expect", "baseline", "platform", "catalog", "kernel-records", "calibration",
           "compare", "resume"}

INTS = ["0", "1", "2", "3", "4", "-1", "-0", "2147483647", "2147483648", "-2147483649",
        "9223372036854775807", "99999999999999999999", "", " 2", "2 ", "0x10", "1e3", "1.5",
        "abc", "nan", "4,8", "08"]
FLOATS = ["0", "1", "0.05", "0.5", "1.5", "-0.1", "1e-300", "1e308", "1e309", "nan", "inf",
          "-inf", "", "0x1p-3", "5%", "abc", ".", "0.1.2"]
GOOD = {  # values that pass validation, so that runs go past the option parser
    "engine": ["smpi", "mpirun", "srun"], "mpi": ["openmpi", "mpich", "smpi"],
    "np": ["2", "3", "4"], "ppn": ["0", "1", "2"], "runs": ["1", "2"], "reps": ["2", "3"],
    "max-reps": ["3"], "warmup": ["0", "1"], "seed": ["1", "7"], "msizes": ["8", "8,1024", "0"],
    "ops": ["MPI_Bcast", "MPI_Allreduce,MPI_Bcast", "pingpong", "collectives", "memory",
            "MPI_Bcast@8"],
    "platform": ["cluster:2", "cluster:4", "torus:2x2x1", "fattree:4", "dragonfly:1,1,2,2"],
    "timeout": ["5", "0.5"], "budget": ["5", "1"], "top": ["1", "5"], "value": [
        "late_sender", "late_receiver", "wait_nxn", "wait_barrier", "total"],
    "rank": ["0", "1", "99"], "region": ["MPI_Send", "MPI_Barrier", "NoSuch"],
    "to": ["extrap", "csv"], "record": ["all", "p2p,coll", "rma", "none", ""],
    "callstack": ["0", "1", "8", "64"], "format": ["otf2", "mvt", "otf2,mvt", "x"],
    "buffer": ["1M", "8M", "0", "1", "1G", "1T"], "alpha": ["0.05", "0.01"],
    "tolerance": ["0.1", "0"], "correction": ["holm", "bh", "none", "x"],
    "min-launches": ["2", "1"], "per": ["launch", "raw", "x"], "test": ["ranksum", "ks", "x"],
    "deterministic": ["auto", "on", "off"],
    "metric": ["time_s", "mem_bytes", "x"], "compute-scale": ["1", "0", "2"],
    "msg-scale": ["1", "0.5"], "coll-as-p2p": ["all", "MPI_Bcast", "x"],
    "kernels": ["none", "dgemm", "dgemm,dtrsm"], "kernel-model": ["M-2,N-2", "M-0,N-0", "M-3", "x"],
    "max-size": ["1024", "65536"], "kernel-samples": ["2"], "load": ["0", "1"],
    "measure": ["median", "mean", "min", "q1"], "target": ["64", "p=64"], "params": ["p", "p,msize"],
    "library": ["X", ""], "sync": ["skampi", "jk", "hca", "x"], "start": ["barrier", "window", "x"],
    "timing": ["global", "local", "x"], "cfg": ["smpi/host-speed:1Gf", "nocolon"],
    "cflag": ["-O0", "-DX=1"], "hosts": ["node-0,node-1", "a", ","], "nodes": ["1", "2"],
    "partition": ["debug"], "time-limit": ["1", "0"], "pmi": ["pmix", "pmi2", "x"],
    "clear-cache": ["0", "1"], "rse": ["0.05"], "ci": ["0.95"], "window": ["0.001"],
    "check-wait": ["0"], "tukey": ["1.5"], "split-tolerance": ["0.1"], "min-slowdown": ["0.05"],
}
ODD = ["", "-", "--", "-o", "=", "a b", "é", "\n", "x" * 5000, "../../../../etc/passwd",
       "%s%n%x", "\\", "'", "$(true)", "*"]


def option_table(src, cmd):
    """(name, takes_value) of every long option in cmd's `struct option` table."""
    text = open(os.path.join(src, "src", "cli", "cmd-%s.c" % cmd), encoding="utf-8").read()
    table = re.search(r"struct option \w+\[\] = \{(.*?)\{\s*(?:0|NULL)\s*,\s*0", text, re.S)
    opts = []
    for name, arg in re.findall(r'\{\s*"([a-z0-9-]+)"\s*,\s*(\w+)\s*,', table.group(1)):
        opts.append((name, arg not in ("0", "no_argument")))
    shorts = re.search(r'mv_cli_(?:getopt|options)\(\s*[^,]+,\s*argc,\s*argv,\s*"([^"]*)"', text)
    return [o for o in opts if o[0] != "help"], shorts.group(1) if shorts else ""


def help_values(mpivet, cmd, table, env):
    """More values that pass, from `mpivet CMD --help`: a|b|c lists and [defaults] on an
    option's line."""
    text = subprocess.run([mpivet, cmd, "--help"], env=env, stdout=subprocess.PIPE,
                          stderr=subprocess.DEVNULL).stdout.decode("utf-8", "replace")
    found = {}
    for name, takes in table:
        for line in text.splitlines():
            m = re.search(r"--%s[ =]([^ ]+)" % re.escape(name), line)
            if not takes or not m:
                continue
            vals = [v for v in re.split(r"[|\]\[]", m.group(1)) if v and v.isprintable()
                    and not v.isupper()]
            vals += re.findall(r"\[([^\]\s]+)\]\s*$", line)
            vals += re.findall(r"\(default:? ([^),;\s]+)", line)
            found.setdefault(name, []).extend(v for v in vals if "..." not in v)
    return found


def sha(path):
    h = hashlib.sha256()
    with open(path, "rb") as fp:
        for block in iter(lambda: fp.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def snapshot(root):
    """path -> what it is, for every entry under root (symlinks not followed)."""
    snap = {}
    for d, dirs, files in os.walk(root):
        for n in dirs + files:
            p = os.path.join(d, n)
            st = os.lstat(p)
            if stat.S_ISLNK(st.st_mode):
                snap[p] = "link:" + os.readlink(p)
            elif stat.S_ISREG(st.st_mode):
                snap[p] = "file:%o:%s" % (st.st_mode, sha(p))
            elif stat.S_ISDIR(st.st_mode):
                snap[p] = "dir:%o" % st.st_mode
            else:
                snap[p] = "other:%o" % st.st_mode
    return snap


def copy(src, dst):
    """copytree that makes FIFOs anew (opening one to copy it would block)."""
    os.makedirs(dst)
    for n in os.listdir(src):
        s, d = os.path.join(src, n), os.path.join(dst, n)
        st = os.lstat(s)
        if stat.S_ISFIFO(st.st_mode):
            os.mkfifo(d)
        elif stat.S_ISDIR(st.st_mode):
            copy(s, d)
        elif stat.S_ISLNK(st.st_mode):
            os.symlink(os.readlink(s), d)
        else:
            shutil.copy2(s, d)


class Fixture:
    """The user's scratch folder: real results, campaign and trace plus odd files."""

    def __init__(self, base, mpivet, src, env, log):
        self.u = os.path.join(base, "user")
        self.mpivet, self.src, self.env = mpivet, src, env
        os.makedirs(self.u)
        u = self.path
        header = "run,engine,library,nprocs,ppn,op,impl,msize,metric,rep,value,valid\n"
        rows = "".join("%d,smpi,SMPI,%d,1,MPI_Bcast,default,8,time_s,%d,%g,1\n"
                       % (r, p, k, p * 1e-6 * (1 + 0.01 * k + 0.003 * r))
                       for r in range(3) for p in (2, 4, 8, 16) for k in range(3))
        self.write("good.csv", header + rows)
        self.write("slow.csv", header + "".join(
            "%d,smpi,SMPI,%d,1,MPI_Bcast,default,8,time_s,%d,%g,1\n" % (r, p, k, p * 1.5e-6)
            for r in range(3) for p in (2, 4, 8, 16) for k in range(3)))
        self.write("header.csv", header)
        self.write("empty.csv", "")
        self.write("bom.csv", "\ufeff" + header + rows)
        self.write("neg.csv", header + "0,smpi,SMPI,2,1,MPI_Bcast,default,8,time_s,0,-1,1\n")
        self.write("huge.csv", header + "0," + "9" * (2 << 20) + "\n")
        self.write("binary.bin", bytes(random.Random(1).randrange(256) for _ in range(4096)))
        self.write("good.expect", "MPI_Bcast time_s O(log p)\n")
        self.write("bad.expect", "MPI_Bcast time_s O(foo p) deviation=foo\n")
        self.write("prog.c", "#include <mpi.h>\nint main(int c, char **v)\n{\n  MPI_Init(&c, &v);\n"
                   "  MPI_Barrier(MPI_COMM_WORLD);\n  MPI_Finalize();\n  return 0;\n}\n")
        self.write("notc.c", "this is not C\n")
        self.write("report.txt", "the user's own notes\n")
        subprocess.run([mpivet, "platform", "cluster:4", "-o", u("platform.xml")], env=env,
                       check=True, stdout=subprocess.DEVNULL)
        self.write("bad.xml", "<platform version='4.1'><zone id='z'><host id='a'/></zone>\n")
        os.makedirs(u("dir"))
        os.makedirs(u("holds"))
        self.write("holds/results.csv", header + rows)
        os.mkfifo(u("fifo-in"))    # offered as an input: a writer sends garbage, then closes
        os.mkfifo(u("fifo-out"))   # offered as an output: a reader drains it
        os.symlink(u("good.csv"), u("link-good.csv"))
        os.symlink(u("report.txt"), u("link-report.txt"))
        os.symlink(u("dir"), u("link-dir"))
        os.symlink(u("nowhere"), u("dangling"))
        self.campaign = self.make("campaign", log, [mpivet, "check", "--np", "4", "--ops",
                                                    "MPI_Bcast", "--msizes", "8", "--runs", "2",
                                                    "-o", u("campaign")])
        prog = os.path.join(base, "barrier")
        subprocess.run(["mpicc", "-o", prog, u("prog.c")], check=False, stdout=log, stderr=log)
        self.program = prog if os.path.exists(prog) else None
        self.trace = self.make("trace", log, [mpivet, "trace", "-o", u("trace"), "--",
                                              "mpirun.openmpi", "-np", "2", "--oversubscribe",
                                              prog]) if self.program else False
        self.inputs = [u(n) for n in sorted(os.listdir(self.u)) if n != "fifo-out"] + [
            "/dev/null", "/dev/full", u("none.csv"), u("dir/none/x"), "/proc/self/status"]
        self.outputs = [u("dir"), u("report.txt"), u("good.csv"), u("link-report.txt"),
                        u("link-dir"), u("dangling"), u("fifo-out"), u("holds"), "/dev/full",
                        "/dev/null", u("campaign"), u("trace")]
        self.snap = snapshot(self.u)

    def path(self, name):
        return os.path.join(self.u, name)

    def write(self, name, data):
        mode = "wb" if isinstance(data, bytes) else "w"
        with open(self.path(name), mode) as fp:
            fp.write(data)

    def make(self, what, log, argv):
        r = subprocess.run(argv, env=self.env, stdout=log, stderr=log, timeout=600)
        print("fixture %s: exit %d" % (what, r.returncode), file=log, flush=True)
        return r.returncode in (0, 1)

    def restore(self, saved):
        shutil.rmtree(self.u)
        copy(saved, self.u)


class Gen:
    """Random argv for one command from its option table."""

    def __init__(self, cmd, table, shorts, fx, rng, out):
        self.cmd, self.table, self.shorts, self.fx, self.rng, self.out = cmd, table, shorts, fx, rng, out

    def fresh(self):
        return os.path.join(self.out, "new-%d" % self.rng.randrange(1 << 30))

    def value(self, name):
        r = self.rng.random()
        good = GOOD.get(name, []) + self.helped.get(name, [])
        if self.tame and good and r < 0.9 and name not in OUT_OPTS:
            return self.rng.choice(good)
        if name in OUT_OPTS or (name == "json" and self.cmd == "regress"):
            return self.fresh() if r < 0.5 else self.rng.choice(
                self.fx.outputs + [i for i in self.fx.inputs if i != self.fx.path("fifo-in")])
        if name in IN_OPTS and r < 0.6:
            return self.rng.choice(self.fx.inputs)
        if good and r < 0.75:
            return self.rng.choice(good)
        pool = INTS if r < 0.85 else FLOATS if r < 0.93 else ODD
        return self.rng.choice(pool)

    def options(self):
        argv = []
        for _ in range(self.rng.randrange(0, 4 if self.tame else 7)):
            r = self.rng.random()
            if r < 0.04 and not self.tame:
                argv.append(self.rng.choice(["--bogus", "-Z", "--no", "--=", "-", "--np=",
                                             "--help=x", "---np"]))
                continue
            name, takes = self.rng.choice(self.table)
            if not takes:
                argv.append("--" + name if r > 0.06 else "--%s=%s" % (name, self.value(name)))
            elif r < 0.08:
                argv.append("--" + name)   # its value missing (or taken from the next argument)
            elif r < 0.5:
                argv.append("--%s=%s" % (name, self.value(name)))
            else:
                argv += ["--" + name, self.value(name)]
        return argv

    def positional(self):
        fx, rng, u = self.fx, self.rng, self.fx.path
        pick = rng.choice
        w = 30 if self.tame else 3
        results = [u("good.csv"), u("slow.csv")] + ([u("campaign/results.csv")] if fx.campaign else [])
        if self.cmd in ("model", "guidelines", "convert"):
            n = 1 if self.tame else rng.choice([0, 1, 1, 1, 2])
            return [pick(fx.inputs + results * w) for _ in range(n)]
        if self.cmd == "regress":
            return [pick(fx.inputs + results * w)] + (
                ["--baseline", pick(fx.inputs + results * w)] if rng.random() < 0.9 else [])
        if self.cmd in ("analyze", "benchgen"):
            return [pick(fx.inputs + [u("trace")] * w)] if rng.random() < 0.95 else []
        if self.cmd == "platform":
            return [pick(GOOD["platform"] + ["cluster:0", "cluster:1048577", "torus:0x1x1",
                                             "dragonfly:1", "x", "cluster:4,cores=0",
                                             "fattree:2;4,4;1,2;1,2", "cluster:-1", "", u("dir")])]
        if self.cmd == "simulate":
            return [pick([u("prog.c")] * 3 + [u("notc.c")] + fx.inputs)] if rng.random() < 0.95 else []
        if self.cmd == "trace":
            prog = fx.program or "/bin/true"
            tail = pick([["/bin/true"], ["mpirun.openmpi", "-np", "2", prog],
                         ["mpiexec.mpich", "-np", "2", prog], [u("none")], [],
                         ["mpirun.openmpi", "-np", "2", "--oversubscribe", prog],
                         ["mpirun.openmpi", "-np", "3", "/bin/false"], [u("dir")], [u("prog.c")]])
            return (["--"] if rng.random() < 0.9 else []) + tail
        return []

    def argv(self):
        # tame runs (most values valid) get past the option checks; wild ones test them
        self.tame = self.rng.random() < 0.6
        args = self.options()
        if self.tame and self.cmd in LAUNCHING:
            args = LAUNCHING[self.cmd] + args
        pos = self.positional()
        if self.rng.random() < 0.5 and "--" not in pos:
            return args + pos
        return pos + args if self.cmd != "trace" else args + pos


SAN = re.compile(r"AddressSanitizer|LeakSanitizer|runtime error:|UndefinedBehaviorSanitizer")
ERRWORD = re.compile(r"\berror\b|cannot|failed|refus", re.I)


def judge(cmd, argv, rc, err, before, after, allowed):
    found = []
    if rc is None:
        found.append(("timeout-review" if cmd in LAUNCHING else "hang", ""))
    elif rc < 0:
        found.append(("signal", "signal %d" % -rc))
    elif rc > 3:
        found.append(("exit", "exit %d" % rc))
    if SAN.search(err):
        found.append(("sanitizer", SAN.search(err).group(0)))
    if rc == 0 and ERRWORD.search(err) and "warning" not in err.lower():
        found.append(("exit0-error", err.strip().splitlines()[-1][:200]))
    for p in sorted(set(before) | set(after)):
        if before.get(p) == after.get(p):
            continue
        ok = any(p == a or (p.startswith(a.rstrip("/") + "/") and kind == "folder"
                            and p not in before) for a, kind in allowed)
        if not ok:
            found.append(("changed", "%s: %s -> %s" % (p, before.get(p, "absent")[:60],
                                                       after.get(p, "absent")[:60])))
    return found


def allowed_writes(cmd, argv):
    """(path, 'file'|'folder') the command was asked to write."""
    out = []
    for i, a in enumerate(argv):
        if not a.startswith("--") and a != "-o":
            continue
        name, eq, val = a[2:].partition("=") if a != "-o" else ("output", "", "")
        if not eq:
            val = argv[i + 1] if i + 1 < len(argv) else None
        if val is None:
            continue
        if (cmd, name) in REPLACE_OK or (cmd == "regress" and name == "json"):
            out.append((os.path.abspath(val), "file"))
        if name in FOLDER_OUT:   # a symlink to a folder: the folder it names is the output
            out += [(os.path.abspath(val), "folder"), (os.path.realpath(val), "folder")]
    return out


class FifoPeer(threading.Thread):
    """The other end of a FIFO the run was given: a writer of a little garbage (fifo-in) or a
    reader (fifo-out), so that a command opening it does not wait forever for a peer (which is
    what a FIFO means, as for cat). stop() opens the FIFO's other end itself if the command never
    opened it, so that the thread ends."""

    def __init__(self, path, write):
        threading.Thread.__init__(self, daemon=True)
        self.path, self.write = path, write

    def run(self):
        try:
            fd = os.open(self.path, os.O_WRONLY if self.write else os.O_RDONLY)
            if self.write:
                os.write(fd, b"run,engine\n\x00\xff garbage\n" * 100)
            else:
                while os.read(fd, 1 << 16):
                    pass
            os.close(fd)
        except OSError:
            pass

    def stop(self):
        while self.is_alive():
            try:
                fd = os.open(self.path, (os.O_RDONLY if self.write else os.O_RDWR) | os.O_NONBLOCK)
                time.sleep(0.01)
                os.close(fd)
            except OSError:
                time.sleep(0.01)
            self.join(0.1)


def run_one(mpivet, cmd, argv, env, cwd, timeout, fx):
    peers = [FifoPeer(fx.path(n), n == "fifo-in") for n in ("fifo-in", "fifo-out")
             if any(fx.path(n) in a for a in argv)]
    for t in peers:
        t.start()
    p = subprocess.Popen([mpivet, cmd] + argv, cwd=cwd, env=env, stdin=subprocess.DEVNULL,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    try:
        out, err = p.communicate(timeout=timeout)
        rc = p.returncode
    except subprocess.TimeoutExpired:
        rc = None
    try:
        os.killpg(p.pid, signal.SIGKILL)   # the run's launchers and ranks too
    except ProcessLookupError:
        pass
    if rc is None:
        out, err = p.communicate()
    for t in peers:
        t.stop()
    return rc, out.decode("utf-8", "replace"), err.decode("utf-8", "replace")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--mpivet", required=True)
    ap.add_argument("--src", required=True)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--commands", default=",".join(COMMANDS))
    ap.add_argument("--seconds", type=float, default=5, help="per command")
    ap.add_argument("--max-runs", type=int, default=1 << 30, help="per command")
    ap.add_argument("--launch-runs", type=int, default=1 << 30,
                    help="at most this many runs of a command that launches MPI programs")
    ap.add_argument("--timeout", type=float, default=60, help="per run")
    ap.add_argument("--verbose", action="store_true", help="every run's exit and argv")
    ap.add_argument("--no-fixtures", action="store_true", help="no campaign and no trace (fast)")
    a = ap.parse_args()
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
               OMPI_MCA_rmaps_base_oversubscribe="1")
    env.setdefault("ASAN_OPTIONS", "detect_leaks=1:abort_on_error=0")
    base = tempfile.mkdtemp(prefix="mpivet-argv-fuzz-")
    bad = 0
    try:
        log = open(os.path.join(base, "fixture.log"), "w")
        random.seed(a.seed)
        if a.no_fixtures:
            Fixture.make = lambda self, what, log, argv: False
        fx = Fixture(base, os.path.abspath(a.mpivet), a.src, env, log)
        saved = os.path.join(base, "saved")
        copy(fx.u, saved)
        print("fixtures: campaign %s, trace %s" % ("yes" if fx.campaign else "no",
                                                  "yes" if fx.trace else "no"))
        for cmd in a.commands.split(","):
            table, shorts = option_table(a.src, cmd)
            rng = random.Random("%d/%s" % (a.seed, cmd))
            out = os.path.join(base, "out")
            gen = Gen(cmd, table, shorts, fx, rng, out)
            gen.helped = help_values(a.mpivet, cmd, table, env)
            counts, findings, n, t0 = {}, [], 0, time.time()
            limit = min(a.max_runs, a.launch_runs if cmd in LAUNCHING else a.max_runs)
            while n < limit and time.time() - t0 < a.seconds:
                argv = gen.argv()
                os.makedirs(out, exist_ok=True)
                cwd = os.path.join(base, "cwd")
                os.makedirs(cwd, exist_ok=True)
                rc, so, se = run_one(a.mpivet, cmd, argv, env, cwd, a.timeout, fx)
                after = snapshot(fx.u)
                for kind, what in judge(cmd, argv, rc, se, fx.snap, after, allowed_writes(cmd, argv)):
                    findings.append((n, kind, what, argv))
                if after != fx.snap:
                    fx.restore(saved)
                shutil.rmtree(out, ignore_errors=True)
                shutil.rmtree(cwd, ignore_errors=True)
                if a.verbose:
                    print("  %s %s %s | %s" % (rc, cmd, " ".join(argv)[:300],
                                             se.strip().splitlines()[-1][:150] if se.strip() else ""))
                key = "hang" if rc is None else "signal" if rc < 0 else str(rc)
                counts[key] = counts.get(key, 0) + 1
                n += 1
            print("%-10s %5d runs in %5.0f s, exits %s, %d finding(s)" % (
                cmd, n, time.time() - t0, " ".join("%s:%d" % kv for kv in sorted(counts.items())),
                sum(1 for f in findings if f[1] != "timeout-review")), flush=True)
            for i, kind, what, argv in findings:
                print("  FINDING %s (seed %d run %d): %s\n    mpivet %s %s" % (
                    kind, a.seed, i, what, cmd, " ".join(repr(x) if not x or " " in x or "\n" in x
                                                         else x for x in argv)[:600]), flush=True)
            bad += sum(1 for f in findings if f[1] != "timeout-review")
    finally:
        shutil.rmtree(base, ignore_errors=True)
    print("%d finding(s)" % bad)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
