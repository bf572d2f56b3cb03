#!/usr/bin/env bash
# `make down`: stops what `make up` started (compose where Docker runs, else the local schema
# registry, Kafka and Redis).
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
if [[ "${USE_DOCKER:-auto}" != "0" ]] && command -v docker >/dev/null && docker info >/dev/null 2>&1; then
  docker compose -f "$ROOT/infra/compose.yaml" down
  exit 0
fi
bash "$ROOT/infra/scripts/stop-registry.sh"
bash "$ROOT/infra/scripts/stop-kafka.sh"
bash "$ROOT/infra/scripts/stop-redis.sh"
