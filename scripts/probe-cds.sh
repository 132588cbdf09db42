#!/usr/bin/env bash
# The probe image's class-data-sharing archive for one architecture: node-probe/image-cds.sh run by
# that architecture's JVM in the probe image's root file system (scripts/image-rootfs-cached.sh; a
# foreign architecture's JVM through qemu-user). The image build (scripts/build-image.sh) puts it
# in the image; the VM nodes, whose probe pod has the same root file system, make it here while
# their guest boots, where a foreign JVM runs several times faster than in the emulated machine.
# The JVM uses an archive only with the very jar it was made from, which it knows by path, size and
# modification time: every copy of JAR must keep its modification time.
#   scripts/probe-cds.sh ARCH JAR OUT
# Needs root (or sudo).
set -euo pipefail
cd "$(dirname "$0")/.."
arch=${1:?usage: scripts/probe-cds.sh ARCH JAR OUT}
jar=$(realpath "${2:?JAR}")
out=$(realpath -m "${3:?OUT}")
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
source scripts/prerequisites.sh
source scripts/foreign-arch.sh
rootfs=$(mktemp -d)
trap '$sudo rm -rf "$rootfs"; foreign_arch_release' EXIT
foreign_arch_enable "$arch"
$sudo scripts/image-rootfs-cached.sh node-probe/image-packages.txt "$arch" node-probe "$rootfs" >/dev/null
$sudo install -p -D -m 0644 "$jar" "$rootfs/opt/node-probe/node-probe.jar"
$sudo install -m 0755 node-probe/image-cds.sh "$rootfs/tmp/image-cds.sh"
$sudo unshare --mount --propagation private sh -ec \
  'mount -t proc proc "$1/proc"; chroot "$1" sh /tmp/image-cds.sh' cds "$rootfs"
$sudo install -D -m 0644 "$rootfs/opt/node-probe/node-probe.jsa" "$out"
