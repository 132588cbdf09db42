#!/usr/bin/env bash
# Puts promtool (Prometheus's rule and query test tool) into the cache and prints its path:
#   ${RSO_BINARY_CACHE:-${XDG_CACHE_HOME:-~/.cache}/rdma-storage-operator}/promtool/<version>/promtool
# It comes from the distribution's prometheus package (Debian, Ubuntu), downloaded and unpacked,
# not installed: installing it would set up and start a Prometheus server, and needs root.
# Without apt, a promtool on PATH is used. Progress goes to stderr, the path to stdout.
set -euo pipefail

cache="${RSO_BINARY_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/rdma-storage-operator}/promtool"

if ! command -v apt-cache >/dev/null; then
  command -v promtool && exit 0
  echo "fetch-promtool: no apt here and no promtool on PATH: install Prometheus's promtool" >&2
  exit 1
fi

candidate() { apt-cache policy prometheus 2>/dev/null | awk '/Candidate:/ {print $2}'; }
version=$(candidate)
if [ -z "$version" ] || [ "$version" = "(none)" ]; then
  # a fresh machine whose package lists were never fetched
  sudo=""; if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
  echo "==> apt-get update (to find the prometheus package)" >&2
  $sudo apt-get update -qq >&2
  version=$(candidate)
fi
if [ -z "$version" ] || [ "$version" = "(none)" ]; then
  echo "fetch-promtool: no prometheus package in this machine's apt sources" >&2
  exit 1
fi

dir="$cache/${version//:/_}"
if [ ! -x "$dir/promtool" ]; then
  echo "==> fetching promtool from the prometheus package $version (a 20 MB download, once)" >&2
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  # apt-get download needs no root; as root it only warns that _apt cannot write to the folder
  (cd "$tmp" && apt-get download -qq "prometheus=$version" 2>&1 | grep -v 'unsandboxed' >&2 || true)
  deb=$(ls "$tmp"/prometheus_*.deb)
  dpkg-deb -x "$deb" "$tmp/root"
  mkdir -p "$cache"
  rm -rf "$dir.partial" && mkdir "$dir.partial"
  mv "$tmp/root/usr/bin/promtool" "$dir.partial/promtool"
  mv "$dir.partial" "$dir"
  # older versions are not needed any more
  find "$cache" -mindepth 1 -maxdepth 1 -not -path "$dir" -exec rm -rf {} +
fi
"$dir/promtool" --version >/dev/null
echo "$dir/promtool"
