#!/bin/bash
# A real kubelet in the VM node, joined to the tests' control plane (RealKubeletVmIT): containerd,
# runc, the CNI plugins, rso-node and the kubelet come from the share (the same cached binaries
# the host's RealNode runs), the kubeconfig with the node's token too. The API server is reached
# only through qemu's guestfwd (10.0.2.100:443 → the host's loopback API server); the node answers
# its service address 10.0.0.1:443 with rso-node forward, as the host's RealNode does.
#   kubelet-node.sh start NODE_NAME        containerd and the kubelet (background), pause image imported
#   kubelet-node.sh import OCI_TAR NAME    an image archive into containerd's k8s.io namespace
#   kubelet-node.sh stop                   the kubelet, containerd, their shims and containers
set -euo pipefail
SHARE=/mnt/share
RUNTIME=$SHARE/runtime
STATE=/run/rso-node
export PATH=$RUNTIME/root/usr/bin:$RUNTIME/root/usr/sbin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
SOCK=$STATE/containerd.sock

# a long-running process of the node: its own session, no copy of the agent's channel (fd 3)
background() {
  local log=$1; shift
  setsid "$@" > "$STATE/$log.log" 2>&1 < /dev/null 3>&- &
}

start() {
  local node=$1
  mkdir -p "$STATE/cni/net.d" "$STATE/ipam" /etc/containerd
  # qemu's user network: the API server's forward only (restrict=on: no route anywhere else)
  ip link set eth0 up
  ip addr replace 10.0.2.15/24 dev eth0
  ip addr replace 10.0.0.1/32 dev lo
  ip addr replace 10.99.0.2/32 dev lo
  mountpoint -q /sys/fs/cgroup || mount -t cgroup2 cgroup2 /sys/fs/cgroup
  # the initramfs root may use half the memory, and holds 650 MB already: the images get a tmpfs of
  # their own (the probe image's two layers unpack to about 450 MB)
  mkdir -p /var/lib/containerd
  mountpoint -q /var/lib/containerd || mount -t tmpfs -o size=1800m tmpfs /var/lib/containerd
  # HostToContainer mounts of the probe pods' host root need a shared /
  mount --make-rshared /
  background forward "$RUNTIME/rso-node" forward tcp:10.0.0.1:443 tcp:10.0.2.100:443
  cat > "$STATE/cni/net.d/10-rso.conflist" <<JSON
{"cniVersion": "0.4.0", "name": "rso", "plugins": [
  {"type": "ptp", "ipMasq": false,
   "ipam": {"type": "host-local", "ranges": [[{"subnet": "10.88.0.0/24"}]], "routes": [{"dst": "0.0.0.0/0"}], "dataDir": "$STATE/ipam"}},
  {"type": "loopback"}]}
JSON
  cat > "$STATE/containerd.toml" <<TOML
version = 2
root = "/var/lib/containerd"
state = "$STATE/containerd"
[grpc]
  address = "$SOCK"
[plugins."io.containerd.grpc.v1.cri"]
  sandbox_image = "registry.k8s.io/pause:3.10"
  disable_apparmor = true
  [plugins."io.containerd.grpc.v1.cri".containerd]
    snapshotter = "overlayfs"
    [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc]
      runtime_type = "io.containerd.runc.v2"
      [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc.options]
        BinaryName = "$RUNTIME/root/usr/sbin/runc"
        # the VM's root is its initramfs, where pivot_root is refused
        NoPivotRoot = true
  [plugins."io.containerd.grpc.v1.cri".cni]
    bin_dir = "$RUNTIME/root/usr/lib/cni"
    conf_dir = "$STATE/cni/net.d"
TOML
  background containerd containerd --config "$STATE/containerd.toml"
  for _ in $(seq 1 600); do [ -S "$SOCK" ] && break; sleep 0.2; done
  [ -S "$SOCK" ] || { tail -20 "$STATE/containerd.log"; exit 1; }
  import "$RUNTIME/pause.oci.tar" registry.k8s.io/pause
  echo "nameserver 127.0.0.1" > "$STATE/resolv.conf"
  cat > "$STATE/kubelet.yaml" <<YAML
apiVersion: kubelet.config.k8s.io/v1beta1
kind: KubeletConfiguration
address: 127.0.0.1
readOnlyPort: 0
healthzBindAddress: 127.0.0.1
containerRuntimeEndpoint: unix://$SOCK
cgroupDriver: cgroupfs
failSwapOn: false
makeIPTablesUtilChains: false
resolvConf: $STATE/resolv.conf
staticPodPath: ""
authentication: {anonymous: {enabled: false}, webhook: {enabled: false}}
authorization: {mode: AlwaysAllow}
evictionHard: {memory.available: 50Mi, nodefs.available: 1%, imagefs.available: 1%}
imageGCHighThresholdPercent: 100
imageGCLowThresholdPercent: 99
syncFrequency: 10s
nodeStatusUpdateFrequency: 5s
# under TCG a container start takes a minute or more
runtimeRequestTimeout: 10m
YAML
  background kubelet "$SHARE/kubelet" --config="$STATE/kubelet.yaml" --kubeconfig="$SHARE/kubelet.kubeconfig" \
    --hostname-override="$node" --node-ip=10.99.0.2 --v=1
}

import() {
  ctr --address "$SOCK" --namespace k8s.io images import --base-name "$2" "$1" > /dev/null
}

stop() {
  pkill -TERM -x kubelet || true
  sleep 1
  pkill -TERM -x containerd || true
  pkill -KILL -f containerd-shim || true
  sleep 1
  umount -R /var/lib/containerd 2>/dev/null || true
}

cmd=$1; shift
"$cmd" "$@"
