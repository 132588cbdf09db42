#!/usr/bin/env bash
# Builds the probe image's root file system (Debian bookworm + node-probe/image-packages.txt, the
# list node-probe/Dockerfile installs) into an empty or absent folder, without a container engine:
#   scripts/probe-rootfs.sh OUT_DIR
# The jar is not part of it: scripts/build-probe-image.sh adds it for the image, and the VM node
# mounts the freshly built one. Needs mmdebstrap and root (or sudo).
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:?usage: scripts/probe-rootfs.sh OUT_DIR}
packages=$(grep -v -e '^#' -e '^[[:space:]]*$' node-probe/image-packages.txt | paste -sd, -)
# like bookworm-slim: no manuals, no translations, no recommends (the JRE's postinst still
# wants man1 for its alternatives' links)
mmdebstrap --variant=apt --mode=root \
  --aptopt='APT::Install-Recommends "false"' \
  --dpkgopt='path-exclude=/usr/share/man/*' --dpkgopt='path-exclude=/usr/share/locale/*' \
  --dpkgopt='path-exclude=/usr/share/doc/*' --dpkgopt='path-include=/usr/share/doc/*/copyright' \
  --essential-hook='mkdir -p "$1/usr/share/man/man1"' \
  --include="$packages" \
  bookworm "$out" \
  "deb http://deb.debian.org/debian bookworm main" \
  "deb http://deb.debian.org/debian bookworm-updates main" \
  "deb http://deb.debian.org/debian-security bookworm-security main"
