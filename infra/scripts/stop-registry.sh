#!/usr/bin/env bash
# Stops the registry start-registry.sh started (by its pid file), waiting for a clean shutdown.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
REGISTRY_HOME="${REGISTRY_HOME:-$ROOT/.infra/registry}"
exec bash "$ROOT/infra/scripts/stop-pidfile.sh" stop-registry "$REGISTRY_HOME/registry.pid"
