#!/usr/bin/env bash
# node-probe on this machine: builds it and checks this host, printing the verdicts as a table.
# Extra arguments go to node-probe, e.g. `--spec my-spec.json` or `--format json`.
# Exit code: node-probe's own (0 all True, 1 some False/Unknown, 2 bad usage, 3 internal failure).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/prerequisites.sh
ensure_prerequisites
echo "==> building node-probe"
mvn -B -q -ntp -pl node-probe -am package -DskipTests
echo "==> checking this machine"
exec java -jar node-probe/target/node-probe.jar --format text "$@"
