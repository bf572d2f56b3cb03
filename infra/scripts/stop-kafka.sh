#!/usr/bin/env bash
# Stops the broker start-kafka.sh started (by its pid file), waiting for a clean shutdown.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
KAFKA_HOME="${KAFKA_HOME:-$ROOT/.infra/kafka}"
exec bash "$ROOT/infra/scripts/stop-pidfile.sh" stop-kafka "$KAFKA_HOME/kafka.pid"
