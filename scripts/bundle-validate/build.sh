#!/usr/bin/env bash
# Builds bundle-validate (main.go beside this script) against the operator-framework's API module,
# so the OLM bundle in bundle/ is checked by the validators `operator-sdk bundle validate` runs.
#
# Idempotent: the binary is cached under
#   ~/.cache/rdma-storage-operator/bundle-validate/<api version>-<hash of main.go>/bundle-validate
# and only built when absent. Prints the binary's path on its last line.
# With --background, a build that is needed starts detached (its output in
# <cache>/work/bundle-validate.log) and the script returns at once: the Maven build starts it before the
# tests, and the tests that run the tool build it on first use, waiting for that build's lock.
# Versions come from versions.properties beside this script.
# Environment: OPERATOR_FRAMEWORK_API_VERSION (override), RSO_BINARY_CACHE (cache root).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
property() { sed -n "s/^$1=//p" "$here/versions.properties" | tr -d '[:space:]'; }
API_VERSION="${OPERATOR_FRAMEWORK_API_VERSION:-$(property operator-framework-api.version)}"
GO_TOOLCHAIN="$(property go.toolchain)"
[[ -n "$API_VERSION" && -n "$GO_TOOLCHAIN" ]] || { echo "[bundle-validate] versions missing in $here/versions.properties" >&2; exit 1; }
CACHE_ROOT="${RSO_BINARY_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/rdma-storage-operator}"

log() { printf '[bundle-validate] %s\n' "$*" >&2; }

source_hash="$(sha256sum "$here/main.go" | cut -c1-12)"
BIN_DIR="$CACHE_ROOT/bundle-validate/$API_VERSION-$source_hash"
if [[ -x "$BIN_DIR/bundle-validate" ]]; then
  echo "$BIN_DIR/bundle-validate"
  exit 0
fi
# the environment and flags every Go tool build shares, and the detached start
source "$here/../../test-control-plane/scripts/go-build-env.sh"
if [[ "${1:-}" == --background ]]; then
  log "building in the background: $CACHE_ROOT/work/bundle-validate.log"
  start_ahead_of_need "$CACHE_ROOT/work/bundle-validate.log" bash "$0"
  exit 0
fi

# the module's go.mod may need a newer Go than a machine has; the go command takes this exact
# toolchain from the module proxy (and caches it in the module cache)
export GOTOOLCHAIN="$GO_TOOLCHAIN"
go_build_env

mkdir -p "$CACHE_ROOT"
# one build at a time: Maven and a test may both call this script
exec 9>"$CACHE_ROOT/.bundle-validate.lock"
flock 9
if [[ -x "$BIN_DIR/bundle-validate" ]]; then
  echo "$BIN_DIR/bundle-validate"
  exit 0
fi

started=$SECONDS
log "building bundle-validate against github.com/operator-framework/api@v$API_VERSION (first time only; takes a minute or two)"
work="$CACHE_ROOT/work/bundle-validate-$API_VERSION"
rm -rf "$work" && mkdir -p "$work" && cd "$work"

upstream_mod="$(go mod download -json "github.com/operator-framework/api@v$API_VERSION" | sed -n 's/^[[:space:]]*"GoMod": "\(.*\)",\{0,1\}$/\1/p')"
[[ -f "$upstream_mod" ]] || { log "could not download github.com/operator-framework/api@v$API_VERSION"; exit 1; }
# replace directives of a dependency are ignored; the module has none (were one added, the wrapper
# would have to repeat it, as argocd-health's does), so requiring it is all the wrapper needs
if grep -q '^replace' "$upstream_mod"; then
  log "github.com/operator-framework/api@v$API_VERSION has replace directives: repeat them in this wrapper"
  exit 1
fi
{
  echo "module rdmastorage.local/build/bundle-validate"
  echo
  echo "go $(sed -n 's/^go \([0-9.]*\).*/\1/p' "$upstream_mod")"
  echo
  echo "require github.com/operator-framework/api v$API_VERSION"
} > go.mod
cp "$here/main.go" .

mkdir -p out
go build "${GO_BUILD_FLAGS[@]}" -ldflags "-s -w" -o out/bundle-validate . >&2
mkdir -p "$BIN_DIR"
mv -f out/bundle-validate "$BIN_DIR/"
cd / && rm -rf "$work"
log "bundle-validate built in $((SECONDS - started)) s -> $BIN_DIR"
echo "$BIN_DIR/bundle-validate"
