package io.rdmastorage.probe.parse;

import static org.assertj.core.api.Assertions.assertThat;

import io.rdmastorage.probe.testing.RdmaFixtures;
import io.rdmastorage.probe.testing.Samples;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class SysfsIbPortTest {

    private static SysfsIbPort fromProcfs(String device, int port) {
        Map<String, String> files = RdmaFixtures.procfsSampleFiles();
        String dir = "/sys/class/infiniband/" + device + "/ports/" + port + "/";
        return SysfsIbPort.of(device, port, files.get(dir + "state"), files.get(dir + "phys_state"), files.get(dir + "rate"),
                files.get(dir + "link_layer"), files.get(dir + "sm_lid"));
    }

    @Test
    void activeLinkUpPortsOfTheProcfsFixture() {
        SysfsIbPort hfi = fromProcfs("hfi1_0", 1);

        assertThat(hfi.healthy()).isTrue();
        assertThat(hfi.summary()).isEqualTo("hfi1_0/1: ACTIVE/LinkUp, 100 Gb/sec (4X EDR), InfiniBand");
        assertThat(hfi.smLid()).isEmpty();
        // mlx4_0 port 2's link_layer file has a trailing blank line ("Lines: 2")
        assertThat(fromProcfs("mlx4_0", 2).linkLayer()).isEqualTo("InfiniBand");
        assertThat(fromProcfs("mlx4_0", 2).infiniband()).isTrue();
    }

    @Test
    void physStateFourActiveQuirkIsNotDown() {
        // the procfs fixture's mlx5_0 has phys_state "4: ACTIVE"; code 4 is not "down"
        SysfsIbPort mlx5 = fromProcfs("mlx5_0", 1);

        assertThat(mlx5.physState()).contains(new SysfsIbPort.Coded(4, "ACTIVE"));
        assertThat(mlx5.linkUp()).isTrue();
        assertThat(mlx5.healthy()).isTrue();
        assertThat(mlx5.rate()).isEqualTo("25 Gb/sec (1X EDR)");
    }

    @Test
    void downAndPolling() {
        // ibstat_port-states_polling-vs-initializing: "State: Down / Physical state: Polling", as sysfs writes it
        SysfsIbPort port = SysfsIbPort.of("mlx5_1", 1, "1: DOWN\n", "2: Polling\n", "10 Gb/sec (4X SDR)\n", "InfiniBand\n", "0x0\n");

        assertThat(port.active()).isFalse();
        assertThat(port.linkUp()).isFalse();
        assertThat(port.states()).isEqualTo("DOWN/Polling");
        assertThat(port.smLid()).hasValue(0);
    }

    @Test
    void initWithLinkUpIsTheNoSubnetManagerCase() {
        // ibstat_cx4_state-initializing_no-sm: "State: Initializing / Physical state: LinkUp / SM lid: 0"
        SysfsIbPort port = SysfsIbPort.of("mlx5_0", 1, "2: INIT", "5: LinkUp", "100 Gb/sec (4X EDR)", "InfiniBand", "0x0");

        assertThat(port.linkUp()).isTrue();
        assertThat(port.active()).isFalse();
        assertThat(port.healthy()).isFalse();
    }

    @Test
    void ibstatusShowsTheLiteralSysfsValues() {
        // ibstatus prints the sysfs files as they are: "state: 4: ACTIVE", "phys state: 5: LinkUp"
        Map<String, String> fields = new LinkedHashMap<>();
        for (String line : Samples.body("rdma/ibstatus_mlx5-cx7_ib-hdr_active.txt").split("\n")) {
            int colon = line.indexOf(':');
            if (colon > 0) {
                fields.put(line.substring(0, colon).strip(), line.substring(colon + 1).strip());
            }
        }
        SysfsIbPort port = SysfsIbPort.of("mlx5_0", 1, fields.get("state"), fields.get("phys state"), fields.get("rate"),
                fields.get("link_layer"), fields.get("sm lid"));

        assertThat(port.summary()).isEqualTo("mlx5_0/1: ACTIVE/LinkUp, 200 Gb/sec (4X HDR), InfiniBand");
        assertThat(port.smLid()).hasValue(0x30);
    }

    @Test
    void activeDeferCountsAsActiveAndIwarpHasNoPhysicalState() {
        // rdma-link_old-iproute2_i40iw-mlx5_mixed: "i40iw1/1: state ACTIVE physical_state NOP" (constructed sysfs values)
        SysfsIbPort iwarp = SysfsIbPort.of("i40iw1", 1, "4: ACTIVE", "0: <unknown>", "10 Gb/sec (1X QDR)", "Ethernet", null);
        SysfsIbPort defer = SysfsIbPort.of("mlx5_0", 1, "5: ACTIVE_DEFER", "5: LinkUp", null, null, null);

        assertThat(iwarp.healthy()).isTrue();
        assertThat(iwarp.infiniband()).isFalse();
        assertThat(defer.healthy()).isTrue();
        assertThat(defer.summary()).isEqualTo("mlx5_0/1: ACTIVE_DEFER/LinkUp");
    }

    @Test
    void toleratesWhiteSpaceAndCrlf() {
        SysfsIbPort port = SysfsIbPort.of("mlx5_0", 1, " 4:ACTIVE \r\n", "\t5: LinkUp\r\n", "400 Gb/sec (4X NDR) \r\n", "InfiniBand\r\n", " 0x1 ");

        assertThat(port.healthy()).isTrue();
        assertThat(port.rate()).isEqualTo("400 Gb/sec (4X NDR)");
        assertThat(port.smLid()).hasValue(1);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "ACTIVE", "four: ACTIVE", ": ACTIVE", "12345: X", "\u0000\u0001garbage"})
    void malformedStatesAreUnreadableNotDown(String garbage) {
        SysfsIbPort port = SysfsIbPort.of("mlx5_0", 1, garbage, "5: LinkUp", null, null, "zz");

        assertThat(port.state()).isEmpty();
        assertThat(port.readable()).isFalse();
        assertThat(port.states()).isEqualTo("?/LinkUp");
        assertThat(port.smLid()).isEmpty();
    }

    @Test
    void absentFilesAreUnreadable() {
        SysfsIbPort port = SysfsIbPort.of("mlx5_0", 1, null, null, null, null, null);

        assertThat(port.readable()).isFalse();
        assertThat(port.healthy()).isFalse();
        assertThat(port.summary()).isEqualTo("mlx5_0/1: ?/?");
    }
}
