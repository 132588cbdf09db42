#!/usr/bin/env bash
# Builds the probe image without a container engine, as an OCI image archive:
#   mvn -B -pl node-probe -am package -DskipTests
#   scripts/build-probe-image.sh [IMAGE_TAG] [OUTPUT]    # defaults: 0.1.0, node-probe/target/node-probe-image.oci.tar
# The same image as `docker build -f node-probe/Dockerfile node-probe`: the rootfs of
# scripts/probe-rootfs.sh (Debian bookworm + node-probe/image-packages.txt), the jar, its
# class-data-sharing archive (node-probe/image-cds.sh), and the Dockerfile's ENTRYPOINT and CMD, in
# one layer written by umoci. Load it with `podman load -i OUTPUT`, `skopeo copy
# oci-archive:OUTPUT docker-daemon:node-probe:TAG` (Docker), or `ctr image import OUTPUT`.
# Needs root (or sudo); installs mmdebstrap and umoci (Debian packages) when missing; about a minute.
set -euo pipefail
cd "$(dirname "$0")/.."
tag=${1:-0.1.0}
output=$(realpath -m "${2:-node-probe/target/node-probe-image.oci.tar}")
jar=node-probe/target/node-probe.jar
[ -f "$jar" ] || { echo "no $jar: run mvn -B -pl node-probe -am package -DskipTests first" >&2; exit 1; }
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
source scripts/prerequisites.sh
for tool in mmdebstrap umoci; do command -v "$tool" >/dev/null || apt_install "$tool"; done

work=$(mktemp -d)
trap '$sudo rm -rf "$work"' EXIT
echo "==> rootfs (mmdebstrap: $(grep -v -e '^#' -e '^[[:space:]]*$' node-probe/image-packages.txt | paste -sd' ' -))"
$sudo scripts/probe-rootfs.sh "$work/rootfs" >"$work/rootfs.log" 2>&1 || { cat "$work/rootfs.log" >&2; exit 1; }
rootfs=$work/rootfs
$sudo install -D -m 0644 "$jar" "$rootfs/opt/node-probe/node-probe.jar"
$sudo install -m 0755 node-probe/image-cds.sh "$rootfs/tmp/image-cds.sh"
echo "==> class-data-sharing archive"
$sudo unshare --mount --propagation private sh -ec \
  'mount -t proc proc "$1/proc"; chroot "$1" sh /tmp/image-cds.sh' cds "$rootfs"
$sudo rm -f "$rootfs/tmp/image-cds.sh"

# ENTRYPOINT and CMD: the Dockerfile's, so both builds start the same command
config=()
while read -r word; do config+=(--config.entrypoint "$word"); done < <(scripts/dockerfile-array.sh ENTRYPOINT node-probe/Dockerfile)
while read -r word; do config+=(--config.cmd "$word"); done < <(scripts/dockerfile-array.sh CMD node-probe/Dockerfile)

echo "==> OCI image node-probe:$tag (umoci)"
layout=$work/oci
umoci init --layout "$layout"
umoci new --image "$layout:$tag"
$sudo umoci insert --image "$layout:$tag" "$rootfs" /
umoci config --image "$layout:$tag" --os linux --architecture amd64 \
  --config.workingdir / --config.env PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
  "${config[@]}"
umoci gc --layout "$layout"
mkdir -p "$(dirname "$output")"
tar -C "$layout" -cf "$output" .
echo "==> $output ($(du -h "$output" | cut -f1)): podman load -i $output"
