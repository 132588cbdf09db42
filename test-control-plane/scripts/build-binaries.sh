#!/usr/bin/env bash
# Builds the control-plane binaries the tests need (kube-apiserver, kubectl, etcd; kubelet,
# kube-scheduler and kube-controller-manager for the real-node tier) from Go
# modules, because release tarballs cannot be downloaded where this project is built.
#
# Idempotent: binaries are cached under ~/.cache/rdma-storage-operator/{k8s,etcd}/<version>/
# and only built when absent. The first build takes several minutes on 2 cores; later runs
# return at once. The Go module and build caches stay at Go's defaults so rebuilds are warm.
#
# Finally the three binaries are linked where io.fabric8:kube-api-test looks for them:
# ~/.kubeapitest/k8s/<k8s version>-<os>-<arch>/.
#
# Usage: build-binaries.sh            (prints the kube-api-test directory on its last line)
#        build-binaries.sh newest     (the control plane of k8s.newest.version: kube-apiserver,
#                                      kube-scheduler, kube-controller-manager; prints their folder)
#        build-binaries.sh newest --background   (starts that build detached, its output in
#                                      <cache>/work/k8s-<version>.log, and returns at once: the Maven
#                                      build starts it once the default version is built, so the
#                                      tests that run on it later rarely wait; a caller that needs
#                                      it waits for the build's lock)
# Versions come from versions.properties beside this script (the Java harness reads the same file).
# Environment: K8S_VERSION, ETCD_VERSION (override), K8S_BINARIES (which, space-separated),
# RSO_BINARY_CACHE (cache root),
# KUBEAPITEST_DIR (kube-api-test's root).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
versions="$here/versions.properties"
property() { sed -n "s/^$1=//p" "$versions" | tr -d '[:space:]'; }
if [[ "${1:-}" == newest ]]; then
  K8S_VERSION="$(property k8s.newest.version)"
  K8S_BINARIES="kube-apiserver kube-scheduler kube-controller-manager"
fi
K8S_VERSION="${K8S_VERSION:-$(property k8s.version)}"
ETCD_VERSION="${ETCD_VERSION:-$(property etcd.version)}"
[[ -n "$K8S_VERSION" && -n "$ETCD_VERSION" ]] || { echo "[build-binaries] versions missing in $versions" >&2; exit 1; }
CACHE_ROOT="${RSO_BINARY_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/rdma-storage-operator}"
KUBEAPITEST_ROOT="${KUBEAPITEST_DIR:-$HOME/.kubeapitest}"

log() { printf '[build-binaries] %s\n' "$*" >&2; }

# go build -v names each package (a bare import path) as it compiles it: count those, show a line
# every 100, and pass everything else (downloads, compiler errors) through.
progress() {
  awk -v what="$1" '/^[^ :]+$/ { if (++n % 100 == 0) printf "[build-binaries] %s: %d packages compiled\n", what, n; next }
                    { print } { fflush() }' >&2
}

source "$here/go-build-env.sh"
K8S_DIR="$CACHE_ROOT/k8s/$K8S_VERSION"
ETCD_DIR="$CACHE_ROOT/etcd/$ETCD_VERSION"

# the real-node tier (RealNode) runs a real kubelet with the scheduler and controller-manager; a
# control plane of another version (the newest one the DRA tests run on) needs no kubelet or kubectl
read -r -a K8S_BINARIES <<< "${K8S_BINARIES:-kube-apiserver kubectl kubelet kube-scheduler kube-controller-manager}"

built() {
  local binary
  [[ -x "$ETCD_DIR/etcd" ]] || return 1
  for binary in "${K8S_BINARIES[@]}"; do [[ -x "$K8S_DIR/$binary" ]] || return 1; done
}

if [[ "${2:-}" == --background ]]; then
  if ! built; then
    log "building ${K8S_BINARIES[*]} v$K8S_VERSION in the background: $CACHE_ROOT/work/k8s-$K8S_VERSION.log"
    start_ahead_of_need "$CACHE_ROOT/work/k8s-$K8S_VERSION.log" bash "$here/build-binaries.sh" newest
  fi
  exit 0
fi

mkdir -p "$CACHE_ROOT"
if ! built; then
  # One build at a time: Maven, a background build and a test harness may all call this script.
  exec 9>"$CACHE_ROOT/.build.lock"
  flock 9
  go_build_env
fi

# k8s.io/kubernetes requires its staging modules (k8s.io/api, k8s.io/client-go, ...) at v0.0.0
# and replaces them with ./staging/... in its own go.mod; replace directives of dependencies are
# ignored, so the wrapper module maps each of them to the published v0.<minor>.<patch>.
build_k8s() {
  local binary missing=0
  for binary in "${K8S_BINARIES[@]}"; do [[ -x "$K8S_DIR/$binary" ]] || missing=1; done
  if [[ $missing == 0 ]]; then
    return
  fi
  local started=$SECONDS work staging_version minor commit
  log "building ${K8S_BINARIES[*]} v$K8S_VERSION (first time only; takes several minutes)"
  work="$CACHE_ROOT/work/k8s-$K8S_VERSION"
  rm -rf "$work" && mkdir -p "$work" && cd "$work"
  staging_version="v0.${K8S_VERSION#*.}"
  minor="${K8S_VERSION#*.}"; minor="${minor%%.*}"

  log "resolving k8s.io/kubernetes@v$K8S_VERSION"
  local upstream_mod
  upstream_mod="$(go mod download -json "k8s.io/kubernetes@v$K8S_VERSION" | sed -n 's/^[[:space:]]*"GoMod": "\(.*\)",\{0,1\}$/\1/p')"
  [[ -f "$upstream_mod" ]] || { log "could not download k8s.io/kubernetes@v$K8S_VERSION"; exit 1; }
  {
    echo "module rdmastorage.local/build/kubernetes"
    echo
    echo "go $(sed -n 's/^go \([0-9.]*\).*/\1/p' "$upstream_mod")"
    echo
    echo "require k8s.io/kubernetes v$K8S_VERSION"
    echo
    echo "replace ("
    # every k8s.io/* requirement pinned at v0.0.0 is a staging module
    grep -oE '^[[:space:]]*k8s\.io/[a-z0-9-]+ v0\.0\.0([[:space:]]|$)' "$upstream_mod" | awk '{print $1}' | sort -u |
      while read -r m; do echo "	$m => $m $staging_version"; done
    echo ")"
  } > go.mod
  log "wrapper go.mod maps $(grep -c '=>' go.mod) staging modules to $staging_version"

  commit="$(go mod download -json "k8s.io/kubernetes@v$K8S_VERSION" | sed -n 's/.*"Hash": "\([0-9a-f]\{40\}\)".*/\1/p' | head -1)"
  local v="k8s.io/component-base/version" c="k8s.io/client-go/pkg/version" ldflags="-s -w" pkg
  for pkg in "$v" "$c"; do
    ldflags+=" -X $pkg.gitVersion=v$K8S_VERSION -X $pkg.gitMajor=1 -X $pkg.gitMinor=$minor"
    ldflags+=" -X $pkg.gitTreeState=clean -X $pkg.buildDate=1970-01-01T00:00:00Z"
    [[ -n "$commit" ]] && ldflags+=" -X $pkg.gitCommit=$commit"
  done

  log "compiling (about 2,000 packages on a cold Go cache)"
  mkdir -p out
  go build -v "${GO_BUILD_FLAGS[@]}" -ldflags "$ldflags" -o out/ \
    "${K8S_BINARIES[@]/#/k8s.io/kubernetes/cmd/}" 2>&1 | progress kubernetes
  mkdir -p "$K8S_DIR"
  for binary in "${K8S_BINARIES[@]}"; do mv -f "out/$binary" "$K8S_DIR/"; done
  cd / && rm -rf "$work"
  log "${K8S_BINARIES[*]} built in $((SECONDS - started)) s -> $K8S_DIR"
}

build_etcd() {
  if [[ -x "$ETCD_DIR/etcd" ]]; then
    return
  fi
  local started=$SECONDS work
  log "building etcd v$ETCD_VERSION (first time only)"
  work="$CACHE_ROOT/work/etcd-$ETCD_VERSION"
  rm -rf "$work" && mkdir -p "$work" && cd "$work"
  cat > go.mod <<MOD
module rdmastorage.local/build/etcd

go 1.24

require go.etcd.io/etcd/server/v3 v$ETCD_VERSION
MOD
  mkdir -p out
  go build -v "${GO_BUILD_FLAGS[@]}" -ldflags "-s -w -X go.etcd.io/etcd/api/v3/version.GitSHA=v$ETCD_VERSION" \
    -o out/etcd go.etcd.io/etcd/server/v3 2>&1 | progress etcd
  mkdir -p "$ETCD_DIR"
  mv -f out/etcd "$ETCD_DIR/etcd"
  cd / && rm -rf "$work"
  log "etcd built in $((SECONDS - started)) s -> $ETCD_DIR"
}

build_etcd
build_k8s

# kube-api-test wants all three binaries in one directory (a control plane without kubectl is no use to it).
GOOS_ARCH="$(go env GOOS)-$(go env GOARCH)"
TEST_DIR="$KUBEAPITEST_ROOT/k8s/$K8S_VERSION-$GOOS_ARCH"
if [[ ! -x "$K8S_DIR/kubectl" ]]; then
  log "binaries ready in $K8S_DIR"
  echo "$K8S_DIR"
  exit 0
fi
mkdir -p "$TEST_DIR"
ln -sfn "$K8S_DIR/kube-apiserver" "$TEST_DIR/kube-apiserver"
ln -sfn "$K8S_DIR/kubectl" "$TEST_DIR/kubectl"
ln -sfn "$ETCD_DIR/etcd" "$TEST_DIR/etcd"
log "binaries ready in $TEST_DIR"
echo "$TEST_DIR"
