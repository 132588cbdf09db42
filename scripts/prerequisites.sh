# Sourced by the scripts: installs what the build and tests need when it is missing.
# Debian/Ubuntu package names; needs root or sudo the first time only.

apt_install() {
  local sudo=""
  if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null; then sudo="sudo"; else
      echo "need root or sudo to install: $*" >&2; return 1; fi
  fi
  echo "==> installing $*"
  # one at a time: builds that run side by side (the image root file systems, the VM nodes) may
  # each install what they lack, and apt refuses a second run while one holds its lock
  (
    flock 6
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "$@" >/dev/null
  ) 6>>/run/lock/rdma-storage-operator-apt.lock
}

ensure_prerequisites() {
  local missing=()
  command -v java >/dev/null || missing+=(openjdk-17-jdk-headless)
  command -v mvn >/dev/null || missing+=(maven)
  # the real libibverbs, so the jnr-ffi binding is exercised (no RDMA devices needed)
  ldconfig -p 2>/dev/null | grep -q 'libibverbs\.so\.1 ' || missing+=(libibverbs1 ibverbs-providers)
  # the VM tier (vm-node/, the *VmIT tests): qemu under TCG, and what vm-node/build.sh builds with
  if [ "${RSO_SKIP_VM:-}" != 1 ]; then
    command -v qemu-system-x86_64 >/dev/null || missing+=(qemu-system-x86)
    # the arm64 VM node (Arm64KernelNodeVmIT): a Grace node's kernel under TCG
    command -v qemu-system-aarch64 >/dev/null || missing+=(qemu-system-arm)
    command -v mmdebstrap >/dev/null || missing+=(mmdebstrap)
    command -v cpio >/dev/null || missing+=(cpio)
    PATH="$PATH:/usr/sbin:/sbin" command -v depmod >/dev/null || missing+=(kmod)
  fi
  # the real-node tier (RealNode): namespaces, mounts and the node's addresses
  command -v unshare >/dev/null && command -v nsenter >/dev/null || missing+=(util-linux)
  PATH="$PATH:/usr/sbin:/sbin" command -v ip >/dev/null || missing+=(iproute2)
  command -v umoci >/dev/null || missing+=(umoci)
  # the image index of both images (scripts/build-image.sh); their arm64 halves need qemu-user,
  # which scripts/foreign-arch.sh installs and registers for each build, and unregisters after it
  command -v jq >/dev/null || missing+=(jq)
  command -v mmdebstrap >/dev/null || missing+=(mmdebstrap)
  if [ ${#missing[@]} -gt 0 ]; then
    apt_install "${missing[@]}"
  fi
  ensure_go
}

# Go builds the test binaries from their modules (test-control-plane/scripts/build-binaries.sh:
# kube-apiserver, kubectl, etcd; scripts/argocd-health/build.sh: Argo CD's health evaluation;
# scripts/bundle-validate/build.sh: the operator-framework's OLM bundle validators).
# Debian's golang-go is too old to fetch the newer toolchain those builds ask for (GOTOOLCHAIN
# needs Go >= 1.21), so a missing or old Go is reported, not installed.
ensure_go() {
  command -v go >/dev/null || PATH="$PATH:/usr/local/go/bin"
  local version
  version="$(go env GOVERSION 2>/dev/null || true)"
  case "$version" in
    go1.2[4-9]*|go1.[3-9][0-9]*|go[2-9]*) ;;
    *) echo "need Go >= 1.24 on PATH to build the test binaries (found: ${version:-none})" >&2; return 1 ;;
  esac
}

# promtool, for the alert rule and dashboard query tests: unpacked from the distribution's
# prometheus package into ~/.cache/rdma-storage-operator/promtool/<version>/, not installed (the
# package would set up a Prometheus server); the tests fetch it themselves too when it is missing
ensure_promtool() {
  bash "$(dirname "${BASH_SOURCE[0]}")/../test-control-plane/scripts/fetch-promtool.sh" >/dev/null
}
