#!/usr/bin/env bash
# Builds the project's images without a container engine, as OCI image archives:
#   mvn -B -pl node-probe,operator -am package -DskipTests
#   scripts/build-image.sh node-probe [IMAGE_TAG] [OUTPUT]   # default output node-probe/target/node-probe-image.oci.tar
#   scripts/build-image.sh operator   [IMAGE_TAG] [OUTPUT]   # default output operator/target/operator-image.oci.tar
# The same image as `docker build -f <module>/Dockerfile <module>`: the root file system of
# scripts/image-rootfs.sh (Debian bookworm + <module>/image-packages.txt, the list the Dockerfile
# installs), the module's jar where its Dockerfile copies it (the probe's with its class-data-sharing
# archive, node-probe/image-cds.sh), and the Dockerfile's ENTRYPOINT, CMD and USER. Two layers: the
# packages, cached under ~/.cache/rdma-storage-operator/image-rootfs/ keyed by the package list (so a
# rebuild after a code change takes seconds, not a Debian bootstrap), then the jar. Load it with
# `podman load -i OUTPUT`, `skopeo copy oci-archive:OUTPUT docker-daemon:IMAGE:TAG` (Docker), or
# `ctr -n k8s.io images import OUTPUT`. Needs root (or sudo); installs mmdebstrap and umoci (Debian
# packages) when missing; about a minute cold, 20 s warm; an archive whose inputs (the jar, the
# Dockerfile, the package list, these scripts, the tag) have not changed is kept as it is.
set -euo pipefail
cd "$(dirname "$0")/.."
module=${1:?usage: scripts/build-image.sh node-probe|operator [IMAGE_TAG] [OUTPUT]}
tag=${2:-0.1.0}
case "$module" in
  node-probe) jar_dest=/opt/node-probe/node-probe.jar ;;
  operator) jar_dest=/opt/rdma-storage-operator/operator.jar ;;
  *) echo "build-image: no image for '$module' (node-probe or operator)" >&2; exit 2 ;;
esac
output=$(realpath -m "${3:-$module/target/$module-image.oci.tar}")
jar=$module/target/$module.jar
[ -f "$jar" ] || { echo "no $jar: run mvn -B -pl $module -am package -DskipTests first" >&2; exit 1; }
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
source scripts/prerequisites.sh
for tool in mmdebstrap umoci; do command -v "$tool" >/dev/null || apt_install "$tool"; done

# an archive built from the same inputs is kept (a second test, a second run): the inputs' digest
# beside it says which
inputs=$( { echo "$tag"; cat "$jar" "$module/Dockerfile" "$module/image-packages.txt" scripts/build-image.sh \
            scripts/image-rootfs.sh scripts/dockerfile-array.sh; [ "$module" != node-probe ] || cat node-probe/image-cds.sh; } \
          | sha256sum | cut -c1-64)
if [ -f "$output" ] && [ "$(cat "$output.inputs" 2>/dev/null)" = "$inputs" ]; then
  echo "==> $output is up to date"
  exit 0
fi
rm -f "$output.inputs"

work=$(mktemp -d)
trap '$sudo rm -rf "$work"' EXIT
layout=$work/oci
umoci init --layout "$layout"
umoci new --image "$layout:$tag"

# layer 1: the packages, bootstrapped once per package list
cache=${XDG_CACHE_HOME:-$HOME/.cache}/rdma-storage-operator/image-rootfs
key=$(cat "$module/image-packages.txt" scripts/image-rootfs.sh | sha256sum | cut -c1-16)
rootfs_tar=$cache/$module-$key.tar
if [ ! -f "$rootfs_tar" ]; then
  echo "==> rootfs (mmdebstrap: $(grep -v -e '^#' -e '^[[:space:]]*$' "$module/image-packages.txt" | paste -sd' ' -)), cached as $rootfs_tar"
  $sudo scripts/image-rootfs.sh "$work/bootstrap" "$module/image-packages.txt" >"$work/rootfs.log" 2>&1 \
    || { cat "$work/rootfs.log" >&2; exit 1; }
  mkdir -p "$cache"
  $sudo tar -C "$work/bootstrap" --numeric-owner -cf "$rootfs_tar.partial" .
  $sudo mv "$rootfs_tar.partial" "$rootfs_tar"
  # other package lists of this module are not needed any more
  find "$cache" -maxdepth 1 -name "$module-*.tar" -not -path "$rootfs_tar" -delete
  $sudo rm -rf "$work/bootstrap"
fi
rootfs=$work/rootfs
mkdir -p "$rootfs"
$sudo tar -C "$rootfs" --numeric-owner -xf "$rootfs_tar"
$sudo umoci insert --image "$layout:$tag" "$rootfs" / >/dev/null

# layer 2: the jar (and the probe's CDS archive, made by running the jar in the image's rootfs)
add=$work/add
$sudo install -D -m 0644 "$jar" "$add$jar_dest"
if [ "$module" = node-probe ]; then
  echo "==> class-data-sharing archive"
  $sudo install -D -m 0644 "$jar" "$rootfs$jar_dest"
  $sudo install -m 0755 node-probe/image-cds.sh "$rootfs/tmp/image-cds.sh"
  $sudo unshare --mount --propagation private sh -ec \
    'mount -t proc proc "$1/proc"; chroot "$1" sh /tmp/image-cds.sh' cds "$rootfs"
  $sudo install -D -m 0644 "$rootfs/opt/node-probe/node-probe.jsa" "$add/opt/node-probe/node-probe.jsa"
fi
$sudo umoci insert --image "$layout:$tag" "$add" / >/dev/null

# ENTRYPOINT, CMD and USER: the Dockerfile's, so both builds start the same command as the same user
config=()
while read -r word; do config+=(--config.entrypoint "$word"); done < <(scripts/dockerfile-array.sh ENTRYPOINT "$module/Dockerfile")
while read -r word; do config+=(--config.cmd "$word"); done < <(scripts/dockerfile-array.sh CMD "$module/Dockerfile")
user=$(sed -n 's/^USER[[:space:]]\+\([^[:space:]]*\).*/\1/p' "$module/Dockerfile" | tail -1)
[ -z "$user" ] || config+=(--config.user "$user")

echo "==> OCI image $module:$tag (umoci)"
umoci config --image "$layout:$tag" --os linux --architecture amd64 \
  --config.workingdir / --config.env PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
  "${config[@]}"
umoci gc --layout "$layout"
mkdir -p "$(dirname "$output")"
tar -C "$layout" -cf "$output" .
echo "$inputs" > "$output.inputs"
echo "==> $output ($(du -h "$output" | cut -f1)): podman load -i $output"
