#!/usr/bin/env bash
# Stops the registry start-registry.sh started (by its pid file), waiting for a clean shutdown.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
REGISTRY_HOME="${REGISTRY_HOME:-$ROOT/.infra/registry}"
PIDFILE="$REGISTRY_HOME/registry.pid"
if [[ -f "$PIDFILE" ]] && kill -0 "$(cat "$PIDFILE")" 2>/dev/null; then
  PID="$(cat "$PIDFILE")"
  kill "$PID"
  for _ in $(seq 1 60); do kill -0 "$PID" 2>/dev/null || break; sleep 0.5; done
  kill -0 "$PID" 2>/dev/null && kill -9 "$PID"
  echo "stop-registry: stopped pid $PID"
else
  echo "stop-registry: not running"
fi
rm -f "$PIDFILE"
