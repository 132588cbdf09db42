package io.rdmastorage.probe.check;

import static org.assertj.core.api.Assertions.assertThat;

import io.rdmastorage.contract.Status;
import io.rdmastorage.contract.spec.SpecReader;
import io.rdmastorage.probe.host.ExecMode;
import io.rdmastorage.probe.host.HostRoot;
import io.rdmastorage.probe.host.ToolLocator;
import io.rdmastorage.probe.host.ToolRunner;
import io.rdmastorage.probe.testing.CounterSamples;
import io.rdmastorage.probe.testing.FixtureHost;
import io.rdmastorage.probe.testing.LustreFixtures;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * RdmaTraffic's rails on fixture hosts with two soft-RoCE ports (rxe0 on veth0 192.0.2.2, rxe1 on
 * veth1 198.51.100.2): a rail moves the real rxe0 hw_counters recorded around a 64 MiB NVMe/RDMA read
 * while the probe waits, or keeps its counters. The rails come from each client's own configuration:
 * an NVMe-oF subsystem's two rdma paths in sysfs (the kernel's address layout, {@code host_traddr}
 * as {@code nvme connect -w} sets it), LNet's NIs in the recorded {@code lnetctl net show} (its ib0
 * and ib1 placed over rxe0 and rxe1 through their PCI function, as IPoIB netdevs are).
 */
class RdmaTrafficRailsTest {

    static final String NQN = "nqn.2014-08.org.example:vm-target";
    static final String NVMEOF_SPEC = "{\"traffic\":{\"window\":\"1s\"},\"nvmeof\":{\"targets\":[]}}";

    @TempDir
    Path dir;

    private FixtureHost host() {
        FixtureHost host = FixtureHost.at(dir.resolve("root")).file("/proc/1/status", "Name:\tinit\n")
                .file("/fixture/ss-tin.txt", CounterSamples.ssRead(false));
        port(host, "rxe0", "veth0", "c000:0202");
        port(host, "rxe1", "veth1", "c633:6402");
        counters(host, "rxe0", false);
        counters(host, "rxe1", false);
        return host.script("/usr/bin/nsenter", "#!/bin/sh\ncat " + FixtureHost.shQuote(host.path("/fixture/ss-tin.txt").toString())
                + "\n");
    }

    /** A RoCE port on {@code netdev} whose GID 1 is the IPv4-mapped address {@code mappedTail}. */
    private static void port(FixtureHost host, String device, String netdev, String mappedTail) {
        String p = "/sys/class/infiniband/" + device + "/ports/1/";
        host.file("/sys/class/net/" + netdev + "/mtu", "1500\n").file(p + "state", "4: ACTIVE\n").file(p + "phys_state", "5: LinkUp\n")
                .file(p + "link_layer", "Ethernet\n")
                .file(p + "gids/0", "fe80:0000:0000:0000:0000:00ff:fe00:0001\n").file(p + "gid_attrs/ndevs/0", netdev + "\n")
                .file(p + "gid_attrs/types/0", "RoCE v2\n")
                .file(p + "gids/1", "0000:0000:0000:0000:0000:ffff:" + mappedTail + "\n").file(p + "gid_attrs/ndevs/1", netdev + "\n")
                .file(p + "gid_attrs/types/1", "RoCE v2\n");
    }

    private static void counters(FixtureHost host, String device, boolean after) {
        CounterSamples.rxe0(after).forEach((name, value) -> host.file("/sys/class/infiniband/" + device + "/ports/1/hw_counters/"
                + name, value + "\n"));
    }

    /** Two live rdma paths of one subsystem, one per rail; its native multipath policy {@code policy}. */
    private static void nvmeofPaths(FixtureHost host, String policy) {
        path(host, "nvme1", "traddr=192.0.2.1,trsvcid=4420,host_traddr=192.0.2.2");
        path(host, "nvme2", "traddr=198.51.100.1,trsvcid=4420,host_traddr=198.51.100.2");
        host.file("/sys/class/nvme-subsystem/nvme-subsys1/subsysnqn", NQN + "\n")
                .file("/sys/class/nvme-subsystem/nvme-subsys1/iopolicy", policy + "\n");
    }

    private static void path(FixtureHost host, String name, String address) {
        host.file("/sys/class/nvme/" + name + "/transport", "rdma\n").file("/sys/class/nvme/" + name + "/address", address + "\n")
                .file("/sys/class/nvme/" + name + "/subsysnqn", NQN + "\n").file("/sys/class/nvme/" + name + "/state", "live\n");
    }

    private static CheckResult run(FixtureHost fixture, String spec, String... moving) throws Exception {
        HostRoot host = new HostRoot(fixture.root());
        ToolRunner tools = new ToolRunner(host, new ToolLocator(host, Map.of()), ExecMode.DIRECT, Duration.ofSeconds(5));
        RdmaTrafficCheck check = new RdmaTrafficCheck(window -> {
            for (String device : moving) {
                counters(fixture, device, true);   // the read runs over this rail while the probe waits
            }
        });
        return check.run(new ProbeContext(host, tools, SpecReader.read(spec), false, "node", Instant.now()));
    }

    @Test
    void anNvmeofPathWhoseRailMovedNothingWhileItsSiblingCarriedTheReadIsRailIdle() throws Exception {
        FixtureHost host = host();
        nvmeofPaths(host, "numa");

        CheckResult result = run(host, NVMEOF_SPEC, "rxe0");

        assertThat(result.status()).as(result.toString()).isEqualTo(Status.FALSE);
        assertThat(result.reason()).isEqualTo("RailIdle");
        assertThat(result.message()).startsWith("NVMe-oF " + NQN + " (iopolicy numa): the rail rxe1/1 (nvme2 to 198.51.100.1:4420 "
                + "from 198.51.100.2) moved 0 packets/s").contains("while rxe0/1 ", "(100%) carried the client's traffic",
                "round-robin");
        assertThat(result.details().get("rails").toString()).contains("sharePercent=100", "sharePercent=0");
    }

    @Test
    void bothPathsCarryingTheirShareIsDataOverRdma() throws Exception {
        FixtureHost host = host();
        nvmeofPaths(host, "round-robin");

        CheckResult result = run(host, NVMEOF_SPEC, "rxe0", "rxe1");

        assertThat(result.status()).as(result.toString()).isEqualTo(Status.TRUE);
        assertThat(result.details().get("rails").toString()).contains("sharePercent=50");
    }

    @Test
    void aShareBelowTheProfilesMinimumIsRailIdleAndAnIdleClientProvesNothing() throws Exception {
        FixtureHost host = host();
        nvmeofPaths(host, "round-robin");
        // rxe1 moves a tenth of rxe0's packets: above minRdmaPacketsPerSecond, below a 30 % share
        Map<String, Long> before = CounterSamples.rxe0(false);
        Map<String, Long> tenth = new java.util.LinkedHashMap<>();
        CounterSamples.rxe0(true).forEach((name, after) -> tenth.put(name, before.get(name) + (after - before.get(name)) / 10));
        HostRoot root = new HostRoot(host.root());
        ToolRunner tools = new ToolRunner(root, new ToolLocator(root, Map.of()), ExecMode.DIRECT, Duration.ofSeconds(5));
        CheckResult result = new RdmaTrafficCheck(window -> {
            counters(host, "rxe0", true);
            tenth.forEach((name, value) -> host.file("/sys/class/infiniband/rxe1/ports/1/hw_counters/" + name, value + "\n"));
        }).run(new ProbeContext(root, tools, SpecReader.read("{\"traffic\":{\"window\":\"1s\",\"minRailSharePercent\":30},"
                + "\"nvmeof\":{\"targets\":[]}}"), false, "node", Instant.now()));

        assertThat(result.reason()).as(result.toString()).isEqualTo("RailIdle");
        assertThat(result.message()).contains("the rail rxe1/1", "carried 9% of its packets (below traffic.minRailSharePercent 30%)");

        CheckResult idle = run(host(), NVMEOF_SPEC);
        assertThat(idle.reason()).isEqualTo("NoStorageTraffic");
    }

    @Test
    void anLnetNiThatCarriedNothingBesideItsSiblingIsRailIdleNamingTheNi() throws Exception {
        FixtureHost host = host();
        // the recorded net show's NIs run on ib0 and ib1: IPoIB netdevs of rxe0's and rxe1's functions, port 1 each
        host.mkdir("/sys/class/net/ib0/device/infiniband/rxe0").file("/sys/class/net/ib0/dev_port", "0\n");
        host.mkdir("/sys/class/net/ib1/device/infiniband/rxe1").file("/sys/class/net/ib1/dev_port", "0\n");
        host.tool(LustreFixtures.LNETCTL).on("net", "show").printsSample(LustreFixtures.HEALTHY_NET);

        CheckResult result = run(host, "{\"traffic\":{\"window\":\"1s\"},\"lustre\":{}}", "rxe1");

        assertThat(result.reason()).as(result.toString()).isEqualTo("RailIdle");
        assertThat(result.message()).startsWith("LNet o2ib: the rail rxe0/1 (NI 172.16.0.24@o2ib on ib0) moved 0 packets/s")
                .contains("lnetctl net show -v 3");
    }

    @Test
    void gpfsVerbsPortsOneOfWhichCarriedNothingIsRailIdleNamingTheVerbsPort() throws Exception {
        FixtureHost host = host();
        host.tool(io.rdmastorage.probe.testing.GpfsFixtures.BIN + "/mmdiag").on("--config", "-Y")
                .prints(io.rdmastorage.probe.testing.GpfsFixtures.mmdiagConfigY("enable", "rxe0/1 rxe1/1", 32L << 30));

        CheckResult result = run(host, "{\"traffic\":{\"window\":\"1s\"},\"gpfs\":{}}", "rxe0");

        assertThat(result.reason()).as(result.toString()).isEqualTo("RailIdle");
        assertThat(result.message()).startsWith("GPFS: the rail rxe1/1 (verbsPorts rxe1/1) moved 0 packets/s")
                .contains("mmfsadm test verbs conn");
    }

    @Test
    void nfsOverRdmaMountedFromEachRailsAddressIsJudgedPerServer() throws Exception {
        FixtureHost host = host();
        // the recorded proto=rdma options of an NFSv3 mount, with a v4 client's clientaddr: one mount from each rail
        String options = "rw,relatime,vers=4.2,rsize=1048576,wsize=1048576,namlen=255,hard,proto=rdma,port=20049,timeo=600,"
                + "retrans=2,sec=sys,clientaddr=%s,local_lock=none,addr=172.16.40.20";
        host.file("/proc/1/mounts", "/dev/sda2 / ext4 rw,relatime 0 0\n"
                + "172.16.40.20:/export /data nfs4 " + options.formatted("192.0.2.2") + " 0 0\n"
                + "172.16.40.20:/export /data2 nfs4 " + options.formatted("198.51.100.2") + " 0 0\n");

        CheckResult result = run(host, "{\"traffic\":{\"window\":\"1s\"},\"nfs\":{}}", "rxe1");

        assertThat(result.reason()).as(result.toString()).isEqualTo("RailIdle");
        assertThat(result.message()).startsWith("NFS 172.16.40.20: the rail rxe0/1 (/data from 192.0.2.2) moved 0 packets/s");
    }

    @Test
    void aBeegfsClientsRdmaInterfacesAreItsRails() throws Exception {
        FixtureHost host = host();
        String config = io.rdmastorage.probe.testing.LustreFixtures.part(
                "beegfs/proc-fs-beegfs-config_connUseRDMA-1-and-0_constructed.txt", "rdma on");
        host.file("/proc/fs/beegfs/5F6A1B2C-3D4E5F60-node1/config", config)
                .file("/etc/beegfs/rdma-interfaces.conf", "veth0\nveth1\n");

        CheckResult result = run(host, "{\"traffic\":{\"window\":\"1s\"},\"beegfs\":{}}", "rxe0", "rxe1");

        assertThat(result.status()).as(result.toString()).isEqualTo(Status.TRUE);
        assertThat(result.details().get("rails").toString()).contains("client=BeeGFS 5F6A1B2C-3D4E5F60-node1",
                "rail=connRDMAInterfacesFile veth0", "port=rxe0/1", "port=rxe1/1", "sharePercent=50");
    }

    @Test
    void aRailWhosePortIsDownIsRdmaDevicesFindingNotRailIdle() throws Exception {
        FixtureHost host = host();
        nvmeofPaths(host, "numa");
        host.file("/sys/class/infiniband/rxe1/ports/1/state", "1: DOWN\n");

        CheckResult result = run(host, NVMEOF_SPEC, "rxe0");

        assertThat(result.status()).as(result.toString()).isEqualTo(Status.TRUE);
        assertThat(result.details().get("railsNotActive").toString()).contains("rxe1/1");
    }
}
