#!/usr/bin/env bash
# The thesis's section 5.6 lock-contention microbenchmark (rma-wait-states-thesis.txt) at its
# scale, 12 processes, under SMPI on an ideal network: after a barrier every rank runs foo() for
# 10 + 10 r ms; rank 0 locks its own window first and holds it 2 s in bar(), the others queue
# (exclusive locks on rank 0), accumulate, unlock; rank 0 runs foo() 100 ms after its release,
# the others 0.1 ms; a final barrier. The thesis reports about 2 s of Lock Contention on
# process 1, and of bar()'s 2 s on the critical path 0.17 s would remain if balanced over the 12
# processes (the average), 1.83 s of it are critical imbalance, part of 1.93 s in all.
# Simulated time is exact: rank 1 waits 2010 - 20 ms; bar()'s call path has 2 s on rank 0 and
# ~0 on the others (the same call site, before MPI_Win_unlock): average 2/12 s, imbalance
# 2 - 2/12; foo() after the release is on the path too (rank 0 enters the barrier last): 0.1 s,
# average (0.1 + 11 x 0.0001) / 12, imbalance 0.091575 s; in all 1.924908 s.
set -u
. "$MV_SRC/tests/mpi/trace-lib.bash"

have_flavor smpi || finish
"$MPIVET" platform "cluster:12,lat=0us,bw=1000TBps" -o "$WORK/cluster.xml" --hostfile "$WORK/hostfile" --np 12 ||
  { fail "mpivet platform (ideal network, 12 hosts)"; finish; }
d="$WORK/lock-chain"
NP=12 trace_run smpi "$d" -- "$(example smpi lock-chain)" 2000 10 10 100 || finish
value() { "$MPIVET" analyze "$d" --value "$@" 2>&1; }
check() {   # check LABEL GOT WANT
  if [ "$2" = "$3" ]; then echo "ok   $1 = $2"; else fail "$1 = $2, expected $3"; fi
}
check "lock_contention rank 1" "$(value lock_contention --rank 1 --region MPI_Win_lock)" 1.990000000
check "lock_contention rank 11" "$(value lock_contention --rank 11)" 1.890000000
check "lock_contention total" "$(value lock_contention)" 21.340000000
check "wait_for_progress" "$(value wait_for_progress)" 0.000000000
check "critical_path" "$(value critical_path)" 2.110000000
check "critical_path rank 0" "$(value critical_path --rank 0)" 2.110000000
check "critical_path_imbalance" "$(value critical_path_imbalance)" 1.924908333
# identity: every wait here has a delay in its interval, so the delay costs explain all of it
check "delay" "$(value delay)" "$(python3 -c "print('%.9f' % (21.34 + $(value wait_barrier)))")"
# bar() alone: the call path with 2 s of computation on rank 0
"$MPIVET" analyze "$d" --json > "$WORK/lc.json" || fail "analyze --json"
got=$(python3 - "$WORK/lc.json" <<'PY'
import json, sys, collections
d = json.load(open(sys.argv[1]))
agg = collections.defaultdict(float)
for v in d["values"]:
    agg[(v["metric"], v["callpath"], v["rank"])] += v["value"]
bar = [cp for (m, cp, r), x in agg.items() if m == "comp" and r == 0 and abs(x - 2.0) < 1e-9]
if len(bar) != 1:
    print("no single bar() call path")
    sys.exit()
cp = bar[0]
on_path = sum(x for (m, c, r), x in agg.items() if m == "critical_path" and c == cp)
imb = sum(x for (m, c, r), x in agg.items() if m == "critical_path_imbalance" and c == cp)
print("%.6f %.6f %.6f" % (on_path, on_path - imb, imb))
PY
)
check "bar(): on the path, average, imbalance" "$got" "2.000000 0.166667 1.833333"
finish
