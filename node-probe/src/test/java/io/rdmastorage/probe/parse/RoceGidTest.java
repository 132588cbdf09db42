package io.rdmastorage.probe.parse;

import static org.assertj.core.api.Assertions.assertThat;

import io.rdmastorage.probe.testing.Samples;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** GID entries as the real kernel's sysfs shows them (the VM node's rxe0) and unused slots. */
class RoceGidTest {

    /** "path: value" lines of the recorded sample, by path. */
    private static Map<String, String> attributes() {
        Map<String, String> values = new LinkedHashMap<>();
        for (String line : Samples.body("rdma/sysfs_infiniband_rxe0_active_vm-6.1.txt").split("\n")) {
            int sep = line.indexOf(": ");
            if (line.startsWith("/sys/") && sep > 0) {
                values.put(line.substring(0, sep), line.substring(sep + 2));
            }
        }
        return values;
    }

    @Test
    void rxeHasALinkLocalAndAnIpv4MappedRoceV2GidOnItsVeth() {
        Map<String, String> sysfs = attributes();
        String p = "/sys/class/infiniband/rxe0/ports/1/";
        RoceGid linkLocal = RoceGid.of(0, sysfs.get(p + "gids/0"), sysfs.get(p + "gid_attrs/types/0"), sysfs.get(p + "gid_attrs/ndevs/0"));
        RoceGid ipv4 = RoceGid.of(1, sysfs.get(p + "gids/1"), sysfs.get(p + "gid_attrs/types/1"), sysfs.get(p + "gid_attrs/ndevs/1"));

        assertThat(linkLocal.zero()).isFalse();
        assertThat(linkLocal.roceV2()).isTrue();
        assertThat(linkLocal.ndev()).isEqualTo("veth0");
        assertThat(ipv4.gid()).isEqualTo("0000:0000:0000:0000:0000:ffff:c000:0201");
        assertThat(ipv4.roceV2()).isTrue();
        assertThat(ipv4.ndev()).isEqualTo("veth0");
    }

    @Test
    void anUnusedSlotIsTheZeroGidAndCountsForNothing() {
        RoceGid unused = RoceGid.of(7, "0000:0000:0000:0000:0000:0000:0000:0000\n", null, null);

        assertThat(unused.zero()).isTrue();
        assertThat(unused.roceV2()).isFalse();
        assertThat(RoceGid.of(2, "fe80::1", "IB/RoCE v1", "bond0").roceV2()).isFalse();
    }
}
