#!/usr/bin/env bash
# Builds the VM node once and caches it: a Debian kernel and an initramfs whose userland is an
# RDMA storage "host" (vm-node/host-packages.txt) with the probe image's root file system inside
# it at /var/lib/probe-pod/rootfs, where a pod's root would be. Prints the cache folder (holding
# vmlinuz, initramfs.cpio, kernel-version) as the last line of stdout; progress goes to stderr.
#   vm-node/build.sh
# The cache key is the kernel package and a hash of the package lists and of the files baked in
# (guest/, this script, scripts/image-rootfs.sh); node-probe's jar is not baked in (the tests
# share it into the VM), so a jar change never rebuilds the userland. Needs root (or sudo),
# mmdebstrap, apt-get, cpio; about 2 minutes and 700 MB of disk on the cold path.
set -euo pipefail
export PATH="$PATH:/usr/sbin:/sbin"
here=$(cd "$(dirname "$0")" && pwd)
repo=$(dirname "$here")
cache_root=${XDG_CACHE_HOME:-$HOME/.cache}/rdma-storage-operator/vm
say() { echo "==> [vm-node] $*" >&2; }

sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"

# The kernel: the version Debian's linux-image-amd64 depends on today.
kernel_package=$(apt-cache depends linux-image-amd64 2>/dev/null | awk '/Depends: linux-image-[0-9]/ {print $2; exit}')
if [ -z "$kernel_package" ]; then
  $sudo apt-get update -qq
  kernel_package=$(apt-cache depends linux-image-amd64 | awk '/Depends: linux-image-[0-9]/ {print $2; exit}')
fi
kernel_version=$(apt-cache policy "$kernel_package" | awk '/Candidate:/ {print $2}')
key=$( { echo "$kernel_package $kernel_version"
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
say "building the VM node (cold path, about 2 minutes): kernel $kernel_package $kernel_version, cache $dir"
work=$(mktemp -d "$cache_root/build.XXXXXX")
trap '$sudo rm -rf "$work"' EXIT

say "[1/5] kernel: apt-get download $kernel_package"
(cd "$work" && apt-get download -q "$kernel_package=$kernel_version" >/dev/null 2>&1 \
  || $sudo apt-get download -q "$kernel_package=$kernel_version" >/dev/null)
dpkg -x "$work"/linux-image-*.deb "$work/kernel"
kver=$(ls "$work/kernel/lib/modules")

say "[2/5] host userland: mmdebstrap $(grep -v -e '^#' -e '^$' "$here/host-packages.txt" | paste -sd' ' -)"
root="$work/root"
$sudo mmdebstrap --variant=apt --mode=root --quiet \
  --aptopt='APT::Install-Recommends "false"' \
  --dpkgopt='path-exclude=/usr/share/man/*' --dpkgopt='path-exclude=/usr/share/locale/*' \
  --dpkgopt='path-exclude=/usr/share/doc/*' \
  --include="$(grep -v -e '^#' -e '^$' "$here/host-packages.txt" | paste -sd, -)" \
  bookworm "$root" \
  "deb http://deb.debian.org/debian bookworm main" \
  "deb http://deb.debian.org/debian bookworm-updates main" \
  "deb http://deb.debian.org/debian-security bookworm-security main" >&2

say "[3/5] probe image rootfs (node-probe/image-packages.txt) at /var/lib/probe-pod/rootfs"
$sudo mkdir -p "$root/var/lib/probe-pod"
$sudo "$repo/scripts/image-rootfs.sh" "$root/var/lib/probe-pod/rootfs" "$repo/node-probe/image-packages.txt" >/dev/null 2>"$work/probe-rootfs.log" \
  || { cat "$work/probe-rootfs.log" >&2; exit 1; }
# mount points a pod's runtime would provide: the host root, and the jar (shared in at run time)
$sudo mkdir -p "$root/var/lib/probe-pod/rootfs/host" "$root/var/lib/probe-pod/rootfs/opt/node-probe"
$sudo touch "$root/var/lib/probe-pod/rootfs/opt/node-probe/node-probe.jar"

say "[4/5] kernel modules for soft-RoCE, NVMe-oF (rdma, tcp) and the VM's devices"
modules=$(cat "$here/guest/modules")
depmod -b "$work/kernel" "$kver"
for m in $modules; do
  modprobe -d "$work/kernel" -S "$kver" --show-depends "$m" | awk '$1 == "insmod" {print $2}'
done | sort -u | while read -r ko; do
  rel=${ko#"$work/kernel"}
  $sudo install -D -m 0644 "$ko" "$root$rel"
done
for f in modules.order modules.builtin modules.builtin.modinfo; do
  $sudo cp "$work/kernel/lib/modules/$kver/$f" "$root/lib/modules/$kver/"
done
$sudo depmod -b "$root" "$kver"

say "[5/5] initramfs"
$sudo install -m 0755 "$here/guest/init" "$root/init"
$sudo install -m 0755 "$here/guest/vm-agent" "$root/usr/local/sbin/vm-agent"
$sudo install -m 0644 "$here/guest/modules" "$root/etc/vm-node-modules"
$sudo rm -rf "$root/var/cache/apt" "$root/var/lib/apt/lists" "$root/var/lib/probe-pod/rootfs/var/cache/apt"
mkdir -p "$work/out"
# uncompressed: under TCG the guest would spend longer decompressing than qemu spends loading it
(cd "$root" && $sudo find . -print0 | $sudo cpio --null -o -H newc --quiet) > "$work/out/initramfs.cpio"
cp "$work/kernel/boot/vmlinuz-$kver" "$work/out/vmlinuz"
echo "$kver" > "$work/out/kernel-version"
echo "$kernel_package $kernel_version" > "$work/out/kernel-package"
rm -rf "$dir"
mv "$work/out" "$dir"
touch "$dir/ready"
# one VM node is kept: the builds of older keys are removed
find "$cache_root" -mindepth 1 -maxdepth 1 -type d ! -path "$dir" -exec $sudo rm -rf {} +
say "built in $((SECONDS - start)) s: $(du -sh "$dir/initramfs.cpio" | cut -f1) initramfs"
echo "$dir"
