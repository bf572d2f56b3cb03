#!/usr/bin/env bash
# Starts Apicurio Registry (built by install-registry.sh) on 127.0.0.1:$REGISTRY_PORT without Docker,
# and waits until its Confluent-compatible API answers GET /apis/ccompat/v7/subjects. Storage: H2 in a
# file under $REGISTRY_HOME/data, so schema ids outlive a restart like the records in Kafka that carry
# them (it needs no Kafka).
# Env: REGISTRY_PORT (8081), REGISTRY_HEAP (256m), REGISTRY_HOME (.infra/registry).
# Out: a daemon whose pid is in $REGISTRY_HOME/registry.pid, logs in $REGISTRY_HOME/logs; the URL to
# export as SCHEMA_REGISTRY_URL is http://127.0.0.1:$REGISTRY_PORT/apis/ccompat/v7.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
REGISTRY_HOME="${REGISTRY_HOME:-$ROOT/.infra/registry}"
PORT="${REGISTRY_PORT:-8081}"
HEAP="${REGISTRY_HEAP:-256m}"
PIDFILE="$REGISTRY_HOME/registry.pid"
URL="http://127.0.0.1:$PORT/apis/ccompat/v7"

# 200 from the subjects list over a bare /dev/tcp request (no curl needed), within 5 s.
answers() {
  timeout 5 bash -c 'exec 3<>"/dev/tcp/127.0.0.1/$0" && printf "GET /apis/ccompat/v7/subjects HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n" >&3 && head -1 <&3 | grep -q " 200"' "$PORT" 2>/dev/null
}

if [[ -f "$PIDFILE" ]] && kill -0 "$(cat "$PIDFILE")" 2>/dev/null; then
  echo "start-registry: already running (pid $(cat "$PIDFILE")) on $URL"
  exit 0
fi
bash "$ROOT/infra/scripts/install-registry.sh"
mkdir -p "$REGISTRY_HOME/data" "$REGISTRY_HOME/logs"

# Apicurio reads its settings from the environment: port, bind address (loopback only) and the H2 file.
HTTP_PORT="$PORT" QUARKUS_HTTP_HOST=127.0.0.1 REGISTRY_DATASOURCE_URL="jdbc:h2:file:$REGISTRY_HOME/data/registry" \
  nohup java -Xms"$HEAP" -Xmx"$HEAP" -XX:+UseSerialGC -Djava.awt.headless=true \
  -jar "$ROOT/.infra/registry/build/apicurio-registry-local-1-runner.jar" > "$REGISTRY_HOME/logs/registry.log" 2>&1 &
echo $! > "$PIDFILE"
echo "start-registry: started pid $(cat "$PIDFILE"), waiting for $URL to answer"
for _ in $(seq 1 240); do
  if answers; then
    echo "start-registry: $URL answers"
    exit 0
  fi
  kill -0 "$(cat "$PIDFILE")" 2>/dev/null || { tail -n 40 "$REGISTRY_HOME/logs/registry.log" >&2; exit 1; }
  sleep 0.5
done
echo "start-registry: $URL did not answer in 120 s" >&2
tail -n 40 "$REGISTRY_HOME/logs/registry.log" >&2
exit 1
