#!/usr/bin/env bash
# Stops the Redis start-redis.sh started on $REDIS_PORT (6379).
set -euo pipefail
PORT="${REDIS_PORT:-6379}"
if redis-cli -h 127.0.0.1 -p "$PORT" ping 2>/dev/null | grep -q PONG; then
  redis-cli -h 127.0.0.1 -p "$PORT" shutdown nosave >/dev/null 2>&1 || true
  echo "stop-redis: stopped 127.0.0.1:$PORT"
else
  echo "stop-redis: not running on 127.0.0.1:$PORT"
fi
