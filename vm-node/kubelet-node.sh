#!/bin/bash
# Real kubelets in the VM node, joined to the tests' control plane (RealKubeletVmIT): containerd,
# runc, the CNI plugins, rso-node and the kubelet come from the share (the same cached binaries
# the host's RealNode runs), the kubeconfigs with the nodes' tokens too. The API server is reached
# only through qemu's guestfwd (10.0.2.100:443 → the host's loopback API server); each node answers
# its service address 10.0.0.1:443 with rso-node forward, as the host's RealNode does.
# Two nodes share the VM's one kernel (a verbs acceptance run and a latency pair need a peer): each
# has its own containerd (a kubelet removes every pod of its runtime that it does not know), state
# folders, kubelet ports and cgroup root.
#   kubelet-node.sh store RUNTIME DISK OCI_TAR NAME...  on the host: the image store, an ext4 disk image
#                                                holding a containerd root with the pause image and each
#                                                OCI_TAR (imported as NAME) by RUNTIME's containerd
#   kubelet-node.sh start INDEX NODE_NAME NODE_IP [TAINTS]  in the VM: node INDEX (0, 1), containerd on a copy of the
#                                                image store (from the disk labelled rso-image-store) and the kubelet, in the background;
#                                                returns once the kubelet bound the device-plugin socket every
#                                                kubelet binds (/var/lib/kubelet/device-plugins/kubelet.sock), so
#                                                that the next node's start cannot race it; TAINTS, the
#                                                kubelet's --register-with-taints (key=value:Effect,...)
#   kubelet-node.sh copy_store                   in the VM: the image store's copy on the tmpfs (start makes it
#                                                when no earlier call did, and waits for one under way)
#   kubelet-node.sh stop                         in the VM: every kubelet, containerd, their shims and containers
set -euo pipefail
SHARE=/mnt/share
RUNTIME=$SHARE/runtime
# The images are imported on the host, where hashing and unpacking the probe image's 450 MB takes
# seconds (under TCG it took about 100 s), into a store the VM receives as a disk. containerd's
# folders live on a tmpfs of their own: the store is copied there once, and the nodes' copies of it
# are hard links. A container root on the disk itself made containerd's clean-up of an exited
# container (its 10 s deadline) time out under TCG on a loaded host.
CONTAINERD=/var/lib/rso-containerd
STORE=$CONTAINERD/images
STORE_LABEL=rso-image-store   # the guest also has the probe rootfs disk: found by label, not by order
STORE_DISK_MOUNT=/var/lib/rso-image-disk
export PATH=$RUNTIME/root/usr/bin:$RUNTIME/root/usr/sbin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin

# how long each step of a start took, on stderr (RealKubeletVmIT prints it): under TCG they are minutes
STARTED_US=${EPOCHREALTIME/./}
mark() {
  local us=$(( ${EPOCHREALTIME/./} - STARTED_US ))
  printf 'kubelet-node: %s after %d.%d s\n' "$1" $((us / 1000000)) $((us / 100000 % 10)) >&2
}

# a long-running process of the node: its own session, no copy of the agent's channel (fd 3)
background() {
  local log=$1; shift
  setsid "$@" > "$log" 2>&1 < /dev/null 3>&- &
}

# containerd ROOT STATE: its configuration, then containerd in the background (its socket at STATE/containerd.sock)
containerd_start() {
  local root=$1 state=$2
  mkdir -p "$root" "$state/cni/net.d"
  cat > "$state/containerd.toml" <<TOML
version = 2
root = "$root"
state = "$state/containerd"
[grpc]
  address = "$state/containerd.sock"
[plugins."io.containerd.internal.v1.opt"]
  path = "$state/opt"
[plugins."io.containerd.grpc.v1.cri"]
  sandbox_image = "registry.k8s.io/pause:3.10"
  disable_apparmor = true
  [plugins."io.containerd.grpc.v1.cri".containerd]
    snapshotter = "overlayfs"
    [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc]
      runtime_type = "io.containerd.runc.v2"
      [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc.options]
        BinaryName = "$RUNTIME/root/usr/sbin/runc"
  [plugins."io.containerd.grpc.v1.cri".cni]
    bin_dir = "$RUNTIME/root/usr/lib/cni"
    conf_dir = "$state/cni/net.d"
TOML
  background "$state/containerd.log" containerd --config "$state/containerd.toml"
  for _ in $(seq 1 600); do [ -S "$state/containerd.sock" ] && break; sleep 0.2; done
  [ -S "$state/containerd.sock" ] || { tail -20 "$state/containerd.log"; exit 1; }
}

# On the host, as root: RUNTIME's containerd imports the images into a folder, in a mount namespace
# of its own (the mounts it unpacks through stay there), and the folder becomes an ext4 disk image
# (a fifth more than its content, for the file system's own blocks) that the VM copies from.
store() {
  local disk=$2 work used
  RUNTIME=$(realpath "$1"); shift 2
  work=$(mktemp -d "$(dirname "$disk")/store.XXXXXX")
  unshare --mount --propagation private bash "${BASH_SOURCE[0]}" store_import "$RUNTIME" "$work" "$@"
  used=$(du -sm "$work/root" | cut -f1)
  rm -f "$disk"
  truncate -s "$((used + used / 5 + 64))M" "$disk"
  # no journal: a scratch disk, read once and thrown away after the test
  mke2fs -q -t ext4 -O ^has_journal -L "$STORE_LABEL" -d "$work/root" -E root_owner=0:0 "$disk"
  rm -rf "$work"
}

# store's import (RUNTIME WORK OCI_TAR NAME...), inside its mount namespace
store_import() {
  RUNTIME=$1; local work=$2 state=$2/state; shift 2
  export PATH=$RUNTIME/root/usr/bin:$RUNTIME/root/usr/sbin:$PATH
  # the store is root/images, where the VM's containerd finds it under $CONTAINERD
  containerd_start "$work/root/images" "$state"
  local import=(ctr --address "$state/containerd.sock" --namespace k8s.io images import)
  "${import[@]}" --base-name registry.k8s.io/pause "$RUNTIME/pause.oci.tar" > /dev/null
  while [ $# -gt 0 ]; do
    "${import[@]}" --base-name "$2" "$1" > /dev/null
    shift 2
  done
  pkill -TERM -f -- "--config $state/containerd.toml" || true
  for _ in $(seq 100); do pgrep -f -- "--config $state/containerd.toml" > /dev/null || break; sleep 0.1; done
}

# The image store copied from its disk to the tmpfs, once (idempotent; a second caller waits for the
# first): RealKubeletVmIT starts it in the background right after the boot, beside its own steps
copy_store() {
  exec 7> /run/rso-store.lock
  flock 7
  mkdir -p "$CONTAINERD" "$STORE_DISK_MOUNT"
  if [ ! -e /run/rso-store.copied ]; then
    mountpoint -q "$CONTAINERD" || mount -t tmpfs -o size=1800m tmpfs "$CONTAINERD"
    mountpoint -q "$STORE_DISK_MOUNT" || mount -t ext4 -o ro -L "$STORE_LABEL" "$STORE_DISK_MOUNT"
    [ -d "$STORE_DISK_MOUNT/images" ] \
      || { echo "no image store on the disk labelled $STORE_LABEL: the host makes it with 'kubelet-node.sh store'" >&2; exit 1; }
    rm -rf "$STORE"
    cp -a "$STORE_DISK_MOUNT/images" "$STORE"
    umount "$STORE_DISK_MOUNT"
    touch /run/rso-store.copied
    mark "the image store copied to the tmpfs"
  fi
  exec 7>&-
}

# What the nodes share, made by the first node that starts (idempotent): the image store's copy, the
# API server's link, the cgroup controllers, a shared /
node_host() {
  copy_store
  # qemu's user network: the API server's forward only (restrict=on: no route anywhere else)
  ip link set eth0 up
  ip addr replace 10.0.2.15/24 dev eth0
  ip addr replace 10.0.0.1/32 dev lo
  mountpoint -q /sys/fs/cgroup || mount -t cgroup2 cgroup2 /sys/fs/cgroup
  # a cgroup root per kubelet: each removes the pod cgroups it does not know
  # (every controller the kernel has, as the kubelet requires for it: hugetlb too)
  for c in $(cat /sys/fs/cgroup/cgroup.controllers); do echo "+$c" > /sys/fs/cgroup/cgroup.subtree_control; done
  # HostToContainer mounts of the probe pods' host root need a shared /
  mount --make-rshared /
  pgrep -f 'rso-node forward tcp:10.0.0.1:443' > /dev/null \
    || background /run/rso-forward.log "$RUNTIME/rso-node" forward tcp:10.0.0.1:443 tcp:10.0.2.100:443
}

start() {
  local index=$1 node=$2 ip=$3 taints=${4:-}
  local state=/run/rso-node-$index root=$CONTAINERD/node-$index cgroup=rso-node-$index
  node_host
  # the store's copy: hard links for the unpacked layers and blobs (never written), real copies of
  # the databases containerd writes in place
  rm -rf "$root"
  cp -al "$STORE" "$root"
  find "$STORE" -name '*.db' -printf '%P\n' | while read -r db; do cp --remove-destination "$STORE/$db" "$root/$db"; done
  mkdir -p "$state/ipam"
  mkdir -p "/sys/fs/cgroup/$cgroup"
  mkdir -p "$state/cni/net.d"
  cat > "$state/cni/net.d/10-rso.conflist" <<JSON
{"cniVersion": "0.4.0", "name": "rso", "plugins": [
  {"type": "ptp", "ipMasq": false,
   "ipam": {"type": "host-local", "ranges": [[{"subnet": "10.88.$index.0/24"}]], "routes": [{"dst": "0.0.0.0/0"}], "dataDir": "$state/ipam"}},
  {"type": "loopback"}]}
JSON
  mark "node $index: the store's hard links"
  containerd_start "$root" "$state"
  mark "node $index: containerd answers"
  echo "nameserver 127.0.0.1" > "$state/resolv.conf"
  cat > "$state/kubelet.yaml" <<YAML
apiVersion: kubelet.config.k8s.io/v1beta1
kind: KubeletConfiguration
address: 127.0.0.1
port: $((10250 + index * 10))
readOnlyPort: 0
healthzBindAddress: 127.0.0.1
healthzPort: $((10248 + index * 10))
containerRuntimeEndpoint: unix://$state/containerd.sock
cgroupDriver: cgroupfs
cgroupRoot: /$cgroup
failSwapOn: false
makeIPTablesUtilChains: false
resolvConf: $state/resolv.conf
podLogsDir: /var/log/pods-$index
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
# the pods' CPU limits are not enforced: a CPU-second of this emulated machine does a small part of
# a real one's work, so the probe's 500m limit here would stretch a 5 s probe run past a minute and
# measure qemu, not the pod (the host's real-node tier enforces them)
cpuCFSQuota: false
YAML
  # every kubelet binds this hard-coded path (not under --root-dir), removing the file first: two
  # at once race between one's remove and the other's bind ("bind: address already in use", that
  # kubelet never Ready), so start returns only once this kubelet has bound it
  local socket=/var/lib/kubelet/device-plugins/kubelet.sock
  rm -f "$socket"
  background "$state/kubelet.log" "$SHARE/kubelet" --config="$state/kubelet.yaml" \
    --kubeconfig="$SHARE/$node.kubeconfig" --root-dir="/var/lib/kubelet-$index" \
    --hostname-override="$node" --node-ip="$ip" ${taints:+--register-with-taints="$taints"} --v=1
  for _ in $(seq 600); do
    if [ -S "$socket" ]; then mark "node $index: the kubelet bound $socket"; return 0; fi
    sleep 0.25
  done
  echo "the kubelet of $node did not bind $socket within 150 s (see $state/kubelet.log)" >&2
}

stop() {
  pkill -TERM -x kubelet || true
  sleep 1
  pkill -TERM -x containerd || true
  pkill -KILL -f containerd-shim || true
  sleep 1
  umount -R "$CONTAINERD" 2>/dev/null || true
  rm -f /run/rso-store.copied
}

cmd=$1; shift
"$cmd" "$@"
