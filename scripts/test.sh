#!/usr/bin/env bash
# Runs every test of the project on a fresh machine: installs what the tests need, then
# builds all modules and runs unit, probe, control-plane and integration tests.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/prerequisites.sh
# -DskipVm leaves out the VM tier (see README), and so its prerequisites
case " $* " in *" -DskipVm "*|*" -DskipVm="*) export RSO_SKIP_VM=1 ;; esac
ensure_prerequisites
ensure_promtool
status=0
mvn -B -ntp -T 2 verify "$@" || status=$?
# a red run ends with what failed and why, where a log read from its end shows it
[ "$status" -eq 0 ] || scripts/test-failures.sh
exit "$status"
