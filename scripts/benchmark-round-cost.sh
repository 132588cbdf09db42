#!/usr/bin/env bash
# What one probe round costs a real cluster (docs/benchmarks.md, "What a round costs a real
# cluster"): a real kubelet with containerd and runc, the real scheduler and controller-manager,
# everyone's API requests audited, the operator jar as its service account, one profile probing
# every minute. Prints the writes by actor per round, etcd's log bytes, the time to the verdict, and
# the probe pod's CPU time and memory peak from its cgroup, then the figures at 1,000 and 10,000
# nodes. Needs root (the real node's namespaces and cgroups); takes about 8 minutes.
#   ./scripts/benchmark-round-cost.sh [--rounds N] [--out FILE.md]
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/prerequisites.sh
ensure_prerequisites
echo "==> building the project"
mvn -B -q -ntp install -DskipTests
exec mvn -B -q -ntp -pl benchmark exec:java -Dbenchmark.main=io.rdmastorage.benchmark.RoundCostBenchmark -Dexec.args="$*"
