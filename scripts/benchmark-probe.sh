#!/usr/bin/env bash
# node-probe's performance figures (docs/benchmarks.md): parse time of `mmfsadm test verbs conn`
# for 10,000 peers, and the wall time of a full probe run on a fixture node, JVM start included.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/prerequisites.sh
ensure_prerequisites
echo "==> building node-probe and its test classes"
mvn -B -q -ntp -pl node-probe -am package -DskipTests
classpath_file=$(mktemp)
trap 'rm -f "$classpath_file"' EXIT
# test-compile in the same run: the reactor then hands over probe-contract as its classes folder
mvn -B -q -ntp -pl probe-contract,node-probe test-compile dependency:build-classpath -Dmdep.includeScope=test -Dmdep.outputFile="$classpath_file"
echo "==> measuring (takes about a minute)"
exec java -cp "node-probe/target/test-classes:node-probe/target/classes:$(cat "$classpath_file")" \
  io.rdmastorage.probe.bench.ProbeBenchmark node-probe/target/node-probe.jar
