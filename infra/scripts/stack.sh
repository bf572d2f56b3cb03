#!/usr/bin/env bash
# The scale-out stack's roles, each its own process of bin/run.ts with its own environment, on the
# services `make up` started (Kafka, Redis, the schema registry): the venue simulator, the pollers,
# the processors and two API replicas. Ports and data directories are distinct per process, and a
# port already in use stops `start` before anything starts, so nothing collides.
#
#   stack.sh start [NAME...]    start every process (or the named ones) and wait until each answers
#   stack.sh stop [NAME...]     SIGTERM (the service's own shutdown), SIGKILL after 30 s
#   stack.sh restart NAME...    stop, then start
#   stack.sh kill NAME...       SIGKILL, as a crash (what the chaos suite does)
#   stack.sh status             each process (pid, port, up or down), then bin/status.ts on the
#                               pollers' and processors' metrics
#   stack.sh env                the addresses, for scripts: API_URLS, SIM_URL, METRICS_URLS
# NAMEs: simulator, pollers, processors, api-<port> (one per API_PORTS).
#
# Env (required): KAFKA_BROKERS, REDIS_URL, SCHEMA_REGISTRY_URL, KEY_PEPPER, CATALOG_CURSOR_SECRET (what `make up` prints).
# Env (optional, defaults): SIM_PORT (7000), API_PORTS ("8080 8082"), PROCESSORS_METRICS_PORT (9464),
#   POLLERS_METRICS_PORT (9465), STACK_DIR (.data/stack: each process's DATA_DIR <STACK_DIR>/<name>,
#   its log <STACK_DIR>/logs/<name>.log, its pid <STACK_DIR>/<name>.pid), READY_SECONDS (120).
#   Anything else set (LOG_LEVEL, SIM_SCALE, POLL_INTERVAL_MS, ...) reaches every process.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
STACK_DIR="${STACK_DIR:-$ROOT/.data/stack}"
SIM_PORT="${SIM_PORT:-7000}"
API_PORTS="${API_PORTS:-8080 8082}"
PROCESSORS_METRICS_PORT="${PROCESSORS_METRICS_PORT:-9464}"
POLLERS_METRICS_PORT="${POLLERS_METRICS_PORT:-9465}"
READY_SECONDS="${READY_SECONDS:-120}"
VENUE="http://127.0.0.1:$SIM_PORT"

NAMES=(simulator pollers processors)
for p in $API_PORTS; do NAMES+=("api-$p"); done

say() { echo "stack: $*"; }
die() { echo "stack: $*" >&2; exit 1; }

port_of() {
  case "$1" in
    simulator) echo "$SIM_PORT" ;;
    pollers) echo "$POLLERS_METRICS_PORT" ;;
    processors) echo "$PROCESSORS_METRICS_PORT" ;;
    api-*) echo "${1#api-}" ;;
    *) die "unknown process \"$1\" (known: ${NAMES[*]})" ;;
  esac
}

# The environment of one process on top of the caller's: its role, port and data directory.
env_of() {
  case "$1" in
    simulator) echo "ROLES=simulator SIM_PORT=$SIM_PORT" ;;
    pollers) echo "ROLES=pollers VENUE_BASE_URL=$VENUE METRICS_PORT=$POLLERS_METRICS_PORT" ;;
    processors) echo "ROLES=processors VENUE_BASE_URL=$VENUE METRICS_PORT=$PROCESSORS_METRICS_PORT" ;;
    api-*) echo "ROLES=api VENUE_BASE_URL=$VENUE PORT=${1#api-} DEMO_KEY=false" ;;
  esac
}

# What answers once the process is ready: the API's plan catalog, the simulator's port, the metrics.
ready_url() {
  case "$1" in
    simulator) echo "" ;;
    pollers | processors) echo "http://127.0.0.1:$(port_of "$1")/metrics" ;;
    api-*) echo "http://127.0.0.1:${1#api-}/v1/plans" ;;
  esac
}

pidfile() { echo "$STACK_DIR/$1.pid"; }
alive() { [[ -f "$(pidfile "$1")" ]] && kill -0 "$(cat "$(pidfile "$1")")" 2>/dev/null; }
port_open() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
answers() {
  local url; url="$(ready_url "$1")"
  if [[ -z "$url" ]]; then port_open "$(port_of "$1")"; return; fi
  node -e 'fetch(process.argv[1], { signal: AbortSignal.timeout(2000) }).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))' "$url"
}

check_env() {
  local missing=()
  for v in KAFKA_BROKERS REDIS_URL SCHEMA_REGISTRY_URL KEY_PEPPER CATALOG_CURSOR_SECRET; do [[ -n "${!v:-}" ]] || missing+=("$v"); done
  [[ ${#missing[@]} == 0 ]] || die "set ${missing[*]} first (\`make up\` prints them): every process shares Kafka, Redis, the registry and the key pepper"
}

start_one() {
  local name="$1" port
  port="$(port_of "$name")"
  if alive "$name"; then say "$name already running (pid $(cat "$(pidfile "$name")"))"; return; fi
  if port_open "$port"; then die "$name: port $port is already in use by another process (set SIM_PORT, API_PORTS or *_METRICS_PORT: see stack.sh's header)"; fi
  mkdir -p "$STACK_DIR/$name" "$STACK_DIR/logs"
  # shellcheck disable=SC2046 # env_of is a list of NAME=value words
  (cd "$ROOT" && exec env $(env_of "$name") DATA_DIR="$STACK_DIR/$name" \
    nohup node --max-semi-space-size=64 --import tsx bin/run.ts >>"$STACK_DIR/logs/$name.log" 2>&1) &
  echo $! >"$(pidfile "$name")"
  say "$name started (pid $!, port $port, log $STACK_DIR/logs/$name.log)"
}

wait_ready() {
  local name="$1" t0=$SECONDS
  until answers "$name"; do
    alive "$name" || { tail -n 30 "$STACK_DIR/logs/$name.log" >&2; die "$name exited before it answered"; }
    (( SECONDS - t0 < READY_SECONDS )) || { tail -n 30 "$STACK_DIR/logs/$name.log" >&2; die "$name did not answer within $READY_SECONDS s"; }
    sleep 0.5
  done
  say "$name answers on port $(port_of "$name")"
}

stop_one() {
  local name="$1" pid
  if ! alive "$name"; then rm -f "$(pidfile "$name")"; say "$name not running"; return; fi
  pid="$(cat "$(pidfile "$name")")"
  kill -TERM "$pid"
  for _ in $(seq 1 60); do kill -0 "$pid" 2>/dev/null || break; sleep 0.5; done
  if kill -0 "$pid" 2>/dev/null; then say "$name did not stop in 30 s: SIGKILL"; kill -KILL "$pid"; fi
  rm -f "$(pidfile "$name")"
  say "$name stopped (pid $pid)"
}

kill_one() {
  local name="$1" pid
  alive "$name" || die "$name is not running"
  pid="$(cat "$(pidfile "$name")")"
  kill -KILL "$pid"
  while kill -0 "$pid" 2>/dev/null; do sleep 0.1; done
  rm -f "$(pidfile "$name")"
  say "$name SIGKILLed (pid $pid)"
}

cmd="${1:-}"
shift || true
targets=("$@")
[[ ${#targets[@]} -gt 0 ]] || targets=("${NAMES[@]}")
for n in "${targets[@]}"; do port_of "$n" >/dev/null; done

case "$cmd" in
  start)
    check_env
    # The simulator first and ready: the pollers and processors read it from their start.
    for n in "${targets[@]}"; do
      start_one "$n"
      if [[ "$n" == simulator ]]; then wait_ready "$n"; fi
    done
    for n in "${targets[@]}"; do
      if [[ "$n" != simulator ]]; then wait_ready "$n"; fi
    done
    ;;
  stop)
    # API replicas first, the simulator last: nothing reads from a process already gone.
    for ((i = ${#targets[@]} - 1; i >= 0; i--)); do stop_one "${targets[$i]}"; done
    ;;
  restart)
    check_env
    for n in "${targets[@]}"; do stop_one "$n"; done
    for n in "${targets[@]}"; do start_one "$n"; done
    for n in "${targets[@]}"; do wait_ready "$n"; done
    ;;
  kill)
    [[ $# -gt 0 ]] || die "kill needs the NAMEs to crash (${NAMES[*]})"
    for n in "${targets[@]}"; do kill_one "$n"; done
    ;;
  status)
    for n in "${NAMES[@]}"; do
      if alive "$n"; then state="up (pid $(cat "$(pidfile "$n")"))"; else state="down"; fi
      printf 'stack: %-12s port %-6s %s\n' "$n" "$(port_of "$n")" "$state"
    done
    (cd "$ROOT" && npx tsx bin/status.ts --url "http://127.0.0.1:$POLLERS_METRICS_PORT/metrics" --url "http://127.0.0.1:$PROCESSORS_METRICS_PORT/metrics") || true
    ;;
  env)
    urls=""
    for p in $API_PORTS; do urls="$urls http://127.0.0.1:$p"; done
    echo "API_URLS=\"${urls# }\""
    echo "SIM_URL=$VENUE"
    echo "METRICS_URLS=\"http://127.0.0.1:$POLLERS_METRICS_PORT/metrics http://127.0.0.1:$PROCESSORS_METRICS_PORT/metrics\""
    ;;
  *)
    sed -n '2,22p' "$0" | sed 's/^# \{0,1\}//'
    if [[ -z "$cmd" ]]; then exit 2; fi
    die "unknown command \"$cmd\""
    ;;
esac
