#!/usr/bin/env bash
# An image's root file system (scripts/image-rootfs.sh) as a tar in the cache, built there first when
# it is not: ~/.cache/rdma-storage-operator/image-rootfs/NAME-ARCH-KEY.tar, KEY a hash of the package
# list and image-rootfs.sh. Prints the tar's path; with OUT_DIR, also unpacks it there. The image
# builds (scripts/build-image.sh: the tar is the image's first layer) and the VM nodes
# (vm-node/build.sh, whose pod root is the probe image's) share it, so a package list is
# bootstrapped once per architecture, not once per user of it.
#   scripts/image-rootfs-cached.sh PACKAGES_FILE ARCH NAME [OUT_DIR]
# Needs root (or sudo); a foreign ARCH needs qemu-user registered (scripts/foreign-arch.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
packages=${1:?usage: scripts/image-rootfs-cached.sh PACKAGES_FILE ARCH NAME [OUT_DIR]}
arch=${2:?ARCH}
name=${3:?NAME}
out=${4:-}
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
cache=${XDG_CACHE_HOME:-$HOME/.cache}/rdma-storage-operator/image-rootfs
key=$(cat "$packages" scripts/image-rootfs.sh | sha256sum | cut -c1-16)
tar=$cache/$name-$arch-$key.tar
mkdir -p "$cache"
exec 9>"$cache/.$name-$arch.lock"
flock 9   # two builds of the same rootfs at once: the second waits and unpacks the first's
source scripts/build-folder.sh
# what a killed build of this name and architecture left (the lock above is free once its process
# is gone; another name's or architecture's build may be running beside this one)
remove_build_folder "$cache/build.$name-$arch".*
if [ ! -f "$tar" ]; then
  work=$(mktemp -d "$cache/build.$name-$arch.XXXXXX")
  trap 'remove_build_folder "$work"' EXIT
  echo "==> $arch rootfs $name (mmdebstrap: $(grep -v -e '^#' -e '^[[:space:]]*$' "$packages" | paste -sd' ' -)), cached as $tar" >&2
  start=$SECONDS
  $sudo scripts/image-rootfs.sh "$work/root" "$packages" "$arch" >"$work/log" 2>&1 || { cat "$work/log" >&2; exit 1; }
  $sudo tar -C "$work/root" --numeric-owner -cf "$tar.partial" .
  $sudo mv "$tar.partial" "$tar"
  # other package lists of this name and architecture are not needed any more, nor the caches of
  # the layout before the architecture was part of the name (NAME-KEY.tar)
  find "$cache" -maxdepth 1 \( -name "$name-$arch-*.tar" -o -name "$name-????????????????.tar" \) -not -path "$tar" -delete
  echo "==> $arch rootfs $name bootstrapped in $((SECONDS - start)) s" >&2
fi
if [ -n "$out" ]; then
  $sudo mkdir -p "$out"
  $sudo tar -C "$out" --numeric-owner -xf "$tar"
fi
echo "$tar"
