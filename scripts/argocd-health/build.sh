#!/usr/bin/env bash
# Builds argocd-health (main.go beside this script) against Argo CD's Go module, so the health.lua
# scripts are tested on Argo CD's own health evaluation.
#
# Idempotent: the binary is cached under
#   ~/.cache/rdma-storage-operator/argocd-health/<argocd version>-<hash of main.go>/argocd-health
# and only built when absent. Prints the binary's path on its last line.
# With --background, a build that is needed starts detached (its output in
# <cache>/work/argocd-health.log) and the script returns at once: the Maven build starts it before the
# tests, and the tests that run the tool build it on first use, waiting for that build's lock.
# Versions come from versions.properties beside this script.
# Environment: ARGOCD_VERSION (override), RSO_BINARY_CACHE (cache root).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
property() { sed -n "s/^$1=//p" "$here/versions.properties" | tr -d '[:space:]'; }
ARGOCD_VERSION="${ARGOCD_VERSION:-$(property argocd.version)}"
GO_TOOLCHAIN="$(property go.toolchain)"
[[ -n "$ARGOCD_VERSION" && -n "$GO_TOOLCHAIN" ]] || { echo "[argocd-health] versions missing in $here/versions.properties" >&2; exit 1; }
CACHE_ROOT="${RSO_BINARY_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/rdma-storage-operator}"

log() { printf '[argocd-health] %s\n' "$*" >&2; }

source_hash="$(sha256sum "$here/main.go" | cut -c1-12)"
BIN_DIR="$CACHE_ROOT/argocd-health/$ARGOCD_VERSION-$source_hash"
if [[ -x "$BIN_DIR/argocd-health" ]]; then
  echo "$BIN_DIR/argocd-health"
  exit 0
fi
# the environment and flags every Go tool build shares, and the detached start
source "$here/../../test-control-plane/scripts/go-build-env.sh"
if [[ "${1:-}" == --background ]]; then
  log "building in the background: $CACHE_ROOT/work/argocd-health.log"
  start_ahead_of_need "$CACHE_ROOT/work/argocd-health.log" bash "$0"
  exit 0
fi

# Argo CD's go.mod needs a newer Go than a machine may have; the go command takes this exact
# toolchain from the module proxy (and caches it in the module cache).
export GOTOOLCHAIN="$GO_TOOLCHAIN"
go_build_env

mkdir -p "$CACHE_ROOT"
# one build at a time: Maven and a test may both call this script
exec 9>"$CACHE_ROOT/.argocd-health.lock"
flock 9
if [[ -x "$BIN_DIR/argocd-health" ]]; then
  echo "$BIN_DIR/argocd-health"
  exit 0
fi

started=$SECONDS
log "building argocd-health against github.com/argoproj/argo-cd/v3@v$ARGOCD_VERSION (first time only; takes minutes)"
work="$CACHE_ROOT/work/argocd-health-$ARGOCD_VERSION"
rm -rf "$work" && mkdir -p "$work" && cd "$work"

upstream_mod="$(go mod download -json "github.com/argoproj/argo-cd/v3@v$ARGOCD_VERSION" | sed -n 's/^[[:space:]]*"GoMod": "\(.*\)",\{0,1\}$/\1/p')"
[[ -f "$upstream_mod" ]] || { log "could not download github.com/argoproj/argo-cd/v3@v$ARGOCD_VERSION"; exit 1; }
# replace directives of a dependency are ignored, so the wrapper repeats Argo CD's: k8s.io/* at
# the versions it was built with, and a few pins. The one to a directory of its repository
# (gitops-engine) is left out: its published module at the same version is what it requires.
{
  echo "module rdmastorage.local/build/argocd-health"
  echo
  echo "go $(sed -n 's/^go \([0-9.]*\).*/\1/p' "$upstream_mod")"
  echo
  echo "require github.com/argoproj/argo-cd/v3 v$ARGOCD_VERSION"
  echo
  echo "replace ("
  sed -e 's://.*$::' -e 's/^replace[[:space:]]*//' "$upstream_mod" |
    awk '$2 == "=>" && $3 !~ /^\.\.?\// && NF >= 4 { print "\t" $1 " => " $3 " " $4 }'
  echo ")"
} > go.mod
log "wrapper go.mod repeats $(grep -c '=>' go.mod) replace directives of Argo CD's"
cp "$here/main.go" .

mkdir -p out
go build "${GO_BUILD_FLAGS[@]}" -ldflags "-s -w" -o out/argocd-health . >&2
mkdir -p "$BIN_DIR"
mv -f out/argocd-health "$BIN_DIR/"
cd / && rm -rf "$work"
log "argocd-health built in $((SECONDS - started)) s -> $BIN_DIR"
echo "$BIN_DIR/argocd-health"
