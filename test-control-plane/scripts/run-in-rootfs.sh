#!/usr/bin/env bash
# Runs a command inside an image's unpacked root file system, as that image's user, on this
# machine's network (no container engine): a foreign architecture's binaries run through qemu-user
# (scripts/foreign-arch.sh registers it for the run and unregisters what it registered when the
# command ends or this script is stopped). For tests that start an image's own JVM on a platform
# this machine is not, such as the operator image's arm64 JVM.
#   run-in-rootfs.sh ROOTFS ARCH USER[:GROUP] -- COMMAND [ARG...]
# The root file system gets /proc and the host's /dev in a private mount namespace only (unshare
# without --fork: it becomes the command, whose PID this script stops). Needs root.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
rootfs=$(realpath "${1:?usage: run-in-rootfs.sh ROOTFS ARCH USER -- COMMAND...}")
arch=${2:?ARCH}
user=${3:?USER}
[ "${4:-}" = "--" ] || { echo "run-in-rootfs.sh: expected -- before the command" >&2; exit 2; }
shift 4
sudo=""
source "$repo/scripts/prerequisites.sh"
source "$repo/scripts/foreign-arch.sh"
child=""
cleanup() {
  [ -z "$child" ] || kill -TERM "$child" 2>/dev/null || true
  [ -z "$child" ] || wait "$child" 2>/dev/null || true
  foreign_arch_release
}
trap cleanup EXIT
trap 'exit 143' TERM INT
foreign_arch_enable "$arch"
unshare --mount --propagation private sh -ec '
  rootfs=$1; user=$2; shift 2
  mount -t proc proc "$rootfs/proc"
  mount --rbind /dev "$rootfs/dev"
  exec chroot --userspec="$user" "$rootfs" "$@"' run-in-rootfs "$rootfs" "$user" "$@" &
child=$!
wait "$child"
