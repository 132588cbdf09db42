#!/usr/bin/env bash
# Runs every test of the project on a fresh machine: installs what the tests need, then
# builds all modules and runs unit, probe, control-plane and integration tests.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/prerequisites.sh
ensure_prerequisites
exec mvn -B -ntp verify "$@"
