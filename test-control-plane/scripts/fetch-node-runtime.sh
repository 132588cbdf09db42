#!/usr/bin/env bash
# Puts a real node's container runtime into the cache and prints its folder:
#   ${RSO_BINARY_CACHE:-${XDG_CACHE_HOME:-~/.cache}/rdma-storage-operator}/node-runtime/<key>/
# holding the distribution's containerd, runc and CNI plugins (downloaded and unpacked with
# dpkg-deb, not installed: nothing is set up or started system-wide), and rso-node (built from
# ../src/main/go/rso-node: the node's PID 1 and pod sandbox, and a loopback forwarder), plus
# pause.oci.tar, the sandbox image made of rso-node (umoci). The key covers the package versions
# and rso-node's source, so a new version is fetched once. The kubelet is built beside
# kube-apiserver (build-binaries.sh). Progress goes to stderr, the folder to stdout.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cache="${RSO_BINARY_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/rdma-storage-operator}/node-runtime"
packages=(containerd runc containernetworking-plugins)
sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"
command -v go >/dev/null || PATH="$PATH:/usr/local/go/bin"

candidate() { apt-cache policy "$1" 2>/dev/null | awk '/Candidate:/ {print $2}'; }
if [ -z "$(candidate containerd)" ] || [ "$(candidate containerd)" = "(none)" ]; then
  echo "==> apt-get update (to find the containerd package)" >&2
  $sudo apt-get update -qq >&2
fi
pins=()
for p in "${packages[@]}"; do
  v=$(candidate "$p")
  [ -n "$v" ] && [ "$v" != "(none)" ] || { echo "fetch-node-runtime: no $p package in this machine's apt sources" >&2; exit 1; }
  pins+=("$p=$v")
done
command -v umoci >/dev/null || { echo "==> installing umoci" >&2; DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends umoci >/dev/null; }
key=$( { printf '%s\n' "${pins[@]}"; cat "$here/fetch-node-runtime.sh" "$here"/../src/main/go/rso-node/*; } | sha256sum | cut -c1-16)
dir="$cache/$key"
if [ -f "$dir/ready" ]; then
  echo "$dir"
  exit 0
fi
mkdir -p "$cache"
exec 9>"$cache/.lock"
flock 9
if [ ! -f "$dir/ready" ]; then
  echo "==> fetching the node runtime (${pins[*]}), once" >&2
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  # apt-get download needs no root; as root it only warns that _apt cannot write to the folder
  (cd "$tmp" && apt-get download -qq "${pins[@]}" 2>&1 | grep -v 'unsandboxed' >&2 || true)
  rm -rf "$dir" && mkdir -p "$dir/root"
  for deb in "$tmp"/*.deb; do dpkg-deb -x "$deb" "$dir/root"; done
  (cd "$here/../src/main/go/rso-node" && CGO_ENABLED=0 GOWORK=off go build -trimpath -ldflags "-s -w" -o "$dir/rso-node" .)
  # the sandbox image: rso-node alone, started as `rso-node pause`
  mkdir -p "$tmp/pause-root" && cp "$dir/rso-node" "$tmp/pause-root/rso-node"
  umoci init --layout "$tmp/pause"
  umoci new --image "$tmp/pause:3.10"
  $sudo umoci insert --image "$tmp/pause:3.10" "$tmp/pause-root" / >/dev/null
  umoci config --image "$tmp/pause:3.10" --os linux --architecture amd64 \
    --config.entrypoint /rso-node --config.entrypoint pause
  tar -C "$tmp/pause" -cf "$dir/pause.oci.tar" .
  "$dir/root/usr/bin/containerd" --version >&2
  touch "$dir/ready"
  # older keys are not needed any more
  find "$cache" -mindepth 1 -maxdepth 1 -type d -not -path "$dir" -exec rm -rf {} +
fi
echo "$dir"
