# Sourced by the scripts that build a Go tool from its module (build-binaries.sh beside this file,
# scripts/argocd-health/build.sh, scripts/bundle-validate/build.sh; scripts/image-rootfs-prefetch.sh
# for start_ahead_of_need only). Defines:
#   go_build_env                  the environment every such build shares, and its flags in
#                                 GO_BUILD_FLAGS; called on the build path only
#   start_ahead_of_need LOG CMD...  CMD started in a session of its own at niceness 19, its output
#                                 in LOG, returning at once: the Maven build starts the tools and
#                                 root file systems the tests need later this way, and a test that
#                                 needs one first waits for that build's lock
#
# A build something waits for runs at full priority; one started ahead of need takes only what the
# tests and the builds that are waited for leave (the cold path is bound by CPU: only the order of the
# work is ours to choose). Niceness 19, not 10: at 10, four such builds beside the operator's unit
# tests left an emulated arm64 guest too little, and its probe run passed its 6-minute limit.
# Measured on 2 cores, compiling k8s.io/api/core/v1 and what it imports from an empty build cache:
# 85 CPU-seconds at Go's defaults, 67 with these two settings (the compiler's garbage collector
# running a quarter as often, GOGC=400, and no debugging information, which -ldflags=-s strips from
# the binary anyway).

command -v go >/dev/null || PATH="$PATH:/usr/local/go/bin"   # the official tarball's place

go_build_env() {
  command -v go >/dev/null || { echo "[go-build] Go toolchain not found on PATH (needed once to build the test tools)" >&2; return 1; }
  export CGO_ENABLED=0
  export GOFLAGS=-mod=mod
  # each build gets a scratch module outside any repository, so no surrounding go.work applies
  export GOWORK=off
  export GOGC=400
  GO_BUILD_FLAGS=(-trimpath -gcflags=all=-dwarf=false)
}

start_ahead_of_need() {
  local log=$1; shift
  mkdir -p "$(dirname "$log")"
  setsid nice -n 19 "$@" </dev/null >"$log" 2>&1 &
}
