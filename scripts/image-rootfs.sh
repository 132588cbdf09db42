#!/usr/bin/env bash
# Builds an image's root file system (Debian bookworm + the packages listed in PACKAGES_FILE, one per
# line: node-probe/image-packages.txt, operator/image-packages.txt, the lists their Dockerfiles
# install) for ARCH (Debian's name: amd64, arm64; default this machine's) into an empty or absent
# folder, without a container engine:
#   scripts/image-rootfs.sh OUT_DIR PACKAGES_FILE [ARCH]
# The jar is not part of it: scripts/build-image.sh adds it for the image, and the VM node mounts
# the freshly built probe jar. Needs mmdebstrap and root (or sudo).
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:?usage: scripts/image-rootfs.sh OUT_DIR PACKAGES_FILE}
arch=${3:-$(dpkg --print-architecture)}
packages=$(grep -v -e '^#' -e '^[[:space:]]*$' "${2:?usage: scripts/image-rootfs.sh OUT_DIR PACKAGES_FILE}" | paste -sd, -)
# like bookworm-slim: no manuals, no translations, no recommends (the JRE's postinst still
# wants man1 for its alternatives' links)
mmdebstrap --architectures="$arch" --variant=apt --mode=root \
  --aptopt='APT::Install-Recommends "false"' \
  --dpkgopt='path-exclude=/usr/share/man/*' --dpkgopt='path-exclude=/usr/share/locale/*' \
  --dpkgopt='path-exclude=/usr/share/doc/*' --dpkgopt='path-include=/usr/share/doc/*/copyright' \
  --essential-hook='mkdir -p "$1/usr/share/man/man1"' \
  --include="$packages" \
  bookworm "$out" \
  "deb http://deb.debian.org/debian bookworm main" \
  "deb http://deb.debian.org/debian bookworm-updates main" \
  "deb http://deb.debian.org/debian-security bookworm-security main"
