#!/usr/bin/env bash
# Installs the Apache Kafka broker (jars from Maven Central, via infra/kafka/pom.xml) into
# .infra/kafka/libs. Cached: a second run with the same pom does nothing. Needs Java 17+ and Maven.
# Out: .infra/kafka/libs/*.jar and .infra/kafka/libs/.pom.sha (the pom the jars came from).
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
LIBS="$ROOT/.infra/kafka/libs"
POM="$ROOT/infra/kafka/pom.xml"
command -v java >/dev/null || { echo "install-kafka: java not found (Java 17+ is needed)" >&2; exit 1; }
command -v mvn >/dev/null || { echo "install-kafka: mvn not found (apt-get install -y maven)" >&2; exit 1; }
SHA="$(sha256sum "$POM" | cut -d' ' -f1)"
if [[ -f "$LIBS/.pom.sha" && "$(cat "$LIBS/.pom.sha")" == "$SHA" ]] && ls "$LIBS"/kafka_2.13-*.jar >/dev/null 2>&1; then
  echo "install-kafka: cached in $LIBS"
  exit 0
fi
rm -rf "$LIBS"
mkdir -p "$LIBS"
echo "install-kafka: resolving the broker jars from Maven Central into $LIBS"
mvn -q -B -f "$POM" dependency:copy-dependencies -DoutputDirectory="$LIBS" -DincludeScope=runtime
echo "$SHA" > "$LIBS/.pom.sha"
echo "install-kafka: $(ls "$LIBS"/*.jar | wc -l) jars, $(ls "$LIBS"/kafka_2.13-*.jar | xargs -n1 basename)"
