# Independent oracles for tests/mpi/analyze-examples.sh: each wait state of an example computed
# from otf2-print's text of the archive in $dir alone (awk, not the analyzer's reader or replay),
# per the definitions of docs/analyze.md, for the examples' simple structure (one window or
# communicator, the n-th call of a kind on each rank belongs to the n-th instance). Values in
# seconds (%.9f). Sourced, not run.

# shellcheck disable=SC2154  # dir: the archive folder, set by the sourcing test
otf2_text() { otf2-print "$dir/traces.otf2" 2>/dev/null; }

# Wait at Barrier of rank $1: per barrier instance, the latest enter minus this rank's enter,
# at most its time in the call.
oracle_barrier() {
  otf2_text | awk -v want="$1" '
    $1 == "ENTER" && /"MPI_Barrier"/ { k = n[$2]++; e[$2, k] = $3; if ($3 > mx[k]) mx[k] = $3 }
    $1 == "LEAVE" && /"MPI_Barrier"/ { l[$2, m[$2]++] = $3 }
    END { for (k = 0; k < n[want]; k++) { w = mx[k] - e[want, k]; d = l[want, k] - e[want, k];
            s += (w < d ? w : d) } printf "%.9f\n", s / 1e9 }'
}

# Wait at Fence of rank $1 (with its Early Fence child): as the barrier, over MPI_Win_fence, and
# only for instances that synchronized (latest enter <= earliest leave).
oracle_fence() {
  otf2_text | awk -v want="$1" '
    $1 == "ENTER" && /"MPI_Win_fence"/ { k = n[$2]++; e[$2, k] = $3; if ($3 > mx[k]) mx[k] = $3 }
    $1 == "LEAVE" && /"MPI_Win_fence"/ { k = m[$2]++; l[$2, k] = $3; if (!(k in mn) || $3 < mn[k]) mn[k] = $3 }
    END { for (k = 0; k < n[want]; k++) { if (mx[k] > mn[k]) continue
            w = mx[k] - e[want, k]; d = l[want, k] - e[want, k]; s += (w < d ? w : d) }
          printf "%.9f\n", s / 1e9 }'
}

# Late Sender of rank $1: the n-th receive from a sender matches the n-th send to it (one tag in
# the example); wait = E(send) - E(recv) when the send entered inside the receive.
oracle_late_sender() {
  otf2_text | awk -v want="$1" '
    $1 == "ENTER" { enter[$2] = $3 }
    $1 == "LEAVE" { if (pend[$2] != "") { split(pend[$2], a, " "); rl[a[1], a[2]] = $3; pend[$2] = "" } }
    $1 == "MPI_SEND" { match($0, /Receiver: [0-9]+/); d = substr($0, RSTART + 10, RLENGTH - 10);
                       se[$2, d, ns[$2, d]++] = enter[$2] }
    $1 == "MPI_RECV" && $2 == want { match($0, /Sender: [0-9]+/); src = substr($0, RSTART + 8, RLENGTH - 8);
                       k = nr[src]++; re[src, k] = enter[$2]; pend[$2] = src " " k }
    END { for (src in nr) for (k = 0; k < nr[src]; k++) { s = se[src, want, k]; r = re[src, k];
            if (r < s && s <= rl[src, k]) w += s - r }
          printf "%.9f\n", w / 1e9 }'
}

# Late Receiver of sender rank $1 (its receiver is $1 + 1): the n-th MPI_Send against the n-th
# MPI_Recv; wait = E(recv) - E(send) when the receive entered inside the send.
oracle_late_receiver() {
  otf2_text | awk -v s="$1" '
    $1 == "ENTER" && $2 == s && /"MPI_Send"/ { se[ns++] = $3 }
    $1 == "LEAVE" && $2 == s && /"MPI_Send"/ { sl[nl++] = $3 }
    $1 == "ENTER" && $2 == s + 1 && /"MPI_Recv"/ { re[nr++] = $3 }
    END { for (k = 0; k < ns && k < nr; k++) if (se[k] < re[k] && re[k] <= sl[k]) w += re[k] - se[k]
          printf "%.9f\n", w / 1e9 }'
}

# Late Post of origin rank $1 (both metrics) against target rank 0: in its n-th access epoch
# (start, operations, complete), the first call running when rank 0 entered its n-th post
# waited E(post) - E(call).
oracle_late_post() {
  otf2_text | awk -v o="$1" '
    $1 == "ENTER" && $2 == 0 && /"MPI_Win_post"/ { post[np++] = $3 }
    $1 != "ENTER" && $1 != "LEAVE" || $2 != o { next }
    /"MPI_Win_start"/ && $1 == "ENTER" { k = ne++; nc[k] = 0 }
    /"MPI_Win_start"|"MPI_Put"|"MPI_Get"|"MPI_Accumulate"|"MPI_Win_complete"/ {
      if ($1 == "ENTER") ce[k, nc[k]] = $3; else cl[k, nc[k]++] = $3 }
    END { for (k = 0; k < ne && k < np; k++) for (i = 0; i < nc[k]; i++)
            if (ce[k, i] < post[k] && post[k] <= cl[k, i]) { w += post[k] - ce[k, i]; break }
          printf "%.9f\n", w / 1e9 }'
}

# Early Wait and its Late Complete child of target rank 0 (origins: every other rank): in its
# n-th MPI_Win_wait, C = the latest enter of the origins' n-th MPI_Win_complete; early =
# min(C, L(wait)) - E(wait) when C > E(wait); late = the part after the last operation into
# rank 0 of that epoch (latest leave of the origins' puts and gets). Prints "early late".
oracle_early_wait() {
  otf2_text | awk '
    $1 != "ENTER" && $1 != "LEAVE" { next }
    $2 == 0 && /"MPI_Win_wait"/ { if ($1 == "ENTER") we[nw + 0] = $3; else wl[nw++] = $3 }
    $2 != 0 && /"MPI_Win_start"/ && $1 == "ENTER" { k[$2] = ns[$2]++ }
    $2 != 0 && /"MPI_Put"|"MPI_Get"|"MPI_Accumulate"/ && $1 == "LEAVE" {
      if ($3 > last[k[$2]]) last[k[$2]] = $3 }
    $2 != 0 && /"MPI_Win_complete"/ && $1 == "ENTER" { if ($3 > c[k[$2]]) c[k[$2]] = $3 }
    END { for (i = 0; i < nw; i++) { if (c[i] <= we[i]) continue
            end = c[i] < wl[i] ? c[i] : wl[i]; early += end - we[i]
            from = last[i] > we[i] ? last[i] : we[i]; if (end > from) late += end - from }
          printf "%.9f %.9f\n", early / 1e9, late / 1e9 }'
}

# Lock Contention and Wait for Progress of every origin of the lock chain on target rank 0, from
# otf2-print alone, per the definitions of docs/analyze.md (patterns 6 and 7): one exclusive
# epoch per origin (lock .. unlock, every call in between), the target's MPI calls as its
# progress. Epochs in grant order: greedily the epoch whose grant call (its first call still
# running when the lock can be free: the predecessor's unlock enter, not before its grant;
# or one blocked until then that ended up to 5 ms early by a clock error, its rank's later
# events then moved by that error) leaves first, among those requested before the earliest
# pending release. Prints "rank contention progress" per origin, then "order RANKS".
oracle_lock_chain() {
  otf2_text | awk -v T=0 '
    $1 == "ENTER" || $1 == "LEAVE" {
      loc = $2; t = $3; name = $5
      if ($1 == "ENTER" && name == "\"MPI_Win_lock\"") { if (seen[loc]++) bad = 1; inep[loc] = 1; org[no++] = loc }
      if (loc == T) { if ($1 == "ENTER") pE[np] = t; else pL[np++] = t }
      if (inep[loc]) { k = nc[loc] + 0; if ($1 == "ENTER") cE[loc, k] = t; else { cL[loc, k] = t; nc[loc]++ } }
      if ($1 == "LEAVE" && name == "\"MPI_Win_unlock\"") inep[loc] = 0
    }
    # blocked until f but ended up to 5 ms before it (a clock error): the grant call, moved to f
    function blocked(o, i, f) { return cL[o, i] < f && f - cL[o, i] <= 5e6 && f - cL[o, i] < cL[o, i] - cE[o, i] }
    function wfp(o, i, ready,   j, E, L, w) {
      if (o == T) return 0
      for (j = 0; j < np && pL[j] < ready; j++) ;
      E = cE[o, i]; L = cL[o, i]
      if (j == np || pE[j] <= ready || pE[j] >= L) return 0
      w = E < pE[j] ? pE[j] - E : 0   # algorithm 1, one dependency: up to the progress call, no tail
      WFP[o] += w; return 1
    }
    END {
      if (bad) { print "oracle: more than one lock epoch per rank"; exit 1 }
      for (s = 0; s < no; s++) {
        R = -1
        for (j = 0; j < no; j++) { o = org[j]; rel = cL[o, nc[o] - 1]; if (!done[o] && (R < 0 || rel < R)) R = rel }
        best = -1
        for (j = 0; j < no; j++) {
          o = org[j]; if (done[o] || cE[o, 0] > R) continue
          f = last == "" ? 0 : (cE[last, nc[last] - 1] > grant[last] ? cE[last, nc[last] - 1] : grant[last])
          for (i = 0; i < nc[o] - 1 && cL[o, i] < f && !blocked(o, i, f); i++) ;
          g = blocked(o, i, f) ? f : cL[o, i]; rel = cL[o, nc[o] - 1]
          if (best < 0 || g < bg || (g == bg && (rel < brel || (rel == brel && o < best)))) { best = o; bi = i; bg = g; brel = rel; bf = f }
        }
        o = best; i = bi; done[o] = 1; grant[o] = bg
        if (blocked(o, i, bf)) {
          d = bf - cL[o, i]; cL[o, i] = bf
          for (k = i + 1; k < nc[o]; k++) { cE[o, k] += d; cL[o, k] += d }
        }
        if (last != "") {
          h = cL[last, nc[last] - 1] < cL[o, i] ? cL[last, nc[last] - 1] : cL[o, i]
          if (cE[o, i] < h) { if (!wfp(o, i, bf)) LC[o] += h - cE[o, i]; i++ }
        }
        for (; i < nc[o]; i++) wfp(o, i, cE[o, i])
        last = o; order = order o
      }
      for (j = 0; j < no; j++) { o = org[j]; printf "%d %.9f %.9f\n", o, LC[o] / 1e9, WFP[o] / 1e9 }
      printf "order %s\n", order
    }
'
}

# Causality on one node, where every rank's stamps come from one CLOCK_MONOTONIC (the tracer
# aligns ranks of a node exactly, docs/trace.md): no barrier may be left by any rank before its
# last member entered it, and no blocking receive may return before its message's send entered.
# Prints the number of violations and the largest, in ns.
causality_violations() {
  otf2_text | awk '
    $1 == "ENTER" { enter[$2] = $3 }
    $1 == "ENTER" && /"MPI_Barrier"/ { k = nb[$2]++; if ($3 > bmax[k]) bmax[k] = $3 }
    $1 == "LEAVE" && /"MPI_Barrier"/ { k = lb[$2]++; bl[$2, k] = $3 }
    $1 == "LEAVE" { if (pend[$2] != "") { rl[pend[$2]] = $3; pend[$2] = "" } }
    $1 == "MPI_SEND" { match($0, /Receiver: [0-9]+/); d = substr($0, RSTART + 10, RLENGTH - 10);
                       se[$2, d, ns[$2, d]++] = enter[$2] }
    $1 == "MPI_RECV" { match($0, /Sender: [0-9]+/); s = substr($0, RSTART + 8, RLENGTH - 8);
                       k = nr[s, $2]++; pend[$2] = s SUBSEP $2 SUBSEP k }
    END { for (key in bl) { split(key, a, SUBSEP); d = bmax[a[2]] - bl[key]; if (d > 0) { v++; if (d > w) w = d } }
          for (key in rl) if (key in se) { d = se[key] - rl[key]; if (d > 0) { v++; if (d > w) w = d } }
          printf "%d %d\n", v, w }'
}
