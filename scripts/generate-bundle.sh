#!/usr/bin/env bash
# Regenerates the OLM bundle in bundle/ (manifests/, metadata/, bundle.Dockerfile) from the Helm
# chart (rendered by Helm with openshift.enabled), the committed CRDs in crds/ and the examples in
# examples/. The generator is OlmBundle in the operator tests; OlmBundleTest fails whenever the
# committed bundle/ differs from what it makes, and this script runs that test with -Dbundle.update,
# which writes bundle/ first. Never edit bundle/ by hand.
# Extra arguments go to Maven (e.g. -o).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
mvn -B -ntp -pl operator -am test -Dtest=OlmBundleTest -Dsurefire.failIfNoSpecifiedTests=false -Dbundle.update "$@"
git status --short -- bundle/
