#!/bin/bash
# Runs in the VM node (after scenario.sh reset): prints, as a base64 tar on stdout, what the real
# kernel and tools show for soft-RoCE, NVMe-oF and NFS over RDMA, for node-probe's test samples. Used once by hand
# to record node-probe/src/test/resources/samples/vm/ (see SOURCES.md there).
set -euo pipefail
S=/mnt/share/scenario.sh
NQN=nqn.2014-08.org.example:vm-target
out=$(mktemp -d)
sysfs_port() {   # every readable attribute of an rxe port, "path: value"
  for f in state phys_state rate link_layer lid sm_lid sm_sl lid_mask_count cap_mask gids/0 gids/1 \
           gid_attrs/types/0 gid_attrs/types/1 gid_attrs/ndevs/0 gid_attrs/ndevs/1; do
    echo "$1/$f: $(cat "$1/$f" 2>&1)"
  done
}
ctrls() {
  ls -l /sys/class/nvme/
  for c in /sys/class/nvme/nvme*; do
    for f in transport address subsysnqn state; do echo "$c/$f: $(cat "$c/$f")"; done
  done
}
{ uname -r; ls /sys/class/infiniband/rxe0 /sys/class/infiniband/rxe0/ports/1; sysfs_port /sys/class/infiniband/rxe0/ports/1; } > "$out/sysfs_infiniband_rxe0_active.txt"
rdma link > "$out/rdma-link_rxe0-rxe1_active.txt"
ibv_devinfo > "$out/ibv_devinfo_rxe0-rxe1_active.txt"
ip link set veth0 down; sleep 1
{ sysfs_port /sys/class/infiniband/rxe0/ports/1; sysfs_port /sys/class/infiniband/rxe1/ports/1; rdma link; } > "$out/sysfs_infiniband_rxe-netdev-down.txt"
ip link set veth0 up; bash $S reset >/dev/null
bash $S connect rdma 2>/dev/null; bash $S connect tcp 2>/dev/null
{ ctrls; ls -l /sys/class/nvme-subsystem/; } > "$out/sysfs_nvme_rdma+tcp_live.txt"
nvme list-subsys > "$out/list-subsys_text_rdma+tcp_live.txt"
nvme list-subsys -o json > "$out/list-subsys_json_rdma+tcp_live.txt"
nvme disconnect -d nvme1 >/dev/null
rm "/sys/kernel/config/nvmet/ports/1/subsystems/$NQN"
for _ in $(seq 50); do [ "$(cat /sys/class/nvme/nvme0/state)" != live ] && break; sleep 0.2; done
{ ctrls; nvme list-subsys; } > "$out/sysfs_nvme_rdma_connecting_target-port-removed.txt"
bash $S reset >/dev/null
(ib_write_lat -d rxe0 -i 1 -s 2 -n 1000 -F -p 18600 > "$out/ib_write_lat_server_rxe0_veth.txt" 2>&1 &)
sleep 1
ib_write_lat -d rxe1 -i 1 -s 2 -n 1000 -F -p 18600 192.0.2.1 > "$out/ib_write_lat_client_rxe1_veth.txt" 2>&1
sleep 2
bash $S reset >/dev/null
bash $S nfs-mount rdma
{ grep ' nfs' /proc/1/mounts; awk '/^device /{p = / fstype nfs/} p' /proc/1/mountstats; } > "$out/proc-1-mounts+mountstats_nfs4.2-over-rdma.txt"
bash $S reset >/dev/null
bash $S nfs-mount tcp
{ grep ' nfs' /proc/1/mounts; awk '/^device /{p = / fstype nfs/} p' /proc/1/mountstats; } > "$out/proc-1-mounts+mountstats_nfs4.2-over-tcp.txt"
bash $S reset >/dev/null
# rdma_cm's configfs read back (DEV's directory made, 106 written, an out-of-range write refused, undone),
# and iproute2's dcb on a netdev without DCB operations, in the host's network namespace
{ before=$(bash $S roce-tos rxe0 0); d=/sys/kernel/config/rdma_cm/rxe0/ports/1
  echo "ls $d: $(ls $d | paste -sd' ' -)"
  for f in default_roce_mode default_roce_tos; do echo "$f: $(cat $d/$f)"; done
  echo 106 > $d/default_roce_tos; echo "after 'echo 106 > default_roce_tos': $(cat $d/default_roce_tos)"
  echo "'echo 256 > default_roce_tos': $( (echo 256 > $d/default_roce_tos) 2>&1 | sed 's/^.*: echo: //')"
  bash $S roce-tos-undo rxe0 "$before"; } > "$out/configfs_rdma_cm_rxe0_default_roce_mode-tos_vm-6.1.txt"
# stderr only: both exit 1 with nothing on stdout
dcb pfc show dev veth0 2> "$out/dcb_veth_operation-not-supported_vm-6.1.txt" || true
dcb apptrust show dev veth0 2> "$out/dcb-apptrust_iproute2-6.1_object-unknown_vm-6.1.txt" || true
tar -C "$out" -czf - . | base64 -w0
rm -rf "$out"
