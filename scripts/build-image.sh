#!/usr/bin/env bash
# Builds the project's images without a container engine, as OCI image archives holding one image
# index with a manifest per platform (linux/amd64 and linux/arm64: each node pulls its own):
#   mvn -B -pl node-probe,operator -am package -DskipTests
#   scripts/build-image.sh node-probe [IMAGE_TAG] [OUTPUT]   # default output node-probe/target/node-probe-image.oci.tar
#   scripts/build-image.sh operator   [IMAGE_TAG] [OUTPUT]   # default output operator/target/operator-image.oci.tar
#   IMAGE_PLATFORMS=linux/amd64 scripts/build-image.sh ...   # fewer platforms (default linux/amd64,linux/arm64)
# The same image as `docker buildx build --platform linux/amd64,linux/arm64 -f <module>/Dockerfile
# <module>`: per platform, the root file system of scripts/image-rootfs.sh (Debian bookworm +
# <module>/image-packages.txt for that architecture, the list the Dockerfile installs), the module's
# jar where its Dockerfile copies it (the probe's with its class-data-sharing archive, made by that
# platform's JVM: node-probe/image-cds.sh), and the Dockerfile's ENTRYPOINT, CMD and USER. Two
# layers: the packages, cached under ~/.cache/rdma-storage-operator/image-rootfs/ keyed by the
# package list and architecture (so a rebuild after a code change takes seconds, not a Debian
# bootstrap), then the jar. A foreign architecture's maintainer scripts and JVM run through
# qemu-user (binfmt_misc; registered for the build and unregistered after it when this script
# registered it). Load it with `podman load -i OUTPUT`, `skopeo copy --all oci-archive:OUTPUT
# docker://REGISTRY/IMAGE:TAG`, or `ctr -n k8s.io images import OUTPUT`. Needs root (or sudo);
# installs mmdebstrap, umoci, jq and qemu-user-static (Debian packages) when missing; about a
# minute for the host's platform and several for arm64 cold, 20 s and about a minute warm; an
# archive whose inputs (the jar, the Dockerfile, the package list, these scripts, the tag, the
# platforms) have not changed is kept as it is.
set -euo pipefail
cd "$(dirname "$0")/.."
module=${1:?usage: scripts/build-image.sh node-probe|operator [IMAGE_TAG] [OUTPUT]}
tag=${2:-0.1.0}
case "$module" in
  node-probe) jar_dest=/opt/node-probe/node-probe.jar ;;
  operator) jar_dest=/opt/rdma-storage-operator/operator.jar ;;
  *) echo "build-image: no image for '$module' (node-probe or operator)" >&2; exit 2 ;;
esac
platforms=${IMAGE_PLATFORMS:-linux/amd64,linux/arm64}
archs=()
for platform in ${platforms//,/ }; do
  case "$platform" in
    linux/amd64|linux/arm64) archs+=("${platform#linux/}") ;;
    *) echo "build-image: no platform '$platform' (linux/amd64, linux/arm64)" >&2; exit 2 ;;
  esac
done
output=$(realpath -m "${3:-$module/target/$module-image.oci.tar}")
jar=$module/target/$module.jar
[ -f "$jar" ] || { echo "no $jar: run mvn -B -pl $module -am package -DskipTests first" >&2; exit 1; }
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
source scripts/prerequisites.sh
for tool in mmdebstrap umoci jq; do command -v "$tool" >/dev/null || apt_install "$tool"; done

# an archive built from the same inputs is kept (a second test, a second run): the inputs' digest
# beside it says which
inputs=$( { echo "$tag ${archs[*]}"; cat "$jar" "$module/Dockerfile" "$module/image-packages.txt" scripts/build-image.sh \
            scripts/image-rootfs.sh scripts/image-rootfs-cached.sh scripts/dockerfile-array.sh scripts/foreign-arch.sh; \
            [ "$module" != node-probe ] || cat node-probe/image-cds.sh scripts/probe-cds.sh; } | sha256sum | cut -c1-64)
if [ -f "$output" ] && [ "$(cat "$output.inputs" 2>/dev/null)" = "$inputs" ]; then
  echo "==> $output is up to date"
  exit 0
fi
rm -f "$output.inputs"

work=$(mktemp -d)
source scripts/foreign-arch.sh
trap '$sudo rm -rf "$work"; foreign_arch_release' EXIT
layout=$work/oci
umoci init --layout "$layout"

# ENTRYPOINT, CMD and USER: the Dockerfile's, so both builds start the same command as the same user
config=()
while read -r word; do config+=(--config.entrypoint "$word"); done < <(scripts/dockerfile-array.sh ENTRYPOINT "$module/Dockerfile")
while read -r word; do config+=(--config.cmd "$word"); done < <(scripts/dockerfile-array.sh CMD "$module/Dockerfile")
user=$(sed -n 's/^USER[[:space:]]\+\([^[:space:]]*\).*/\1/p' "$module/Dockerfile" | tail -1)
[ -z "$user" ] || config+=(--config.user "$user")

# one image per architecture, tagged <tag>-<arch> in the layout until the index takes them in
platform_image() {
  local arch=$1 image="$layout:$tag-$arch"
  foreign_arch_enable "$arch"
  umoci new --image "$image"

  # layer 1: the packages, bootstrapped once per package list and architecture (and shared with
  # vm-node/), added as the cached tar itself. Layers are tars of our own, added with `umoci raw
  # add-layer`: umoci 0.4's `insert` ends a layer without its last file's padding and the tar's end
  # blocks (GNU tar: "Unexpected EOF in archive"), which lenient readers hide
  local rootfs_tar add=$work/add-$arch
  rootfs_tar=$($sudo scripts/image-rootfs-cached.sh "$module/image-packages.txt" "$arch" "$module")
  $sudo umoci raw add-layer --image "$image" "$rootfs_tar"

  # layer 2: the jar (and the probe's CDS archive, made by this architecture's JVM in the image's rootfs).
  # Every copy of the jar keeps the built jar's modification time (-p): the JVM uses the archive only
  # with the very jar it was made from, which it knows by size and modification time
  $sudo install -p -D -m 0644 "$jar" "$add$jar_dest"
  if [ "$module" = node-probe ]; then
    echo "==> $arch class-data-sharing archive"
    scripts/probe-cds.sh "$arch" "$jar" "$work/node-probe-$arch.jsa"
    $sudo install -D -m 0644 "$work/node-probe-$arch.jsa" "$add/opt/node-probe/node-probe.jsa"
  fi
  $sudo tar -C "$add" --numeric-owner --owner=0 --group=0 -cf "$work/jar-$arch.tar" .
  $sudo umoci raw add-layer --image "$image" "$work/jar-$arch.tar"
  $sudo rm -rf "$add" "$work/jar-$arch.tar"

  echo "==> OCI image $module:$tag for linux/$arch (umoci)"
  umoci config --image "$image" --os linux --architecture "$arch" \
    --config.workingdir / --config.env PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    "${config[@]}"
}
for arch in "${archs[@]}"; do platform_image "$arch"; done
umoci gc --layout "$layout"

# the image index: one manifest per platform, the only image the archive names (by the tag)
manifests=$(jq -c --arg tag "$tag" '[.manifests[] | select(.annotations["org.opencontainers.image.ref.name"] | startswith($tag + "-"))
  | {mediaType, digest, size, platform: {os: "linux", architecture: (.annotations["org.opencontainers.image.ref.name"] | ltrimstr($tag + "-"))}}]' \
  "$layout/index.json")
jq -cn --argjson m "$manifests" '{schemaVersion: 2, mediaType: "application/vnd.oci.image.index.v1+json", manifests: $m}' > "$work/image-index.json"
index_digest=$(sha256sum "$work/image-index.json" | cut -c1-64)
cp "$work/image-index.json" "$layout/blobs/sha256/$index_digest"
jq -cn --arg d "sha256:$index_digest" --argjson size "$(stat -c %s "$work/image-index.json")" --arg tag "$tag" \
  '{schemaVersion: 2, mediaType: "application/vnd.oci.image.index.v1+json", manifests: [{mediaType: "application/vnd.oci.image.index.v1+json",
    digest: $d, size: $size, annotations: {"org.opencontainers.image.ref.name": $tag}}]}' > "$layout/index.json"
mkdir -p "$(dirname "$output")"
tar -C "$layout" -cf "$output" .
echo "$inputs" > "$output.inputs"
echo "==> $output ($(du -h "$output" | cut -f1)): image index sha256:$index_digest (${archs[*]}); podman load -i $output"
