#!/bin/bash
# Runs in the VM node (shared in at /mnt/share, so editing it rebuilds nothing): sets up and
# changes the node's real RDMA state for the tests, and runs node-probe as its pod would.
#   scenario.sh image                      once per boot: the jar at the image's path, its CDS archive, the
#                                          Dockerfile's ENTRYPOINT
#   scenario.sh reset                      two rxe devices on a veth pair, the nvmet target, nothing connected,
#                                          mounted or running: undoes what any scenario leaves, then fails
#                                          naming what is still there (the test classes share one boot)
#   scenario.sh connect rdma|tcp           nvme connect to the target over that transport
#   scenario.sh rail                       a second rail: rxe2 on veth2 198.51.100.1, rxe3 on veth3 198.51.100.2, a
#                                          second nvmet rdma port on 198.51.100.1; nothing connected over it
#   scenario.sh multipath                  the second rail and the subsystem connected over rdma on both rails,
#                                          each path from its own address (-w): native multipath
#   scenario.sh iopolicy POLICY            the connected subsystem's multipath I/O policy (numa, round-robin)
#   scenario.sh storage-read               the node's storage I/O: paced direct reads of the connected NVMe
#                                          namespace in the background (up to 15 minutes, longer than an
#                                          arm64 probe's limit; reset stops it)
#   scenario.sh nfs-mount rdma|tcp         the node's NFS export (a tmpfs) mounted at /mnt/nfs over that
#                                          transport (rdma: port 20049), the NFS server started first
#   scenario.sh roce-tos DEV TOS           rdma_cm's default ToS of DEV's port 1 set to TOS (its configfs
#                                          directory created first); prints the value it replaced
#   scenario.sh roce-tos-undo DEV TOS      that ToS written back and DEV's configfs directory removed (the
#                                          kernel keeps the value without the directory: removing it undoes nothing)
#   scenario.sh probe SPEC_BASE64 [--no-host-sys] [--memlock KIB] [--host-network]
#                     [--termination-log FILE] [--writable DIR]... [-- ARGS...]
#                                          node-probe in the probe image's rootfs, host root at /host;
#                                          FILE (on the host) is the pod's /dev/termination-log; each DIR
#                                          is bound read-write at /host/DIR (an acceptance run's hostPath
#                                          volumes: a path run's directory, the journal directory)
# Addresses are TEST-NET-1 (192.0.2.0/24) on veth0/veth1, which exist only inside the VM.
set -euo pipefail
# a glob that matches nothing expands to nothing (reset and clean count what is there)
shopt -s nullglob
NQN=nqn.2014-08.org.example:vm-target
ADDR0=192.0.2.1
ADDR1=192.0.2.2
# the second rail's pair (TEST-NET-2), set up by multipath only, taken down by reset
ADDR2=198.51.100.1
ADDR3=198.51.100.2
NVMET=/sys/kernel/config/nvmet
POD=/var/lib/probe-pod/rootfs
NFS_EXPORT=/srv/nfs
NFS_MOUNT=/mnt/nfs
RDMA_CM=/sys/kernel/config/rdma_cm
ENTRYPOINT=/run/probe-entrypoint
SHARE=/mnt/share   # node-probe.jar, this script, node-probe's Dockerfile and image-cds.sh, dockerfile-array.sh

in_pod() {   # in_pod COMMAND...: COMMAND in the pod's root, with a /proc of its own
  unshare --mount --propagation private sh -ec 'root=$1; shift; mount -t proc proc "$root/proc"; exec chroot "$root" "$@"' \
    in-pod "$POD" "$@"
}

# the image's last build steps on the jar just built: where the Dockerfile copies it, and the
# class-data-sharing archive its ENTRYPOINT uses: the one the host made while this guest booted
# (scripts/probe-cds.sh, shared in as node-probe.jsa) when this JVM maps it with this jar, else made
# here as the image build makes it (image-cds.sh), which under TCG takes one to two minutes
image() {
  local jsa=$POD/opt/node-probe/node-probe.jsa
  mountpoint -q "$POD/opt/node-probe/node-probe.jar" \
    || mount --bind "$SHARE/node-probe.jar" "$POD/opt/node-probe/node-probe.jar"
  rm -f "$jsa"
  if [ -s "$SHARE/node-probe.jsa" ] && cp "$SHARE/node-probe.jsa" "$jsa" \
    && in_pod java -Xshare:on -XX:SharedArchiveFile=/opt/node-probe/node-probe.jsa -cp /opt/node-probe/node-probe.jar \
      -version > /dev/null 2>&1; then
    echo "class-data-sharing archive: the host's"
  else
    rm -f "$jsa"
    cp "$SHARE/image-cds.sh" "$POD/tmp/image-cds.sh"
    in_pod sh /tmp/image-cds.sh
    rm -f "$POD/tmp/image-cds.sh"
    echo "class-data-sharing archive: made in the guest"
  fi
  # the ENTRYPOINT, one word a line, for probe: parsed once, as that takes four programs
  sh "$SHARE/dockerfile-array.sh" ENTRYPOINT "$SHARE/Dockerfile" > "$ENTRYPOINT"
}

port() {   # port ID TRTYPE [ADDR]: an nvmet port on ADDR (ADDR0 by default):4420 exporting the subsystem, (re-)enabled
  local dir=$NVMET/ports/$1
  [ -d "$dir" ] || mkdir "$dir"
  # unlinking disables the port (and drops its controllers); relinking listens anew, which an rdma
  # port needs after its rxe device was removed and added again
  rm -f "$dir/subsystems/$NQN"
  echo "$2" > "$dir/addr_trtype"
  echo ipv4 > "$dir/addr_adrfam"
  echo "${3:-$ADDR0}" > "$dir/addr_traddr"
  echo 4420 > "$dir/addr_trsvcid"
  ln -s "$NVMET/subsystems/$NQN" "$dir/subsystems/$NQN"
}

# Reset runs before every test: it reads /proc and /sys with bash's own builtins and gives ip one
# batch, because under TCG every program started costs about 0.1 s (pgrep, which links libsystemd,
# 0.25 s), and the reset of 90 programs took 7 s of a 16 s test.

# The veth pair's addresses, MTU 1500 and link up, and routing that makes traffic between 192.0.2.2
# and 192.0.2.1 cross the pair although both are local addresses: rxe0 and rxe1 then talk RoCE over
# a "wire" as two nodes' ports do (without this the kernel routes it through lo and rxe1 cannot reach
# rxe0). soft-RoCE of this kernel works in the initial network namespace only, so two namespaces are
# not an option. Idempotent.
wire() {   # wire [TARGET_IF INITIATOR_IF TARGET_ADDR INITIATOR_ADDR RULE_PREF]: veth0/veth1 by default
  local t=${1:-veth0} i=${2:-veth1} a=${3:-$ADDR0} b=${4:-$ADDR1} pref=${5:-100}
  local prefs=" " local_at_0="" p rest mac_t mac_i n batch
  while IFS=: read -r p rest; do
    prefs+="$p "
    [[ $p != 0 || $rest != *"lookup local"* ]] || local_at_0=1
  done <<< "$(ip rule show)"
  # static neighbours: ARP between two local addresses is not answered
  read -r mac_t < "/sys/class/net/$t/address"
  read -r mac_i < "/sys/class/net/$i/address"
  batch="addr replace $a/24 dev $t
addr replace $b/24 dev $i
link set $t mtu 1500 up
link set $i mtu 1500 up
route replace $a dev $i src $b table $pref
route replace $b dev $t src $a table $((pref + 1))
neigh replace $b lladdr $mac_i dev $t nud permanent
neigh replace $a lladdr $mac_t dev $i nud permanent"
  [[ $prefs == *" $pref "* ]] || batch+=$'\n'"rule add pref $pref from $b to $a iif lo lookup $pref"
  [[ $prefs == *" $((pref + 1)) "* ]] || batch+=$'\n'"rule add pref $((pref + 1)) from $a to $b iif lo lookup $((pref + 1))"
  # the local table after those rules, not before them
  [[ $prefs == *" 1000 "* ]] || batch+=$'\n'"rule add pref 1000 lookup local"
  [ -z "$local_at_0" ] || batch+=$'\n'"rule del pref 0 lookup local"
  ip -batch - <<< "$batch"
  for n in all "$t" "$i"; do
    echo 1 > "/proc/sys/net/ipv4/conf/$n/accept_local"
    echo 0 > "/proc/sys/net/ipv4/conf/$n/rp_filter"
  done
}

# DEV's port 1 ACTIVE with a GID ending in SUFFIX (the RoCE v2 GID of its netdev's IPv4 address),
# which come a moment after the netdev is up
port_active() {   # port_active DEV SUFFIX
  local state gid g
  read -r state 2>/dev/null < "/sys/class/infiniband/$1/ports/1/state" || return 1
  [ "$state" = "4: ACTIVE" ] || return 1
  for ((g = 0; ; g++)); do
    read -r gid 2>/dev/null < "/sys/class/infiniband/$1/ports/1/gids/$g" || return 1
    [[ $gid != *"$2" ]] || return 0
  done
}

# waits until each DEV SUFFIX pair is port_active
await_active() {   # await_active DEV SUFFIX [DEV SUFFIX]...
  local n k ready
  for ((n = 0; n < 50; n++)); do
    ready=1
    for ((k = 1; k < $#; k += 2)); do
      port_active "${!k}" "${@:k+1:1}" || { ready=""; break; }
    done
    [ -z "$ready" ] || return 0
    sleep 0.1
  done
  return 1
}

# What scenarios start and may leave running: node-probe (a latency or acceptance server, a run stopped
# mid-way), the tools it runs (fio, perftest) and the tests' background read (dd, its loop in dd.pid). Process names, pgrep -x.
TOOLS='fio|dd|ib_(write|read|send)_(lat|bw)'

# "PID COMMAND LINE" of each of them: pgrep -f 'node-probe\.jar' and pgrep -x "$TOOLS" together
leftovers() {
  local d comm argv
  for d in /proc/[0-9]*; do
    read -r comm 2>/dev/null < "$d/comm" || continue   # gone meanwhile
    mapfile -d '' -t argv 2>/dev/null < "$d/cmdline" || continue
    if [[ $comm =~ ^($TOOLS)$ || "${argv[*]}" == *node-probe.jar* ]]; then
      echo "${d#/proc/} ${argv[*]}"
    fi
  done
}

stop_leftovers() {   # TERM first (an acceptance run's hook removes its file and disconnects), then KILL
  local sig pid found n
  # the background read's loop first, so that it starts no other read
  if [ -s /tmp/dd.pid ] && read -r pid < /tmp/dd.pid; then kill "$pid" 2>/dev/null || true; fi
  for sig in TERM KILL; do
    mapfile -t found < <(leftovers)
    [ ${#found[@]} -gt 0 ] || return 0
    kill "-$sig" "${found[@]%% *}" 2>/dev/null || true
    for ((n = 0; n < 100; n++)); do
      mapfile -t found < <(leftovers)
      [ ${#found[@]} -gt 0 ] || return 0
      sleep 0.2
    done
  done
}

# each NFS client mount's mount point
nfs_mounts() {
  local mp type
  while read -r _ mp type _; do
    [[ $type != nfs && $type != nfs4 ]] || echo "$mp"
  done < /proc/self/mounts
}

# what reset must have unmounted, as "MOUNT POINT (TYPE)": NFS client mounts, and anything in the
# probe's rootfs but the jar's bind mount
leftover_mounts() {
  local mp type
  while read -r _ mp type _; do
    if [[ $type == nfs || $type == nfs4 ]] || [[ $mp == "$POD/"* && $mp != "$POD/opt/node-probe/node-probe.jar" ]]; then
      echo "$mp ($type)"
    fi
  done < /proc/self/mounts
}

is_mountpoint() {   # mountpoint -q PATH
  local mp
  while read -r _ mp _; do
    [ "$mp" != "$1" ] || return 0
  done < /proc/self/mounts
  return 1
}

reset() {
  stop_leftovers
  local controllers=(/sys/class/nvme/*) m files=() f
  [ ${#controllers[@]} -eq 0 ] || nvme disconnect-all >/dev/null 2>&1 || true
  unrail
  # every NFS client mount (the export's server, like the nvmet target, stays up: set up idempotently)
  for m in $(nfs_mounts); do umount -f "$m"; done
  # the tests' files (dd.pid, a server's output); the agent's own request folders are directories
  for f in /tmp/* /tmp/.[!.]* /tmp/..?*; do [ ! -f "$f" ] || [ -L "$f" ] || files+=("$f"); done
  [ ${#files[@]} -eq 0 ] || rm -f "${files[@]}"
  [ -e /sys/class/net/veth0 ] || ip link add veth0 type veth peer name veth1
  wire
  [ -e /sys/class/infiniband/rxe0 ] || rdma link add rxe0 type rxe netdev veth0
  [ -e /sys/class/infiniband/rxe1 ] || rdma link add rxe1 type rxe netdev veth1
  # rdma_cm keeps a default ToS after its configfs directory is gone: written back to the kernel's 0
  local dev
  for dev in rxe0 rxe1; do
    [ -d "$RDMA_CM" ] || break
    [ -d "$RDMA_CM/$dev" ] || mkdir "$RDMA_CM/$dev"
    roce-tos-undo "$dev" 0
  done
  local sub=$NVMET/subsystems/$NQN
  if [ ! -d "$sub" ]; then
    mkdir "$sub"
    echo 1 > "$sub/attr_allow_any_host"
    mkdir "$sub/namespaces/1"
    echo -n /dev/nullb0 > "$sub/namespaces/1/device_path"
    echo 1 > "$sub/namespaces/1/enable"
  fi
  port 1 rdma
  port 2 tcp
  await_active rxe0 ':ffff:c000:0201' rxe1 ':ffff:c000:0202' || { echo "rxe ports not ACTIVE" >&2; return 1; }
  clean
}

# The node as reset leaves it, or a failure naming what is not: a leak (a controller that would not
# disconnect, a busy mount, a file left in the export) must fail here, not pass into the next test.
clean() {
  local left=() found=() n ifname addr veth0="" veth1=""
  for ((n = 0; n < 50; n++)); do   # a controller being deleted lingers a moment in sysfs
    found=(/sys/class/nvme/*)
    [ ${#found[@]} -gt 0 ] || break
    sleep 0.1
  done
  [ ${#found[@]} -eq 0 ] || left+=("nvme controllers: ${found[*]##*/}")
  mapfile -t found < <(leftover_mounts)
  [ ${#found[@]} -eq 0 ] || left+=("mounts: ${found[*]}")
  mapfile -t found < <(leftovers)
  [ ${#found[@]} -eq 0 ] || left+=("processes: $(IFS=';'; echo "${found[*]}")")
  found=("$RDMA_CM"/*)
  [ ${#found[@]} -eq 0 ] || left+=("rdma_cm configfs: ${found[*]##*/}")
  found=(/sys/class/infiniband/*)
  [ "${found[*]##*/}" = "rxe0 rxe1" ] || left+=("RDMA devices: ${found[*]##*/}")
  while read -r _ ifname _ addr _; do
    case ${ifname%%@*} in
      veth0) veth0+=" $addr" ;;
      veth1) veth1+=" $addr" ;;
    esac
  done < <(ip -4 -o addr show)
  [ "$veth0 $veth1" = " $ADDR0/24  $ADDR1/24" ] || left+=("IPv4 addresses: veth0$veth0, veth1$veth1")
  if is_mountpoint "$NFS_EXPORT"; then
    found=("$NFS_EXPORT"/* "$NFS_EXPORT"/.[!.]* "$NFS_EXPORT"/..?*)
    [ "${found[*]##*/}" = file ] || left+=("$NFS_EXPORT holds: ${found[*]##*/}")
  fi
  [ ${#left[@]} -gt 0 ] || return 0
  echo "the node is not clean after reset:" >&2
  printf '  %s\n' "${left[@]}" >&2
  return 1
}

connect() {
  nvme connect -t "$1" -a "$ADDR0" -s 4420 -n "$NQN" >&2
}

rail() {
  [ -e /sys/class/net/veth2 ] || ip link add veth2 type veth peer name veth3
  wire veth2 veth3 "$ADDR2" "$ADDR3" 102
  [ -e /sys/class/infiniband/rxe2 ] || rdma link add rxe2 type rxe netdev veth2
  [ -e /sys/class/infiniband/rxe3 ] || rdma link add rxe3 type rxe netdev veth3
  await_active rxe2 ':ffff:c633:6401' rxe3 ':ffff:c633:6402' || { echo "rxe2/rxe3 not ACTIVE" >&2; return 1; }
  port 3 rdma "$ADDR2"
}

multipath() {
  rail
  nvme connect -t rdma -a "$ADDR0" -s 4420 -n "$NQN" -w "$ADDR1" >&2
  nvme connect -t rdma -a "$ADDR2" -s 4420 -n "$NQN" -w "$ADDR3" >&2
}

iopolicy() {
  local sub
  for sub in /sys/class/nvme-subsystem/*; do
    [ "$(cat "$sub/subsysnqn")" != "$NQN" ] || echo "$1" > "$sub/iopolicy"
  done
}

# the second rail gone (reset: the test classes share one boot)
unrail() {
  if [ -d "$NVMET/ports/3" ]; then
    rm -f "$NVMET/ports/3/subsystems/$NQN"
    rmdir "$NVMET/ports/3"
  fi
  local dev p rest batch=""
  for dev in rxe2 rxe3; do
    [ ! -e "/sys/class/infiniband/$dev" ] || rdma link delete "$dev"
  done
  # the routes of tables 102 and 103 go with the pair
  [ ! -e /sys/class/net/veth2 ] || ip link del veth2
  while IFS=: read -r p rest; do
    [[ $p != 102 && $p != 103 ]] || batch+="rule del pref $p"$'\n'
  done <<< "$(ip rule show)"
  [ -z "$batch" ] || ip -batch - <<< "$batch"
}

storage-read() {
  local namespaces=(/dev/nvme*n1) dev
  dev=${namespaces[0]:-}
  [ -n "$dev" ] || { echo "no NVMe namespace to read" >&2; return 1; }
  # paced (4 MiB, then a quarter second's pause): thousands of RoCE packets or megabytes of NVMe/TCP
  # per second, as a client's steady reads, without taking the VM's CPU from the pods under TCG
  setsid sh -c 'echo $$ > /tmp/dd.pid; end=$(($(date +%s) + 900))
    while [ "$(date +%s)" -lt "$end" ]; do dd if="$1" of=/dev/null bs=1M count=4 iflag=direct status=none; sleep 0.25; done' \
    dd "$dev" > /tmp/dd.log 2>&1 < /dev/null 3>&- &
  for _ in $(seq 50); do [ -s /tmp/dd.pid ] && return 0; sleep 0.1; done
  echo "the read did not start: $(cat /tmp/dd.log)" >&2
  return 1
}

# An NFS server on this node, as a storage server would run it: nfsd with its tcp listener (2049) and
# an rdma one on 20049 (over rxe), exporting a tmpfs (fsid given: tmpfs has no UUID). Idempotent.
nfs_server() {
  mountpoint -q /proc/fs/nfsd || mount -t nfsd nfsd /proc/fs/nfsd
  mkdir -p "$NFS_EXPORT" /var/lib/nfs/v4recovery
  mountpoint -q "$NFS_EXPORT" || { mount -t tmpfs tmpfs "$NFS_EXPORT"; echo data > "$NFS_EXPORT/file"; }
  echo "$NFS_EXPORT 192.0.2.0/24(rw,no_root_squash,no_subtree_check,fsid=1)" > /etc/exports
  pgrep -x rpcbind >/dev/null || rpcbind -w
  exportfs -ra
  pgrep -x rpc.mountd >/dev/null || rpc.mountd
  [ "$(cat /proc/fs/nfsd/threads)" != 0 ] || rpc.nfsd 4
  grep -q '^rdma 20049' /proc/fs/nfsd/portlist || echo "rdma 20049" > /proc/fs/nfsd/portlist
}

nfs-mount() {
  nfs_server
  local options=vers=4.2,proto=$1
  [ "$1" != rdma ] || options=$options,port=20049
  mkdir -p "$NFS_MOUNT"
  mount -t nfs -o "$options" "$ADDR0:$NFS_EXPORT" "$NFS_MOUNT"
  cat "$NFS_MOUNT/file" >/dev/null   # I/O over the transport, not only a mount
}

roce-tos() {
  modprobe rdma_cm
  mountpoint -q /sys/kernel/config || mount -t configfs configfs /sys/kernel/config
  [ -d "$RDMA_CM/$1" ] || mkdir "$RDMA_CM/$1"
  cat "$RDMA_CM/$1/ports/1/default_roce_tos"
  echo "$2" > "$RDMA_CM/$1/ports/1/default_roce_tos"
}

roce-tos-undo() {
  [ -d "$RDMA_CM/$1" ] || return 0
  echo "$2" > "$RDMA_CM/$1/ports/1/default_roce_tos"
  rmdir "$RDMA_CM/$1"
}

probe() {
  local spec=$1; shift
  local no_host_sys="" memlock="" netns=(--net) entrypoint=() termination_log="" writable="" node=(--node vm-node)
  while [ $# -gt 0 ]; do
    case $1 in
      --no-host-sys) no_host_sys=1 ;;
      --memlock) memlock=$2; shift ;;
      --host-network) netns=() ;;
      --termination-log) termination_log=$2; shift ;;
      --writable) writable="$writable $2"; shift ;;
      --) shift; break ;;
    esac
    shift
  done
  for a in "$@"; do [ "$a" != --node ] || node=(); done   # the caller names the node
  [ -z "$termination_log" ] || : > "$termination_log"
  [ -s "$ENTRYPOINT" ] || { echo "no $ENTRYPOINT: run scenario.sh image first (once per boot)" >&2; return 1; }
  mapfile -t entrypoint < "$ENTRYPOINT"
  # a mount namespace per run, as a container has: the host root read-only at /host, the pod's
  # own /proc, /sys, the host's /dev (privileged), an in-memory /tmp holding the spec (the
  # operator's ConfigMap file); a network namespace of its own unless --host-network
  unshare "${netns[@]}" --mount --propagation private bash -euc '
    pod=$1 no_host_sys=$2 memlock=$3 spec=$4 termination_log=$5 writable=$6; shift 6
    mount --rbind / "$pod/host"
    mount -o remount,bind,ro "$pod/host"
    # as the pod of an acceptance run has them: those directories read-write over the read-only root
    for w in $writable; do mount --bind "$w" "$pod/host$w"; done
    [ -z "$no_host_sys" ] || umount -l "$pod/host/sys"
    mount -t proc proc "$pod/proc"
    mount -t sysfs sysfs "$pod/sys"
    mount --rbind /dev "$pod/dev"
    # as the kubelet does: a host file bound over /dev/termination-log in the container
    if [ -n "$termination_log" ]; then
      touch "$pod/dev/termination-log"
      mount --bind "$termination_log" "$pod/dev/termination-log"
    fi
    mount -t tmpfs tmpfs "$pod/tmp"
    base64 -d <<< "$spec" > "$pod/tmp/spec.json"
    if [ -n "$memlock" ]; then
      # a pod without CAP_IPC_LOCK under a small RLIMIT_MEMLOCK: a privileged one has the
      # capability, and the kernel lets it pin memory past the limit
      ulimit -l "$memlock"
      exec setpriv --inh-caps=-ipc_lock --bounding-set=-ipc_lock chroot "$pod" "$@"
    fi
    exec chroot "$pod" "$@"
  ' probe "$POD" "$no_host_sys" "$memlock" "$spec" "$termination_log" "$writable" "${entrypoint[@]}" "$@" \
      --host-root /host --exec-mode chroot "${node[@]}" --spec /tmp/spec.json
}

cmd=$1; shift
"$cmd" "$@"
