#!/usr/bin/env bash
# Starts Redis (the Debian redis-server package, installed with apt-get when missing) daemonized on
# 127.0.0.1:$REDIS_PORT (6379), data and pid under $REDIS_HOME (.infra/redis), and waits until
# `redis-cli ping` answers PONG.
# Durable: API keys, accounts, usage counters and the rate limiter's windows live only here, so
# the append-only file is on (appendfsync everysec: every write reaches the file before its reply
# is sent and is fsynced within a second) and a restart, clean or SIGKILL, replays every write
# acknowledged to a client; only a crash of the whole host can lose the last second. RDB snapshots
# stay off: the AOF is the one source a restart loads (an older dump must never come back).
# Env: REDIS_PORT (6379), REDIS_HOME (.infra/redis). Files: appendonlydir-$PORT/, redis-$PORT.log.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
REDIS_HOME="${REDIS_HOME:-$ROOT/.infra/redis}"
PORT="${REDIS_PORT:-6379}"
PIDFILE="$REDIS_HOME/redis-$PORT.pid"

if ! command -v redis-server >/dev/null; then
  echo "start-redis: installing redis-server (Debian)"
  SUDO=""; [[ "$(id -u)" != 0 ]] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq redis-server >/dev/null
fi
if redis-cli -h 127.0.0.1 -p "$PORT" ping 2>/dev/null | grep -q PONG; then
  echo "start-redis: already answering on 127.0.0.1:$PORT"
  exit 0
fi
mkdir -p "$REDIS_HOME"
redis-server --bind 127.0.0.1 --port "$PORT" --daemonize yes --pidfile "$PIDFILE" \
  --dir "$REDIS_HOME" --dbfilename "dump-$PORT.rdb" --save "" \
  --appendonly yes --appenddirname "appendonlydir-$PORT" --appendfsync everysec --maxmemory-policy noeviction \
  --logfile "$REDIS_HOME/redis-$PORT.log"
for _ in $(seq 1 100); do
  if redis-cli -h 127.0.0.1 -p "$PORT" ping 2>/dev/null | grep -q PONG; then
    echo "start-redis: 127.0.0.1:$PORT answers PONG"
    exit 0
  fi
  sleep 0.1
done
echo "start-redis: 127.0.0.1:$PORT did not answer PONG" >&2
tail -n 20 "$REDIS_HOME/redis-$PORT.log" >&2 || true
exit 1
