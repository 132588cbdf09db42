# Sourced by the scripts that build a Go tool from its module (build-binaries.sh beside this file,
# scripts/argocd-health/build.sh, scripts/bundle-validate/build.sh), on their build path only:
# the environment every such build shares, and its flags in GO_BUILD_FLAGS.
#
# A build on the cold path runs beside the tests (an emulated guest above all, whose steps have
# deadlines and whose spinning vCPUs waste host CPU when they lose the cores), so it yields to them:
# the shell that sources this runs at niceness 10, and so does every compiler it starts.
# Measured on 2 cores, compiling k8s.io/api/core/v1 and what it imports from an empty build cache:
# 85 CPU-seconds at Go's defaults, 67 with these two settings (the compiler's garbage collector
# running a quarter as often, GOGC=400, and no debugging information, which -ldflags=-s strips from
# the binary anyway).

command -v go >/dev/null || PATH="$PATH:/usr/local/go/bin"   # the official tarball's place
command -v go >/dev/null || { echo "[go-build] Go toolchain not found on PATH (needed once to build the test tools)" >&2; return 1; }
export CGO_ENABLED=0
export GOFLAGS=-mod=mod
# each build gets a scratch module outside any repository, so no surrounding go.work applies
export GOWORK=off
export GOGC=400
GO_BUILD_FLAGS=(-trimpath -gcflags=all=-dwarf=false)
# (scripts/prerequisites.sh's yield_cpu_to_tests; this file travels alone in the test-control-plane jar)
[ "$(nice)" -ge 10 ] || renice -n 10 -p $$ >/dev/null 2>&1 || true
