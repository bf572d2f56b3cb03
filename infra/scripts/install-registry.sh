#!/usr/bin/env bash
# Installs Apicurio Registry 2.4.2.Final (a Confluent-compatible schema registry: /apis/ccompat/v7)
# without Docker: a Quarkus build of its Maven Central artifacts through infra/registry/pom.xml into
# .infra/registry/build. Cached: a second run with the same pom and properties does nothing.
# Needs Java 17+ and Maven. Out: .infra/registry/build/apicurio-registry-local-1-runner.jar, its lib/,
# and .infra/registry/build/.pom.sha (the inputs the build came from).
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
SRC="$ROOT/infra/registry"
BUILD="$ROOT/.infra/registry/build"
JAR="$BUILD/apicurio-registry-local-1-runner.jar"
command -v java >/dev/null || { echo "install-registry: java not found (Java 17+ is needed)" >&2; exit 1; }
command -v mvn >/dev/null || { echo "install-registry: mvn not found (apt-get install -y maven)" >&2; exit 1; }
SHA="$(cat "$SRC/pom.xml" "$SRC/src/main/resources/application.properties" | sha256sum | cut -d' ' -f1)"
if [[ -f "$BUILD/.pom.sha" && "$(cat "$BUILD/.pom.sha")" == "$SHA" && -f "$JAR" ]]; then
  echo "install-registry: cached in $BUILD"
  exit 0
fi
rm -rf "$BUILD"
echo "install-registry: building Apicurio Registry from Maven Central into $BUILD"
mvn -q -B -f "$SRC/pom.xml" -DskipTests package
echo "$SHA" > "$BUILD/.pom.sha"
echo "install-registry: $(basename "$JAR") and $(ls "$BUILD"/lib | wc -l) jars in lib/"
