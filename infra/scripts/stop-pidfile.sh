#!/usr/bin/env bash
# Stops the daemon a start-*.sh script started, by its pid file, waiting up to 30 s for a clean
# shutdown before SIGKILL. Usage: stop-pidfile.sh <name for messages> <pid file>
set -euo pipefail
NAME="$1"
PIDFILE="$2"
if [[ -f "$PIDFILE" ]] && kill -0 "$(cat "$PIDFILE")" 2>/dev/null; then
  PID="$(cat "$PIDFILE")"
  kill "$PID"
  for _ in $(seq 1 60); do kill -0 "$PID" 2>/dev/null || break; sleep 0.5; done
  kill -0 "$PID" 2>/dev/null && kill -9 "$PID"
  echo "$NAME: stopped pid $PID"
else
  echo "$NAME: not running"
fi
rm -f "$PIDFILE"
