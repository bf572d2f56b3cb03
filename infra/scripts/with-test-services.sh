#!/usr/bin/env bash
# Runs a command with the services the test suites need: Redis, a KRaft Kafka and the schema registry
# (Apicurio's Confluent-compatible API), started from infra/scripts on free local ports, their
# addresses exported (REDIS_URL, KAFKA_BROKERS, SCHEMA_REGISTRY_URL, CI_SERVICES), and stopped after,
# whatever the command's exit. `make test` and `.ci/run` both run the suite through it, so a
# newcomer's green run is the suite CI runs (test/services fails a suite whose service is missing
# when CI_SERVICES names it and CI=true; with these addresses set nothing is skipped for lack of them).
# A ClickHouse server is not among them: none installs here without Docker (history stays on chdb).
#
# Usage: bash infra/scripts/with-test-services.sh CMD [ARGS...]   (exits with CMD's status)
# Env: TEST_SERVICES_HOME (.infra): where the services' data and logs go (wiped for Kafka and the
#      registry at each start, so every run starts empty); TEST_REDIS_PORT (16379), TEST_KAFKA_PORT
#      (19092), TEST_REGISTRY_PORT (18081): the first port tried for each, apart from the defaults so
#      a developer's own services never collide. When KAFKA_BROKERS, REDIS_URL and
#      SCHEMA_REGISTRY_URL are all set already, CMD runs against those and nothing is started.
# Needs: redis-server (start-redis.sh installs the Debian package when missing), Java 17+ and Maven
# for the Kafka jars and the registry build (cached under .infra/ after the first run).
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
[[ $# -gt 0 ]] || { echo "usage: with-test-services.sh CMD [ARGS...]" >&2; exit 2; }

if [[ -n "${KAFKA_BROKERS:-}" && -n "${REDIS_URL:-}" && -n "${SCHEMA_REGISTRY_URL:-}" ]]; then
  echo "with-test-services: using KAFKA_BROKERS=$KAFKA_BROKERS REDIS_URL=$REDIS_URL SCHEMA_REGISTRY_URL=$SCHEMA_REGISTRY_URL"
  exec "$@"
fi

port_free() { ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
pick_port() { local p=$1; while ! port_free "$p"; do p=$((p + 1)); done; echo "$p"; }

HOME_DIR="${TEST_SERVICES_HOME:-$ROOT/.infra}"
export REDIS_PORT; REDIS_PORT="$(pick_port "${TEST_REDIS_PORT:-16379}")"
export REDIS_HOME="$HOME_DIR/redis-test"
export KAFKA_PORT; KAFKA_PORT="$(pick_port "${TEST_KAFKA_PORT:-19092}")"
export KAFKA_CONTROLLER_PORT; KAFKA_CONTROLLER_PORT="$(pick_port $((KAFKA_PORT + 1)))"
export KAFKA_HOME="$HOME_DIR/kafka-test"
export REGISTRY_PORT; REGISTRY_PORT="$(pick_port "${TEST_REGISTRY_PORT:-18081}")"
export REGISTRY_HOME="$HOME_DIR/registry-test"

# The broker jars live in .infra/kafka/libs (install-kafka.sh); this broker's home links to them.
bash "$ROOT/infra/scripts/install-kafka.sh"
mkdir -p "$KAFKA_HOME" "$REDIS_HOME"
ln -sfn "$ROOT/.infra/kafka/libs" "$KAFKA_HOME/libs"
rm -rf "$KAFKA_HOME/data" "$REGISTRY_HOME/data" "$REDIS_HOME/appendonlydir-$REDIS_PORT"

cleanup() {
  echo "with-test-services: stopping the registry, Kafka and Redis"
  bash "$ROOT/infra/scripts/stop-registry.sh" || true
  bash "$ROOT/infra/scripts/stop-kafka.sh" || true
  bash "$ROOT/infra/scripts/stop-redis.sh" || true
}
trap cleanup EXIT

echo "with-test-services: Redis on $REDIS_PORT, Kafka on $KAFKA_PORT, the registry on $REGISTRY_PORT"
bash "$ROOT/infra/scripts/start-redis.sh"
bash "$ROOT/infra/scripts/start-kafka.sh"
bash "$ROOT/infra/scripts/start-registry.sh"

export REDIS_URL="redis://127.0.0.1:$REDIS_PORT"
export KAFKA_BROKERS="127.0.0.1:$KAFKA_PORT"
export SCHEMA_REGISTRY_URL="http://127.0.0.1:$REGISTRY_PORT/apis/ccompat/v7"
export CI_SERVICES="kafka,redis,registry"
echo "with-test-services: KAFKA_BROKERS=$KAFKA_BROKERS REDIS_URL=$REDIS_URL SCHEMA_REGISTRY_URL=$SCHEMA_REGISTRY_URL CI_SERVICES=$CI_SERVICES"

set +e
"$@"
RC=$?
set -e
exit "$RC"
