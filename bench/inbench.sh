#!/usr/bin/env bash
# Runs a benchmark command inside a `bench` cpu cgroup (v1) with the largest cpu.shares the kernel takes, so that
# other work on a shared machine (tests, evals, another engineer's runs) gets the CPU only when the bench leaves
# it idle. Everything the command starts (worker threads, child processes) inherits the group. Where the cgroup
# cannot be made (no cgroup v1 cpu controller, no permission), the command runs as it is, and this says so on
# stderr, so a figure is never taken believing it was shielded when it was not.
#   bash bench/inbench.sh npx tsx bench/routes.ts --rounds 3 ...
set -euo pipefail
group=/sys/fs/cgroup/cpu/bench
if { [ -d "$group" ] || mkdir "$group" 2>/dev/null; } && echo 262144 > "$group/cpu.shares" 2>/dev/null && echo $$ > "$group/tasks" 2>/dev/null; then
  echo "inbench: in $group (cpu.shares $(cat "$group/cpu.shares"))" >&2
else
  echo "inbench: no cpu cgroup here; running unshielded" >&2
fi
exec "$@"
