#!/usr/bin/env bash
# Builds the image root file systems of the named modules (scripts/image-rootfs-cached.sh, for
# linux/amd64 and linux/arm64) into the cache in the background, and returns at once:
#   scripts/image-rootfs-prefetch.sh MODULE...     # node-probe, operator
# The Maven build starts it before the operator's tests, so that on the cold path the image builds
# of its integration tests (scripts/build-image.sh) find the Debian bootstraps done (the arm64 ones
# take minutes under qemu-user) instead of making them then; a build that comes to one still under
# way waits for its lock. Cached ones cost nothing. Its output: <cache>/work/image-rootfs-prefetch.log.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "${1:-}" != --now ]; then
  source test-control-plane/scripts/go-build-env.sh
  start_ahead_of_need "${XDG_CACHE_HOME:-$HOME/.cache}/rdma-storage-operator/work/image-rootfs-prefetch.log" \
    "$0" --now "$@"
  exit 0
fi
shift
source scripts/prerequisites.sh
source scripts/foreign-arch.sh
trap foreign_arch_release EXIT
for module in "$@"; do
  for arch in amd64 arm64; do
    foreign_arch_enable "$arch"
    scripts/image-rootfs-cached.sh "$module/image-packages.txt" "$arch" "$module" >/dev/null
  done
done
