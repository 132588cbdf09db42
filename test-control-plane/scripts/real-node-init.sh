#!/bin/sh
# The first process of a real test node (RealNode): run by `unshare --mount --net --pid --fork
# --mount-proc --propagation private` as the node's PID 1, it makes the node's mount and network
# namespaces what a kubelet and containerd expect, writes READY_FILE, and becomes `rso-node pause`
# (PID 1 for good: reaps orphans, and its SIGKILL ends every process of the node at once).
#   real-node-init.sh WORK_DIR RSO_NODE READY_FILE API_VIP NODE_IP HARD_CODED_PATH...
# Nothing here changes the machine: the mounts live in the node's mount namespace, the addresses in
# its network namespace, and both go when its last process does.
set -eu
work=$1 rso_node=$2 ready=$3 api_vip=$4 node_ip=$5
shift 5

# containerd refuses HostToContainer mounts of a private "/": shared inside, in peer groups of its
# own (unshare made every mount private first, so nothing propagates back to the machine)
mount --make-rshared /

# the kubelet checks vm.overcommit_memory=1, kernel.panic=10, kernel.panic_on_oops=1 ... and would
# write them machine-wide; protectKernelDefaults makes it only read them, and it reads these copies
mkdir -p "$work/sysctl"
for setting in vm/overcommit_memory=1 vm/panic_on_oom=0 kernel/panic=10 kernel/panic_on_oops=1 \
               kernel/keys/root_maxkeys=1000000 kernel/keys/root_maxbytes=25000000; do
  key=${setting%%=*}
  file="$work/sysctl/$(echo "$key" | tr / .)"
  echo "${setting#*=}" > "$file"
  mount --bind "$file" "/proc/sys/$key"
done

# paths the kubelet, containerd and libcni write whatever their configured folders: the node's own
# copies (RealNode created the mount points and removes them again)
i=0
for path in "$@"; do
  i=$((i + 1))
  mkdir -p "$work/hard-coded/$i"
  mount --bind "$work/hard-coded/$i" "$path"
done

# the node's network: loopback, the API server's service address (RealNode forwards it to the test's
# loopback API server) and the node's own address (the kubelet refuses a 127.0.0.0/8 node address)
ip link set lo up
ip addr add "$api_vip/32" dev lo
ip addr add "$node_ip/32" dev lo

touch "$ready"
exec "$rso_node" pause
