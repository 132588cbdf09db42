#!/usr/bin/env bash
# The operator at scale (docs/benchmarks.md, "Operator at scale"): a real kube-apiserver + etcd with
# the operator's requests audited, N simulated nodes whose kubelets answer probe pods at once (a
# node-probe report recorded once and replayed per node, one status write per pod; --real-probes
# and --all-pod-statuses for the full kubelet), the operator jar as a process of its own under the
# chart's RBAC, one profile matching every node.
# Prints the figures as a table. Not part of the tests (timings on a shared machine are not asserts).
#   ./scripts/benchmark-scale.sh                      # 1,000 nodes
#   ./scripts/benchmark-scale.sh --nodes 1000,5000    # more: see ScaleBenchmark for every option
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/prerequisites.sh
ensure_prerequisites
echo "==> building the project"
mvn -B -q -ntp install -DskipTests
args="$*"
[[ "$args" == *--nodes* ]] || args="--nodes 1000 $args"
# The harness (simulated kubelets, polling) shares the machine's cores with the operator and the API
# server: C1 only and the serial collector cut its JIT and GC CPU in the first round by about a
# third (docs/benchmarks.md). The operator runs with its image's own options.
MAVEN_OPTS="${MAVEN_OPTS:-} -XX:TieredStopAtLevel=1 -XX:+UseSerialGC" \
  exec mvn -B -q -ntp -pl benchmark exec:java -Dexec.args="$args"
