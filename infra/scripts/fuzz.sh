#!/usr/bin/env bash
# `make fuzz`: property-based fuzzing of the API against its own OpenAPI document. Starts the
# embedded service (bin/run.ts, the built-in simulator, a throwaway DATA_DIR) on a free port, lifts
# its demo key to enterprise terms (so the fuzzer is not stopped by the pro plan's rate limit), and
# runs schemathesis (installed by the Makefile into .infra/fuzz-venv, pinned) on
# /v1/openapi.json with every check. .ci/run runs it after `make test` with FUZZ_EXAMPLES=100 (over 5,000 requests, a few
# minutes); longer runs are triage work. Extra arguments go to `schemathesis run` (e.g. ARGS="--max-examples 200").
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$ROOT"
ST="$ROOT/.infra/fuzz-venv/bin/schemathesis"
[[ -x "$ST" ]] || { echo "fuzz: $ST missing; run it as make fuzz" >&2; exit 2; }

port_free() { ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
PORT="${FUZZ_PORT:-28080}"
while ! port_free "$PORT"; do PORT=$((PORT + 1)); done

DATA="$(mktemp -d)"
LOG="$DATA/service.log"
# Embedded default whatever this shell has exported (no stack seams).
env -u REDIS_URL -u KAFKA_BROKERS -u CLICKHOUSE_URL -u SCHEMA_REGISTRY_URL -u VENUE_BASE_URL -u ROLES \
  DATA_DIR="$DATA" PORT="$PORT" LOG_LEVEL=warn node --max-semi-space-size=64 --import tsx bin/run.ts >"$LOG" 2>&1 &
PID=$!
cleanup() {
  kill "$PID" 2>/dev/null || true
  wait "$PID" 2>/dev/null || true
  rm -rf "$DATA"
}
trap cleanup EXIT

for _ in $(seq 1 180); do
  grep -q '^demo key' "$LOG" && break
  kill -0 "$PID" 2>/dev/null || { cat "$LOG" >&2; echo "fuzz: the service stopped" >&2; exit 1; }
  sleep 1
done
KEY="$(sed -n 's/^demo key .*: \(pmk_[A-Za-z0-9_-]*\)$/\1/p' "$LOG")"
[[ -n "$KEY" ]] || { cat "$LOG" >&2; echo "fuzz: no demo key after 180 s" >&2; exit 1; }
env -u REDIS_URL DATA_DIR="$DATA" node --import tsx bin/keys.ts account demo --plan enterprise --rate-limit 1000000 --included 1000000000 >/dev/null
sleep 2 # the server re-reads DATA_DIR/keys.json within a second

BASE="http://127.0.0.1:$PORT"
# The readers answer 503 service_unavailable until the first catalog and sports snapshots are
# published (the spec's warm-up answer); the fuzzer starts once both serve and the streams open, so any
# 5xx it sees is a fault.
for path in /v1/markets /v1/matching-markets/sports; do
  for _ in $(seq 1 240); do
    code="$(curl -s -o /dev/null -w '%{http_code}' -H "Authorization: Bearer $KEY" "$BASE$path?limit=1" || true)"
    [[ "$code" == 200 ]] && break
    sleep 1
  done
  [[ "$code" == 200 ]] || { tail -50 "$LOG" >&2; echo "fuzz: $path still answers $code after 240 s" >&2; exit 1; }
done
# The stream's hubs answer the same warm-up 503 until they have read the log to its end once; a
# stream that opens (200, then events) is cut after 3 s by curl, which still prints its status.
for path in '/v1/stream?channel=sports' '/v1/stream?channel=quotes&market_id=venue_3:1'; do
  for _ in $(seq 1 240); do
    code="$(curl -s -o /dev/null -m 3 -w '%{http_code}' -H "Authorization: Bearer $KEY" "$BASE$path" || true)"
    [[ "$code" == 200 ]] && break
    sleep 1
  done
  [[ "$code" == 200 ]] || { tail -50 "$LOG" >&2; echo "fuzz: $path still answers $code after 240 s" >&2; exit 1; }
done
echo "fuzz: schemathesis on $BASE/v1/openapi.json"
# Every check but positive_data_acceptance, which a schema cannot satisfy here: opaque cursors
# ("0" is schema-valid, never issued), identifiers checked per provider, "address or username, not
# both". FUZZ_STRICT=1 keeps it. First run (2026-11-23, 10 examples per operation): only that check
# failed, on each such case; no 5xx, no undocumented status, no body off its schema.
EXCLUDE=(--exclude-checks positive_data_acceptance)
[[ "${FUZZ_STRICT:-0}" == 1 ]] && EXCLUDE=()
"$ST" run "$BASE/v1/openapi.json" --url "$BASE" --header "Authorization: Bearer $KEY" --checks all "${EXCLUDE[@]}" --max-examples "${FUZZ_EXAMPLES:-25}" "$@"
