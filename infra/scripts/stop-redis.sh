#!/usr/bin/env bash
# Stops the Redis start-redis.sh started on $REDIS_PORT (6379) with a normal SHUTDOWN: Redis
# fsyncs the append-only file before it exits, so the next start-redis.sh finds every key, account,
# usage counter and rate window (never `nosave`, which threw them away). Waits until it has exited.
set -euo pipefail
PORT="${REDIS_PORT:-6379}"
if redis-cli -h 127.0.0.1 -p "$PORT" ping 2>/dev/null | grep -q PONG; then
  redis-cli -h 127.0.0.1 -p "$PORT" shutdown >/dev/null 2>&1 || true
  for _ in $(seq 1 100); do
    redis-cli -h 127.0.0.1 -p "$PORT" ping >/dev/null 2>&1 || break
    sleep 0.1
  done
  echo "stop-redis: stopped 127.0.0.1:$PORT"
else
  echo "stop-redis: not running on 127.0.0.1:$PORT"
fi
