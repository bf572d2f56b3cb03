#!/usr/bin/env bash
# Starts a single-node Apache Kafka broker in KRaft mode (broker and controller in one JVM), without
# Docker, from the jars install-kafka.sh put in .infra/kafka/libs. Formats the storage on first start,
# then waits until the broker answers a metadata request.
# Env: KAFKA_PORT (9092), KAFKA_CONTROLLER_PORT (9093), KAFKA_HEAP (512m), KAFKA_HOME (.infra/kafka),
#      KAFKA_REBALANCE_DELAY_MS (0: group.initial.rebalance.delay.ms).
# Out: a daemon whose pid is in $KAFKA_HOME/kafka.pid, data in $KAFKA_HOME/data, logs in $KAFKA_HOME/logs.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
KAFKA_HOME="${KAFKA_HOME:-$ROOT/.infra/kafka}"
PORT="${KAFKA_PORT:-9092}"
CPORT="${KAFKA_CONTROLLER_PORT:-9093}"
HEAP="${KAFKA_HEAP:-512m}"
PIDFILE="$KAFKA_HOME/kafka.pid"

if [[ -f "$PIDFILE" ]] && kill -0 "$(cat "$PIDFILE")" 2>/dev/null; then
  echo "start-kafka: already running (pid $(cat "$PIDFILE")) on 127.0.0.1:$PORT"
  exit 0
fi
bash "$ROOT/infra/scripts/install-kafka.sh"
mkdir -p "$KAFKA_HOME/data" "$KAFKA_HOME/logs"

cat > "$KAFKA_HOME/server.properties" <<PROPS
process.roles=broker,controller
node.id=1
controller.quorum.voters=1@127.0.0.1:$CPORT
listeners=PLAINTEXT://127.0.0.1:$PORT,CONTROLLER://127.0.0.1:$CPORT
advertised.listeners=PLAINTEXT://127.0.0.1:$PORT
controller.listener.names=CONTROLLER
inter.broker.listener.name=PLAINTEXT
listener.security.protocol.map=CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT
log.dirs=$KAFKA_HOME/data
num.partitions=3
default.replication.factor=1
min.insync.replicas=1
offsets.topic.replication.factor=1
offsets.topic.num.partitions=10
transaction.state.log.replication.factor=1
transaction.state.log.min.isr=1
# Tests create many short-lived groups: no initial rebalance wait (KAFKA_REBALANCE_DELAY_MS=3000 is
# Kafka's own default, for measuring what a production broker makes a new group wait).
group.initial.rebalance.delay.ms=${KAFKA_REBALANCE_DELAY_MS:-0}
# Topics are created by the pipeline with their configured partitions and cleanup policy, never implicitly.
auto.create.topics.enable=false
log.cleaner.enable=true
num.network.threads=2
num.io.threads=4
PROPS

cat > "$KAFKA_HOME/log4j.properties" <<PROPS
log4j.rootLogger=INFO, file
log4j.appender.file=org.apache.log4j.RollingFileAppender
log4j.appender.file.File=$KAFKA_HOME/logs/server.log
log4j.appender.file.MaxFileSize=20MB
log4j.appender.file.MaxBackupIndex=2
log4j.appender.file.layout=org.apache.log4j.PatternLayout
log4j.appender.file.layout.ConversionPattern=[%d] %p %m (%c)%n
log4j.logger.kafka.request.logger=WARN
log4j.logger.state.change.logger=WARN
PROPS

CP="$KAFKA_HOME/libs/*"
JAVA_OPTS=(-Xms"$HEAP" -Xmx"$HEAP" -XX:+UseG1GC -Djava.awt.headless=true -Dlog4j.configuration="file:$KAFKA_HOME/log4j.properties")

if [[ ! -f "$KAFKA_HOME/data/meta.properties" ]]; then
  CLUSTER_ID="$(java -cp "$CP" "${JAVA_OPTS[@]}" kafka.tools.StorageTool random-uuid | tail -1)"
  java -cp "$CP" "${JAVA_OPTS[@]}" kafka.tools.StorageTool format -t "$CLUSTER_ID" -c "$KAFKA_HOME/server.properties" --ignore-formatted
fi

nohup java -cp "$CP" "${JAVA_OPTS[@]}" kafka.Kafka "$KAFKA_HOME/server.properties" > "$KAFKA_HOME/logs/stdout.log" 2>&1 &
echo $! > "$PIDFILE"
echo "start-kafka: started pid $(cat "$PIDFILE"), waiting for 127.0.0.1:$PORT to answer metadata"

if [[ -f "$ROOT/node_modules/kafkajs/package.json" ]]; then
  if ! node "$ROOT/infra/scripts/kafka-ready.mjs" "127.0.0.1:$PORT" 90; then
    tail -n 40 "$KAFKA_HOME/logs/server.log" "$KAFKA_HOME/logs/stdout.log" >&2 || true
    exit 1
  fi
else
  # No node_modules yet: fall back to waiting for the port.
  for _ in $(seq 1 180); do
    (exec 3<>"/dev/tcp/127.0.0.1/$PORT") 2>/dev/null && { echo "start-kafka: port $PORT open"; exit 0; }
    kill -0 "$(cat "$PIDFILE")" 2>/dev/null || { tail -n 40 "$KAFKA_HOME/logs/stdout.log" >&2; exit 1; }
    sleep 0.5
  done
  echo "start-kafka: 127.0.0.1:$PORT did not open in 90 s" >&2
  exit 1
fi
