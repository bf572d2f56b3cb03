#!/usr/bin/env bash
# `make up`: the scale-out stack's services. With a Docker engine: infra/compose.yaml (Kafka KRaft,
# Confluent Schema Registry, ClickHouse server, Redis, pinned images). Without Docker: Redis (Debian
# package), Apache Kafka (jars from Maven Central, KRaft single node) and Apicurio Registry (a
# Confluent-compatible schema registry, built from Maven Central) from infra/scripts; ClickHouse then
# stays embedded (chdb: no current ClickHouse server installs from the package registries this
# project may use).
# Prints the environment to export so the service runs against the stack.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
if [[ "${USE_DOCKER:-auto}" != "0" ]] && command -v docker >/dev/null && docker info >/dev/null 2>&1; then
  docker compose -f "$ROOT/infra/compose.yaml" up -d --wait
  cat <<ENV
up: stack running in Docker. Export:
  export KAFKA_BROKERS=127.0.0.1:9092
  export SCHEMA_REGISTRY_URL=http://127.0.0.1:8081
  export CLICKHOUSE_URL=http://127.0.0.1:8123
  export REDIS_URL=redis://127.0.0.1:6379
  export KEY_PEPPER="\$(openssl rand -base64 32)"   # required with REDIS_URL; keep it: every API process and bin/keys.ts use the same
  export CATALOG_CURSOR_SECRET="\$(openssl rand -base64 32)"   # required with REDIS_URL; signs every cursor: every API process uses the same
ENV
  exit 0
fi
bash "$ROOT/infra/scripts/start-redis.sh"
bash "$ROOT/infra/scripts/start-kafka.sh"
bash "$ROOT/infra/scripts/start-registry.sh"
cat <<ENV
up: Kafka, Redis and the schema registry running without Docker (ClickHouse stays embedded). Export:
  export KAFKA_BROKERS=127.0.0.1:${KAFKA_PORT:-9092}
  export REDIS_URL=redis://127.0.0.1:${REDIS_PORT:-6379}
  export SCHEMA_REGISTRY_URL=http://127.0.0.1:${REGISTRY_PORT:-8081}/apis/ccompat/v7
  export KEY_PEPPER="\$(openssl rand -base64 32)"   # required with REDIS_URL; keep it: every API process and bin/keys.ts use the same
  export CATALOG_CURSOR_SECRET="\$(openssl rand -base64 32)"   # required with REDIS_URL; signs every cursor: every API process uses the same
ENV
