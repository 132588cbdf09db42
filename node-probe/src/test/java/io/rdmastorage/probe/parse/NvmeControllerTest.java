package io.rdmastorage.probe.parse;

import static org.assertj.core.api.Assertions.assertThat;

import io.rdmastorage.probe.testing.Samples;
import java.util.Map;
import org.junit.jupiter.api.Test;

class NvmeControllerTest {

    private static NvmeController rdma(String address, String state) {
        return NvmeController.fromSysfs("nvme1", Map.of("transport", "rdma\n", "address", address,
                "subsysnqn", "nqn.2024-01.dev.wutz:target1\n", "state", state));
    }

    @Test
    void liveRdmaControllerReachesItsTarget() {
        NvmeController c = rdma("traddr=10.68.20.10,trsvcid=4420\n", "live\n");

        assertThat(c.isComplete()).isTrue();
        assertThat(c.isRdma()).isTrue();
        assertThat(c.isLive()).isTrue();
        assertThat(c.subsysnqn()).isEqualTo("nqn.2024-01.dev.wutz:target1");
        assertThat(c.reaches("10.68.20.10", 4420)).isTrue();
        assertThat(c.reaches("10.68.20.10", 4421)).isFalse();
        assertThat(c.reaches("10.68.20.11", 4420)).isFalse();
        assertThat(c.path()).isEqualTo("nvme1 rdma 10.68.20.10:4420 live");
    }

    @Test
    void statesFromTheSamplesAreNotLive() {
        String connecting = Samples.body("nvme/sysfs_nvme-ctrl_state-connecting_mayastor-design.txt").lines()
                .reduce((a, b) -> b).orElseThrow();
        String dead = Samples.body("nvme/sysfs_nvme-ctrl_state-dead_pcie.txt").lines().reduce((a, b) -> b).orElseThrow();

        assertThat(rdma("traddr=10.68.20.10", connecting + "\n").isLive()).isFalse();
        assertThat(rdma("traddr=10.68.20.10", connecting + "\n").isReconnecting()).isTrue();
        assertThat(rdma("traddr=10.68.20.10", "resetting").isReconnecting()).isTrue();
        assertThat(rdma("traddr=10.68.20.10", dead).isReconnecting()).isFalse();
        NvmeController deleting = rdma("traddr=10.68.20.10", "deleting (no IO)\n");
        assertThat(deleting.isLive()).isFalse();
        assertThat(deleting.state()).isEqualTo("deleting (no IO)");
    }

    @Test
    void ipv6TargetsCompareAsAddresses() {
        // constructed: no public sysfs sample of an IPv6 NVMe-oF controller was found
        NvmeController c = rdma("traddr=fe80::1%ib0,trsvcid=4420\n", "live");

        assertThat(c.reaches("fe80:0:0:0:0:0:0:1", 4420)).isTrue();
        assertThat(c.path()).isEqualTo("nvme1 rdma [fe80::1%ib0]:4420 live");
    }

    @Test
    void unreadableAttributesAreNamed() {
        NvmeController c = NvmeController.fromSysfs("nvme3", Map.of("transport", "tcp\n", "state", "\n"));

        assertThat(c.isComplete()).isFalse();
        assertThat(c.unreadable()).containsExactly("address", "subsysnqn", "state");
        assertThat(c.path()).isEqualTo("nvme3 tcp ? ?");
    }

    @Test
    void anIpFabricAddressWithoutTraddrCannotBeMatched() {
        NvmeController c = rdma("garbage\n", "live");

        assertThat(c.unreadable()).containsExactly("traddr");
        assertThat(c.reaches("10.68.20.10", 4420)).isFalse();
        assertThat(c.path()).isEqualTo("nvme1 rdma garbage live");
    }

    @Test
    void localPcieDriveIsCompleteWithABareAddress() {
        NvmeController c = NvmeController.fromSysfs("nvme0", Map.of("transport", "pcie\n", "address", "0000:e1:00.0\n",
                "subsysnqn", "nqn.2014.08.org.nvmexpress:144d144dS4EWNF0M812345      Samsung SSD 970 PRO 512GB\n",
                "state", "live\n"));

        assertThat(c.isComplete()).isTrue();
        assertThat(c.isIpFabric()).isFalse();
        assertThat(c.endpoint()).isEqualTo("0000:e1:00.0");
    }

    @Test
    void transportIsCaseInsensitiveAndPersistentDiscoveryControllersAreKnown() {
        NvmeController c = NvmeController.fromSysfs("nvme4", Map.of("transport", "TCP\r\n",
                "address", "traddr=192.168.1.110,trsvcid=8009\n", "subsysnqn", "nqn.2014-08.org.nvmexpress.discovery\n",
                "state", "live\n"));

        assertThat(c.isTcp()).isTrue();
        assertThat(c.isDiscovery()).isTrue();
    }
}
