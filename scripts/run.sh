#!/usr/bin/env bash
# The main job, on this machine: a real kube-apiserver + etcd (built from source the first time),
# six simulated GPU nodes whose hosts show a healthy node and the classic silent RDMA failures
# (storage bytes on TCP despite a passing configuration among them), a RoCE node with PFC on the
# wrong priorities, the operator, the DESIGN example profile and a RoCE profile, and an acceptance
# run from recorded fio outputs; prints the verdicts, the acceptance report and a kubeconfig to
# explore with, then keeps running until Ctrl-C. `./scripts/run.sh --exit` stops after the verdicts.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/prerequisites.sh
ensure_prerequisites
echo "==> building the project"
mvn -B -q -ntp install -DskipTests
exec mvn -B -q -ntp -pl demo exec:java -Dexec.args="$*"
