package io.rdmastorage.probe.vm;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.rdmastorage.probe.testing.ProbeRun;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;

/**
 * node-probe on a real Linux kernel's RDMA stack: a VM (see {@link VmNode}) with two soft-RoCE
 * devices (rxe0 on veth0, rxe1 on veth1) and an nvmet target exporting a null_blk namespace on an
 * rdma and a tcp port. node-probe runs as its pod does: in the probe image's root file system with
 * the VM's root at {@code /host}, {@code --exec-mode chroot}. The JVM's shared boot (see {@link
 * VmNodeTest}); every test starts from {@code scenario.sh reset} (both ports ACTIVE, nothing connected).
 * A healthy storage node (RdmaDevices with real libibverbs, NvmeofRdma, NfsRdma and RdmaTraffic
 * over rdma) is judged in probe pods that real kubelets run, in the operator's {@code
 * RealKubeletVmIT}; the node fallen back to tcp here, in one run.
 */
@Order(3)
class RealKernelNodeVmIT extends VmNodeTest {

    static final String NQN = "nqn.2014-08.org.example:vm-target";
    static final String TARGET_SPEC = "{\"nvmeof\":{\"targets\":[{\"nqn\":\"" + NQN + "\",\"address\":\"192.0.2.1\",\"port\":4420}]}}";
    static final String PORT_ERRORS_SPEC = "{\"portErrors\":{\"devices\":[\"rxe0/1\"]}}";
    static final String RDMA_SPEC = "{\"rdma\":{\"devices\":[\"rxe0/1\",\"rxe1/1\"],\"userspaceVerbs\":true}}";
    /** Under TCG a soft-RoCE round trip takes tens to hundreds of µs: the threshold only has to pass. */
    static final String LATENCY_SERVER_SPEC = "{\"latency\":{\"device\":\"rxe0\",\"port\":1,\"iterations\":200,\"maxTypicalMicros\":100000}}";
    static final String LATENCY_CLIENT_SPEC = "{\"latency\":{\"device\":\"rxe1\",\"port\":1,\"iterations\":200,\"maxTypicalMicros\":100000}}";
    static final Duration PROBE_TIMEOUT = Duration.ofSeconds(120);
    /** Counters read 5 s apart while (or while not) a read runs over the connected controller. */
    static final String TRAFFIC_SPEC = "{\"traffic\":{\"window\":\"5s\"}}";
    /** The rails of an NVMe-oF subsystem reached over two paths: counters read 5 s apart while a read runs. */
    static final String RAILS_SPEC = "{\"traffic\":{\"window\":\"5s\"},\"nvmeof\":{\"targets\":[{\"nqn\":\"" + NQN
            + "\",\"address\":\"192.0.2.1\",\"port\":4420},{\"nqn\":\"" + NQN + "\",\"address\":\"198.51.100.1\",\"port\":4420}]}}";

    /** Every storage path of the node and its RoCE class, the counters read 5 s apart. */
    static final String STORAGE_NODE_SPEC = "{\"nvmeof\":{\"targets\":[{\"nqn\":\"" + NQN + "\",\"address\":\"192.0.2.1\",\"port\":4420}]},"
            + "\"nfs\":{\"mounts\":[\"/mnt/nfs\"]},\"traffic\":{\"window\":\"5s\"},"
            + "\"roce\":{\"dscp\":26,\"priority\":3,\"devices\":[\"rxe0/1\"]}}";

    static VmNode.Result sh(String script) {
        return vm.run("set -e\n" + script, vm.guest().allow(Duration.ofSeconds(60))).requireSuccess(script);
    }

    /** node-probe in the pod's view of the node, with the spec and any extra scenario.sh probe options. */
    static ProbeRun probe(String spec, String... options) {
        List<String> command = new ArrayList<>(List.of("bash", "/mnt/share/scenario.sh", "probe",
                Base64.getEncoder().encodeToString(spec.getBytes(StandardCharsets.UTF_8))));
        command.addAll(List.of(options));
        VmNode.Result result = vm.run(String.join(" ", command), vm.guest().allow(PROBE_TIMEOUT));
        return new ProbeRun(result.exitCode(), result.stdout(), result.stderr());
    }

    static void assertCheck(ProbeRun run, String type, String status, String reason) {
        JsonNode check = run.check(type);
        assertThat(check.path("status").asText() + " " + check.path("reason").asText())
                .as("%s in %s\nstderr: %s", type, run.stdout(), run.stderr())
                .isEqualTo(status + " " + reason);
    }

    @Test
    void rdmaAndTcpPathsBothLiveStillFail() {
        // the kernel makes them two paths of one subsystem: multipath sends part of the I/O over tcp
        scenario("connect", "rdma").requireSuccess("nvme connect -t rdma");
        scenario("connect", "tcp").requireSuccess("nvme connect -t tcp");

        ProbeRun run = probe(TARGET_SPEC);

        assertCheck(run, "NvmeofRdma", "False", "TransportTcp");
        assertThat(run.check("NvmeofRdma").path("message").asText()).contains("beside the live rdma path");
    }

    /**
     * A storage node fallen back to tcp while it reads: the NVMe-oF target and the NFS export over
     * tcp, and rdma_cm's default ToS without the storage DSCP. Every False names the kernel's
     * evidence; the NVMe/TCP socket and veth0 are read in the node's network namespace, not the
     * pod's own (a real kubelet's pod reaches it the same way: the operator's ChartOnRealNodeIT).
     */
    @Test
    void aStorageNodeFallenBackToTcpIsFalseOnEveryPathWithTheKernelsEvidence() {
        scenario("connect", "tcp").requireSuccess("nvme connect -t tcp");
        scenario("nfs-mount", "tcp").requireSuccess("mount proto=tcp");
        scenario("roce-tos", "rxe0", "32").requireSuccess("default ToS 32");
        scenario("storage-read").requireSuccess("storage read");

        ProbeRun run = probe(STORAGE_NODE_SPEC);

        assertCheck(run, "NvmeofRdma", "False", "TransportTcp");
        assertCheck(run, "NfsRdma", "False", "MountNotRdma");
        assertCheck(run, "RdmaTraffic", "False", "DataOnTcp");
        assertCheck(run, "RoceLossless", "False", "DefaultTosMismatch");
        assertThat(run.check("NvmeofRdma").path("message").asText()).contains("no live rdma path");
        assertThat(run.check("NfsRdma").path("message").asText())
                .contains("/mnt/nfs (192.0.2.1:/srv/nfs, nfs4 vers=4.2, proto=tcp", "tcp transport in /proc/1/mountstats",
                        "proto=rdma,port=20049");
        assertThat(run.check("RdmaTraffic").path("message").asText())
                .contains("192.0.2.1:4420 (NVMe/TCP) moved ").contains("while the RDMA ports stayed below 100 packets/s");
        assertThat(run.check("RdmaTraffic").path("details").path("tcpBytesPerSecond").asLong()).isGreaterThan(1024 * 1024);
        // the ToS is evidence of the problem: False, and soft-RoCE's unreadable PFC settings are still named
        assertThat(run.check("RoceLossless").path("message").asText())
                .startsWith("rxe0/1 (veth0) gives kernel storage clients (nvme-rdma, GPFS verbsRdmaCm, NFS over RDMA) ToS 32 "
                        + "(DSCP 8, from /sys/kernel/config/rdma_cm/rxe0/ports/1/default_roce_tos), not the storage DSCP 26")
                .contains("`cma_roce_tos -d rxe0 -t 106`; expected ToS 104 (= DSCP 26 << 2; 106 also marks ECT(0))")
                .doesNotContain("No such device");
        assertThat(run.check("RoceLossless").path("details").path("problems").toString())
                .isEqualTo("[\"DefaultTosMismatch\",\"LosslessConfigUnreadable\"]");
    }

    @Test
    void netdevDownUnderRxeIsPortDisabled() {
        sh("ip link set veth0 down");

        ProbeRun run = probe(RDMA_SPEC);

        // soft-RoCE reads an administratively down netdev as phys_state Disabled: a setting, not a cable
        assertCheck(run, "RdmaDevices", "False", "PortDisabled");
        assertThat(run.check("RdmaDevices").path("message").asText()).startsWith("rxe0/1 is DOWN/Disabled")
                .contains("`ip link set <netdev> up`");
        // a veth pair: veth1 lost its carrier with veth0, so rxe1 is down too, and the fleet sees no active port
        assertThat(run.report().path("inventory").path("rdmaPorts").asText()).isEqualTo("none active");
    }

    /**
     * Errors between rounds on a real kernel: the first round has no baseline and reads one; a real
     * flap of veth0 under rxe0 (soft-RoCE counts it in hw_counters/link_downed, veth0 in
     * carrier_changes); the second round, handed the first's reading as the operator hands it, names it.
     */
    @Test
    void aLinkFlapBetweenTwoRoundsIsLinkErrorsBetweenRounds() {
        ProbeRun first = probe(PORT_ERRORS_SPEC);
        assertCheck(first, "RdmaPortErrors", "Unknown", "NoCounterBaseline");
        JsonNode baseline = first.check("RdmaPortErrors").path("details").path("baseline");
        assertThat(baseline.path("ports").has("rxe0/1")).as(baseline.toString()).isTrue();
        sh("ip link set veth0 down; sleep 1; ip link set veth0 up\n"
                + "for _ in $(seq 100); do grep -q ACTIVE /sys/class/infiniband/rxe0/ports/1/state && break; sleep 0.1; done");

        // one argument, as the operator passes it (JSON has no single quote)
        ProbeRun second = probe(PORT_ERRORS_SPEC, "--", "--counter-baseline", "'" + baseline + "'");

        assertCheck(second, "RdmaPortErrors", "False", "LinkErrorsBetweenRounds");
        assertThat(second.check("RdmaPortErrors").path("message").asText())
                .contains("rxe0/1: link_downed grew by 1 in the ").contains("the link went down between the rounds");
        assertThat(second.check("RdmaPortErrors").path("details").path("grew").toString())
                .contains("\"counter\":\"carrier_changes\"");
    }

    @Test
    void netdevWithoutItsIpv4AddressLeavesRxeWithoutARoceV2StorageGid() {
        // the kernel drops the IPv4-mapped GID with the address; the link-local (fe80::) one stays
        sh("ip addr del 192.0.2.1/24 dev veth0\nfor _ in $(seq 50); do grep -qs ':ffff:c000:0201$' "
                + "/sys/class/infiniband/rxe0/ports/1/gids/* || break; sleep 0.1; done");

        ProbeRun run = probe("{\"rdma\":{\"devices\":[\"rxe0/1\"]}}");

        assertCheck(run, "RdmaDevices", "False", "NoRoceV2Gid");
        assertThat(run.check("RdmaDevices").path("message").asText())
                .startsWith("rxe0/1 (RoCE) has no RoCE v2 GID for its netdev veth0 or a VLAN, macvlan or bond over it, "
                        + "carrying an IP address (its RoCE v2 GIDs are link-local only (fe80::) on veth0, no storage address)");
    }

    @Test
    void rxeOnA1500ByteNetdevRunsAtActiveMtu1024BelowMinMtu4096() {
        ProbeRun run = probe("{\"rdma\":{\"devices\":[\"rxe0/1\"],\"userspaceVerbs\":true,\"minMtu\":4096}}");

        assertCheck(run, "RdmaDevices", "False", "MtuTooSmall");
        assertThat(run.check("RdmaDevices").path("message").asText())
                .startsWith("rxe0/1 runs at active MTU 1024, below rdma.minMtu 4096").contains("`ip link set veth0 mtu 4200`");
    }

    @Test
    void jumboNetdevsCarryMtu4096AndTheFleetFactsAreReported() {
        sh("ip link set veth0 mtu 4200\nip link set veth1 mtu 4200");

        ProbeRun run = probe("{\"rdma\":{\"devices\":[\"rxe0/1\",\"rxe1/1\"],\"userspaceVerbs\":true,\"minMtu\":4096}}");

        assertCheck(run, "RdmaDevices", "True", "PortsActive");
        JsonNode details = run.check("RdmaDevices").path("details");
        assertThat(details.path("netdevs").toString()).contains("rxe0/1: veth0 mtu 4200").contains("rxe1/1: veth1 mtu 4200");
        assertThat(run.report().path("inventory").path("kernel").asText()).startsWith("6.1.");
        assertThat(run.report().path("inventory").path("rdmaMtu").asText()).isEqualTo("4200");
        // both soft-RoCE ports at their veth's speed, as the kernel reports it
        assertThat(run.report().path("inventory").path("rdmaPorts").asText()).matches("2 × \\d+ Gb/sec \\(.+\\)");
    }

    @Test
    void removedRxeDeviceIsDeviceMissing() {
        sh("rdma link delete rxe0");

        ProbeRun run = probe(RDMA_SPEC);

        assertCheck(run, "RdmaDevices", "False", "DeviceMissing");
        assertThat(run.check("RdmaDevices").path("message").asText()).contains("has no rxe0 (found rxe1)");
    }

    @Test
    void smallMemlockLimitWithoutIpcLockIsMemlockTooLow() {
        ProbeRun run = probe(RDMA_SPEC, "--memlock", "64");

        assertCheck(run, "RdmaDevices", "False", "MemlockTooLow");
        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.check("RdmaDevices").path("details").path("memlock").asText()).isEqualTo("64Ki");
    }

    @Test
    void targetPortRemovedWhileConnectedLeavesTheControllerNotLive() {
        scenario("connect", "rdma").requireSuccess("nvme connect -t rdma");
        // the target drops its rdma port's export: the host's controller loses its queues and reconnects
        String state = sh("rm /sys/kernel/config/nvmet/ports/1/subsystems/" + NQN + "\n"
                + "for i in $(seq 100); do s=$(cat /sys/class/nvme/nvme*/state); [ \"$s\" != live ] && break; sleep 0.2; done\n"
                + "cat /sys/class/nvme/nvme*/state").stdout().strip();
        assertThat(state).isIn("connecting", "resetting");

        ProbeRun run = probe(TARGET_SPEC);

        assertCheck(run, "NvmeofRdma", "False", "ControllerNotLive");
        assertThat(run.check("NvmeofRdma").path("message").asText()).contains("may still be reconnecting");
    }

    @Test
    void anNvmeofPathTheMultipathPolicyLeavesIdleIsRailIdleAndRoundRobinLoadsBothRails() {
        // one subsystem over two rails, each path from its own address: rxe1 (192.0.2.2) and rxe3 (198.51.100.2)
        scenario("multipath").requireSuccess("two rdma paths");
        scenario("iopolicy", "numa").requireSuccess("iopolicy numa");
        scenario("storage-read").requireSuccess("storage read");

        ProbeRun numa = probe(RAILS_SPEC);

        assertCheck(numa, "RdmaTraffic", "False", "RailIdle");
        assertThat(numa.check("RdmaTraffic").path("message").asText()).startsWith("NVMe-oF " + NQN + " (iopolicy numa): the rail ")
                .containsAnyOf("the rail rxe1/1 (nvme", "the rail rxe3/1 (nvme").contains("round-robin");

        scenario("iopolicy", "round-robin").requireSuccess("iopolicy round-robin");
        ProbeRun roundRobin = probe(RAILS_SPEC);

        assertCheck(roundRobin, "RdmaTraffic", "True", "DataOverRdma");
        assertThat(roundRobin.check("RdmaTraffic").path("details").path("rails").toString())
                .contains("\"port\":\"rxe1/1\"", "\"port\":\"rxe3/1\"").doesNotContain("\"sharePercent\":0");
    }

    /**
     * Storage NICs apart from compute NICs on a real kernel: rxe0/rxe1 (veth0/veth1) are named the
     * storage NICs, the second rail's rxe2/rxe3 are left out as compute NICs, and their link goes down.
     */
    @Test
    void aDownComputeNicLeavesStorageTrueWhileTheSameNicNamedStorageFails() {
        // nothing connected over the rail: an NVMe path over a downed link would hold reset's disconnect
        scenario("rail").requireSuccess("second rail");
        sh("ip link set veth2 down");

        ProbeRun storage = probe("{\"rdma\":{\"storageNics\":{\"netdevs\":[\"veth[01]\"]}}}");

        assertCheck(storage, "RdmaDevices", "True", "PortsActive");
        assertThat(storage.check("RdmaDevices").path("details").path("computeNics").toString()).isEqualTo("[\"rxe2\",\"rxe3\"]");

        ProbeRun named = probe("{\"rdma\":{\"storageNics\":{\"devices\":[\"rxe[23]\"]}}}");

        assertCheck(named, "RdmaDevices", "False", "PortDisabled");
        assertThat(named.check("RdmaDevices").path("message").asText()).startsWith("rxe2/1 is DOWN/Disabled");
    }

    @Test
    void anIdleConnectedNodeIsNoStorageTraffic() {
        // connected over rdma, keep-alives only: an idle node proves nothing
        scenario("connect", "rdma").requireSuccess("nvme connect -t rdma");

        ProbeRun run = probe(TRAFFIC_SPEC);

        assertCheck(run, "RdmaTraffic", "Unknown", "NoStorageTraffic");
        assertThat(run.check("RdmaTraffic").path("message").asText()).contains("an idle node proves nothing");
    }

    @Test
    void verbsLatencyBetweenTwoRxeDevicesFromRealPerftest() {
        // perftest times with the CPU's cycle counter; when its frequency sample is too noisy (a
        // loaded TCG host: "Correlation coefficient r^2 < 0.9") it prints inf for every statistic,
        // which must be Unknown OutputUnparseable. A measurement is tried up to three times.
        ProbeRun client = null;
        for (int attempt = 1; attempt <= 3; attempt++) {
            ProbeRun[] pair = latencyPair();
            client = pair[0];
            JsonNode check = client.check("VerbsLatency");
            if (check.path("status").asText().equals("Unknown")) {
                assertCheck(client, "VerbsLatency", "Unknown", "OutputUnparseable");
                System.err.println("vm-node: perftest could not time attempt " + attempt + ": " + check.path("message").asText());
                continue;
            }
            // each side times itself: the server's sample can be the noisy one
            JsonNode server = pair[1].check("VerbsLatency");
            assertThat(server.path("status").asText() + " " + server.path("reason").asText())
                    .as(pair[1].stdout()).isIn("True WithinThreshold", "Unknown OutputUnparseable");
            break;
        }
        assertCheck(client, "VerbsLatency", "True", "WithinThreshold");
        assertThat(client.check("VerbsLatency").path("message").asText())
                .contains(" µs (2-byte messages, 200 iterations, rxe1 port 1");
        JsonNode details = client.check("VerbsLatency").path("details");
        double typical = details.path("tTypicalMicros").asDouble();
        assertThat(typical).isGreaterThan(0.5).isLessThan(100000);
        assertThat(details.path("p99Micros").asDouble()).isGreaterThanOrEqualTo(typical);
        // RoCE really crossed the veth pair (the routes of scenario.sh wire), not the loopback
        assertThat(details.path("linkType").asText()).isEqualTo("Ethernet");
    }

    /** latency-server on rxe0 (192.0.2.1), then latency-client on rxe1 against it: {client, server}. */
    static ProbeRun[] latencyPair() {
        String serverSpec = Base64.getEncoder().encodeToString(LATENCY_SERVER_SPEC.getBytes(StandardCharsets.UTF_8));
        sh("rm -f /tmp/latency-server.json; setsid bash /mnt/share/scenario.sh probe " + serverSpec
                + " --host-network -- latency-server --tcp-port 18515 --bind 192.0.2.1 --tool-timeout 100s"
                + " > /tmp/latency-server.json 2>/tmp/latency-server.err < /dev/null &");
        ProbeRun client = probe(LATENCY_CLIENT_SPEC, "--host-network", "--", "latency-client", "--peer", "192.0.2.1",
                "--tcp-port", "18515", "--connect-timeout", "60s", "--tool-timeout", "100s");
        String server = sh("for i in $(seq 150); do [ -s /tmp/latency-server.json ] && break; sleep 0.2; done;"
                + " cat /tmp/latency-server.json").stdout();
        return new ProbeRun[] {client, new ProbeRun(0, server, "")};
    }

    @Test
    void latencyClientWithoutServerIsPeerUnreachable() {
        ProbeRun client = probe(LATENCY_CLIENT_SPEC, "--host-network", "--", "latency-client", "--peer", "192.0.2.1",
                "--tcp-port", "18515", "--connect-timeout", "3s");

        assertCheck(client, "VerbsLatency", "False", "PeerUnreachable");
    }

    @Test
    void withoutTheHostsSysNvmeofIsUnknown() {
        scenario("connect", "rdma").requireSuccess("nvme connect -t rdma");

        ProbeRun run = probe(TARGET_SPEC, "--no-host-sys");

        assertCheck(run, "NvmeofRdma", "Unknown", "HostViewMissing");
    }

    @Test
    void withoutTheHostsSysRdmaDevicesIsUnknown() {
        // /host/sys unmounted leaves its empty mount point: the probe cannot see the host, which is
        // no evidence of missing devices (issue 13)
        ProbeRun run = probe(RDMA_SPEC, "--no-host-sys");

        assertCheck(run, "RdmaDevices", "Unknown", "HostViewMissing");
        assertThat(run.check("RdmaDevices").path("message").asText()).contains("the host's /sys is not visible");
    }
}
