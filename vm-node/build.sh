#!/usr/bin/env bash
# Builds the VM node once and caches it: a Debian kernel; the guest's root, a userland that is an
# RDMA storage "host" (vm-node/host-packages.txt), as an ext4 disk image; the probe image's root
# file system as another, which the guest mounts at /var/lib/probe-pod/rootfs, where a pod's root
# would be; and a small initramfs (busybox) that mounts the root disk. Both used to be the
# initramfs, which an emulated CPU unpacked whole at every boot (the arm64 guest 200 s alone, 460 s
# beside another guest); a disk is read as it is used. Prints the cache folder (holding vmlinuz,
# initramfs.cpio, root.ext4, probe-rootfs.ext4, kernel-version) as the last line of stdout;
# progress goes to stderr.
#   vm-node/build.sh [ARCH]        # amd64 (default: this machine's) or arm64
# The cache key is the architecture, the kernel package (amd64: the version Debian's
# linux-image-amd64 depends on today; a foreign architecture's kernel comes with its host userland)
# and a hash of the package lists and of the files baked in (guest/, this script, the rootfs
# scripts); node-probe's jar is not baked in (the tests share it into the VM), so a jar change never
# rebuilds the userland. The probe image's rootfs comes from the image builds' cache
# (scripts/image-rootfs-cached.sh). A foreign architecture's maintainer scripts run through
# qemu-user (scripts/foreign-arch.sh, undone after the build). Needs root (or sudo), mmdebstrap,
# apt-get, cpio, mke2fs; amd64 about 2 minutes and 700 MB of disk on the cold path, arm64 about 10.
set -euo pipefail
export PATH="$PATH:/usr/sbin:/sbin"
here=$(cd "$(dirname "$0")" && pwd)
repo=$(dirname "$here")
arch=${1:-$(dpkg --print-architecture)}
case "$arch" in amd64|arm64) ;; *) echo "vm-node/build.sh: no VM node for '$arch' (amd64, arm64)" >&2; exit 2 ;; esac
native=$([ "$arch" = "$(dpkg --print-architecture)" ] && echo true || echo false)
cache_root=${XDG_CACHE_HOME:-$HOME/.cache}/rdma-storage-operator/vm/$arch
say() { echo "==> [vm-node $arch] $*" >&2; }

sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"

if $native; then
  # The kernel: the version Debian's linux-image-amd64 depends on today.
  kernel_package=$(apt-cache depends "linux-image-$arch" 2>/dev/null | awk '/Depends: linux-image-[0-9]/ {print $2; exit}')
  if [ -z "$kernel_package" ]; then
    $sudo apt-get update -qq
    kernel_package=$(apt-cache depends "linux-image-$arch" | awk '/Depends: linux-image-[0-9]/ {print $2; exit}')
  fi
  kernel_version=$(apt-cache policy "$kernel_package" | awk '/Candidate:/ {print $2}')
else
  # bootstrapped with the host userland: the release's linux-image-<arch> when the cache is built
  kernel_package=linux-image-$arch
  kernel_version=bookworm
fi
key=$( { echo "$arch $kernel_package $kernel_version"
         cat "$here/host-packages.txt" "$repo/node-probe/image-packages.txt" "$here/build.sh" \
             "$repo/scripts/image-rootfs.sh" "$here"/guest/*; } | sha256sum | cut -c1-16)
dir="$cache_root/$key"
if [ -f "$dir/ready" ]; then
  echo "$dir"
  exit 0
fi

mkdir -p "$cache_root"
exec 9>"$cache_root/.build.lock"
flock 9   # a second build of the same key waits for the first, then finds it ready
if [ -f "$dir/ready" ]; then
  echo "$dir"
  exit 0
fi
start=$SECONDS
say "building the VM node (cold path, about $($native && echo 2 || echo 10) minutes): kernel $kernel_package $kernel_version, cache $dir"
source "$repo/scripts/prerequisites.sh"
source "$repo/scripts/foreign-arch.sh"
source "$repo/scripts/build-folder.sh"
remove_build_folder "$cache_root"/build.*   # what a killed build left (the lock above is free)
work=$(mktemp -d "$cache_root/build.XXXXXX")
trap 'remove_build_folder "$work"; foreign_arch_release' EXIT
foreign_arch_enable "$arch"

host_packages=$(grep -v -e '^#' -e '^$' "$here/host-packages.txt" | paste -sd, -)
if $native; then
  say "[1/5] kernel: apt-get download $kernel_package"
  (cd "$work" && apt-get download -q "$kernel_package=$kernel_version" >/dev/null 2>&1 \
    || $sudo apt-get download -q "$kernel_package=$kernel_version" >/dev/null)
  dpkg -x "$work"/linux-image-*.deb "$work/kernel"
else
  say "[1/5] kernel: $kernel_package, installed with the host userland"
  host_packages="$host_packages,$kernel_package"
fi

say "[2/5] host userland: mmdebstrap --architectures=$arch ${host_packages//,/ }"
root="$work/root"
# a kernel installed with the userland would have its postinst build an initrd the VM never uses
# (minutes of shell under qemu-user): update-initramfs is diverted to true before it is installed
$sudo mmdebstrap --architectures="$arch" --variant=apt --mode=root --quiet \
  --essential-hook='chroot "$1" dpkg-divert --quiet --local --rename --add /usr/sbin/update-initramfs' \
  --essential-hook='ln -s /bin/true "$1/usr/sbin/update-initramfs"' \
  --aptopt='APT::Install-Recommends "false"' \
  --dpkgopt='path-exclude=/usr/share/man/*' --dpkgopt='path-exclude=/usr/share/locale/*' \
  --dpkgopt='path-exclude=/usr/share/doc/*' \
  --include="$host_packages" \
  bookworm "$root" \
  "deb http://deb.debian.org/debian bookworm main" \
  "deb http://deb.debian.org/debian bookworm-updates main" \
  "deb http://deb.debian.org/debian-security bookworm-security main" >&2
if ! $native; then
  # the kernel and its modules leave the userland: only the modules the guest loads go back in (step 4)
  mkdir -p "$work/kernel/boot" "$work/kernel/lib/modules"
  kver=$(ls "$root/lib/modules")
  $sudo mv "$root/boot/vmlinuz-$kver" "$work/kernel/boot/"
  $sudo mv "$root/lib/modules/$kver" "$work/kernel/lib/modules/"
  $sudo rm -rf "$root/boot"/*
fi
kver=$(ls "$work/kernel/lib/modules")

say "[3/5] probe image rootfs (node-probe/image-packages.txt, $arch) at /var/lib/probe-pod/rootfs"
$sudo mkdir -p "$root/var/lib/probe-pod"
$sudo "$repo/scripts/image-rootfs-cached.sh" "$repo/node-probe/image-packages.txt" "$arch" node-probe \
  "$root/var/lib/probe-pod/rootfs" >/dev/null 2>"$work/probe-rootfs.log" || { cat "$work/probe-rootfs.log" >&2; exit 1; }
# mount points a pod's runtime would provide: the host root, and the jar (shared in at run time)
$sudo mkdir -p "$root/var/lib/probe-pod/rootfs/host" "$root/var/lib/probe-pod/rootfs/opt/node-probe"
$sudo touch "$root/var/lib/probe-pod/rootfs/opt/node-probe/node-probe.jar"

say "[4/5] kernel modules for soft-RoCE, NVMe-oF (rdma, tcp) and the VM's devices"
modules=$(cat "$here/guest/modules")
depmod -b "$work/kernel" "$kver"
# the module files loading these modules takes, each once, dependencies first
module_files() {   # module_files MODULE...
  local m
  for m in "$@"; do
    modprobe -d "$work/kernel" -S "$kver" --show-depends "$m" | awk '$1 == "insmod" {print $2}'
  done | awk '!seen[$0]++'
}
module_files $modules | while read -r ko; do
  rel=${ko#"$work/kernel"}
  $sudo install -D -m 0644 "$ko" "$root$rel"
done
for f in modules.order modules.builtin modules.builtin.modinfo; do
  $sudo cp "$work/kernel/lib/modules/$kver/$f" "$root/lib/modules/$kver/"
done
$sudo depmod -b "$root" "$kver"
# what the initramfs loads to mount the root disk, in dependency order (guest/root-init insmods them)
initramfs="$work/initramfs"
mkdir -p "$initramfs/bin" "$initramfs/dev"
# the console the kernel opens for PID 1 before anything is mounted: its stdout and stderr
$sudo mknod -m 0600 "$initramfs/dev/console" c 5 1
module_files virtio_pci virtio_blk crc32c_generic ext4 | while read -r ko; do
  rel=${ko#"$work/kernel"}
  install -D -m 0644 "$ko" "$initramfs$rel"
  echo "$rel"
done > "$initramfs/root-modules"

say "[5/5] the root disk and the initramfs"
$sudo install -m 0755 "$here/guest/init" "$root/init"
$sudo install -m 0755 "$here/guest/vm-agent" "$root/usr/local/sbin/vm-agent"
$sudo install -m 0644 "$here/guest/modules" "$root/etc/vm-node-modules"
$sudo rm -rf "$root/var/cache/apt" "$root/var/lib/apt/lists" "$root/var/lib/probe-pod/rootfs/var/cache/apt"
mkdir -p "$work/out"
# each root file system a disk of its own, found by its label; the tests attach both with qemu's
# snapshot=on, so what a boot writes there (the jar, its CDS archive, a kubelet's state) never
# reaches these files, which two guests may share
disk_image() {   # disk_image FOLDER LABEL IMAGE SPARE_MB: FOLDER's content, a fifth more for the file system, and SPARE_MB to write
  local used
  used=$($sudo du -sm "$1" | cut -f1)
  truncate -s "$((used + used / 5 + $4))M" "$3"
  $sudo mke2fs -q -t ext4 -O ^has_journal -L "$2" -d "$1" -E root_owner=0:0 "$3"
}
pod="$root/var/lib/probe-pod/rootfs"
disk_image "$pod" probe-rootfs "$work/out/probe-rootfs.ext4" 64
$sudo find "$pod" -mindepth 1 -delete
disk_image "$root" vm-node-root "$work/out/root.ext4" 512
# the initramfs: busybox from the userland (busybox-static) and the root disk's modules; uncompressed,
# as under TCG the guest would spend longer decompressing than qemu spends loading it
install -m 0755 "$root/bin/busybox" "$initramfs/bin/busybox"
install -m 0755 "$here/guest/root-init" "$initramfs/init"
(cd "$initramfs" && find . -print0 | cpio --null -o -H newc -R 0:0 --quiet) > "$work/out/initramfs.cpio"
cp "$work/kernel/boot/vmlinuz-$kver" "$work/out/vmlinuz"
echo "$kver" > "$work/out/kernel-version"
echo "$kernel_package $kernel_version" > "$work/out/kernel-package"
rm -rf "$dir"
mv "$work/out" "$dir"
touch "$dir/ready"
# one VM node per architecture is kept: the builds of older keys are removed, and those of the
# layout before the architecture was part of the path (vm/KEY)
while IFS= read -r -d '' old; do remove_build_folder "$old"; done < <(
  find "$cache_root" -mindepth 1 -maxdepth 1 -type d ! -path "$dir" ! -path "$work" -print0
  find "$(dirname "$cache_root")" -mindepth 1 -maxdepth 1 -type d -regex '.*/[0-9a-f]\{16\}' -print0)
say "built in $((SECONDS - start)) s: $(du -sh "$dir/root.ext4" | cut -f1) root, $(du -sh "$dir/probe-rootfs.ext4" | cut -f1) probe rootfs, $(du -sh "$dir/initramfs.cpio" | cut -f1) initramfs"
echo "$dir"
