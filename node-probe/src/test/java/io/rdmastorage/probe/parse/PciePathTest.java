package io.rdmastorage.probe.parse;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class PciePathTest {

    private static PciePath path(String p) {
        return PciePath.parse(p).orElseThrow();
    }

    private static final String GPU = "/sys/devices/pci0000:00/0000:00:01.0/0000:01:00.0/0000:02:01.0/0000:04:00.0";
    private static final String NIC = "/sys/devices/pci0000:00/0000:00:01.0/0000:01:00.0/0000:02:00.0/0000:03:00.0";

    @Test
    void chainFromRootPortToDevice() {
        PciePath p = path(NIC + "/infiniband/mlx5_0");

        assertThat(p.hostBridge()).isEqualTo("pci0000:00");
        assertThat(p.chain()).containsExactly("0000:00:01.0", "0000:01:00.0", "0000:02:00.0", "0000:03:00.0");
        assertThat(p.function()).isEqualTo("0000:03:00.0");
        assertThat(p).hasToString(NIC);
    }

    @Test
    void sameSwitch() {
        assertThat(path(GPU).sharedSwitch(path(NIC))).contains("0000:01:00.0");
        assertThat(path(NIC).sharedSwitch(path(GPU))).contains("0000:01:00.0");
    }

    @Test
    void nestedSwitchesShareTheDeepestCommonPort() {
        String a = "/sys/devices/pci0000:00/0000:00:01.0/0000:01:00.0/0000:02:00.0/0000:03:00.0/0000:04:00.0/0000:05:00.0";
        String b = "/sys/devices/pci0000:00/0000:00:01.0/0000:01:00.0/0000:02:00.0/0000:03:00.0/0000:04:01.0/0000:06:00.0";

        assertThat(path(a).sharedSwitch(path(b))).contains("0000:03:00.0");
    }

    @Test
    void sameRootComplexOnlyIsNoSwitch() {
        String other = "/sys/devices/pci0000:00/0000:00:03.0/0000:06:00.0/0000:07:00.0/0000:08:00.0";

        assertThat(path(GPU).sharedSwitch(path(other))).isEmpty();
    }

    @Test
    void differentRootComplexes() {
        String other = "/sys/devices/pci0000:80/0000:80:01.0/0000:81:00.0/0000:82:00.0/0000:83:00.0";

        assertThat(path(GPU).sharedSwitch(path(other))).isEmpty();
    }

    @Test
    void devicesOnTheRootBusShareNothing() {
        // virtual machines often put GPU and NIC directly on bus 0
        assertThat(path("/sys/devices/pci0000:00/0000:00:05.0").sharedSwitch(path("/sys/devices/pci0000:00/0000:00:06.0")))
                .isEmpty();
    }

    @Test
    void notAPciDevice() {
        assertThat(PciePath.parse("/sys/devices/virtual/net/lo")).isEmpty();
        assertThat(PciePath.parse("/sys/class/infiniband/rxe0/device")).isEmpty();
        assertThat(PciePath.parse("")).isEmpty();
        assertThat(PciePath.isPciAddress("0000:3b:00.0")).isTrue();
        assertThat(PciePath.isPciAddress("0000:3g:00.0")).isFalse();
    }
}
