#!/bin/bash
# CPU affinity for a running bench's threads, from outside (Linux, util-linux's taskset); the scratch tool
# behind bench/crawl-latency.md's and bench/stream.md's affinity sections (2026-11-27 14:54-15:50 UTC).
#
#   bench/pin-threads.sh PID WHICH CPUS [LOG] [LOAD_CPUS]
#
# Every 0.3 s until PID ends, sets to CPUS (taskset's list syntax, e.g. 1) the threads of PID that WHICH
# names and that do not have that mask yet:
#   pipeline  the threads at nice >= 10: the worker threads (WORKER_NICE) and chdb's pools (native-nice.ts)
#   all       every thread but PID's main one (the API's): also V8's platform threads and libuv's pool
#   dry       none: the same scan, nothing set (the baseline of an A/B, so both sides pay for the scan)
# LOAD_CPUS (optional): PID's child processes (the bench's load generator), all their threads, to that list.
# Each change is appended to LOG. Only bash builtins in the scan (a fork per thread every 0.3 s raised the
# idle p99 in the first runs), a taskset only where a mask changes.
#
#   node ... bench/crawl-latency.ts ... & bench/pin-threads.sh $! pipeline 1 /tmp/pin.log
PID=$1
WHICH=$2
CPUS=$3
LOG=${4:-/dev/null}
LOAD_CPUS=$5
allowed() {
  local k v
  while read -r k v; do
    if [ "$k" = Cpus_allowed_list: ]; then echo "$v"; return; fi
  done <"$1"
}
while [ -d "/proc/$PID" ]; do
  if [ -n "$LOAD_CPUS" ]; then
    read -r kids <"/proc/$PID/task/$PID/children"
    for c in $kids; do
      cur=$(allowed "/proc/$c/status" 2>/dev/null)
      if [ -n "$cur" ] && [ "$cur" != "$LOAD_CPUS" ] && taskset -a -p -c "$LOAD_CPUS" "$c" >/dev/null 2>&1; then
        echo "load process $c $cur -> $LOAD_CPUS" >>"$LOG"
      fi
    done
  fi
  for d in /proc/"$PID"/task/*; do
    tid=${d##*/}
    read -r st <"$d/stat" 2>/dev/null || continue
    # "tid (comm) state ...": the fields after the last ')'; nice is the 17th of them.
    set -- ${st##*) }
    case $WHICH in
      pipeline) [ "${17:-0}" -ge 10 ] || continue ;;
      all) [ "$tid" != "$PID" ] || continue ;;
      dry) [ "${17:-0}" -ge 10 ] || continue ;;
      *) continue ;;
    esac
    cur=
    while read -r k v; do
      if [ "$k" = Cpus_allowed_list: ]; then cur=$v; break; fi
    done <"$d/status" 2>/dev/null
    if [ "$WHICH" != dry ] && [ -n "$cur" ] && [ "$cur" != "$CPUS" ] && taskset -p -c "$CPUS" "$tid" >/dev/null 2>&1; then
      echo "$tid nice ${17} $cur -> $CPUS" >>"$LOG"
    fi
  done
  sleep 0.3
done
