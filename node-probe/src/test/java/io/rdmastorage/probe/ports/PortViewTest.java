package io.rdmastorage.probe.ports;

import static org.assertj.core.api.Assertions.assertThat;

import io.rdmastorage.contract.spec.DevicePort;
import io.rdmastorage.probe.host.HostRoot;
import io.rdmastorage.probe.testing.FixtureHost;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The port view keeps absent sources apart from empty ones (constructed sysfs layouts). */
class PortViewTest {

    private static final String IB = "/sys/class/infiniband";

    @TempDir
    Path dir;

    @Test
    void aRocePortOnAVlanShowsItsNetdevStackAndGids() {
        FixtureHost host = FixtureHost.at(dir)
                .file("/sys/class/net/lo/mtu", "65536\n")
                .file(IB + "/mlx5_0/ports/1/state", "4: ACTIVE\n").file(IB + "/mlx5_0/ports/1/phys_state", "5: LinkUp\n")
                .file(IB + "/mlx5_0/ports/1/link_layer", "Ethernet\n")
                .file(IB + "/mlx5_0/ports/1/gid_attrs/ndevs/0", "eth1\n")
                .file(IB + "/mlx5_0/ports/1/gids/0", "fe80:0000:0000:0000:0000:0000:0000:0001\n")
                .file(IB + "/mlx5_0/ports/1/gids/3", "0000:0000:0000:0000:0000:ffff:0a44:140b\n")
                .file(IB + "/mlx5_0/ports/1/gid_attrs/types/3", "RoCE v2\n")
                .file(IB + "/mlx5_0/ports/1/gid_attrs/ndevs/3", "eth1.100\n")
                .file("/sys/class/net/eth1/mtu", "9000\n").file("/sys/class/net/eth1.100/mtu", "1500\n")
                .symlink("/sys/class/net/eth1.100/lower_eth1", "../eth1");
        PortView view = PortView.read(new HostRoot(host.root()));

        RdmaPort port = view.port(new DevicePort("mlx5_0", 1)).orElseThrow();
        assertThat(port.ethernet()).isTrue();
        assertThat(port.netdev()).contains("eth1");
        assertThat(port.ethernetPorts()).containsExactly("eth1");
        assertThat(port.gids()).hasValueSatisfying(g -> assertThat(g).hasSize(2));
        assertThat(view.netdev("eth1.100")).hasValueSatisfying(n -> {
            assertThat(n.mtu()).contains(1500);
            assertThat(n.under()).containsExactly("eth1");
        });
        assertThat(PortView.list(new HostRoot(host.root()))).containsExactly(new DevicePort("mlx5_0", 1));
    }

    @Test
    void anAbsentGidsDirectoryOrLinkLayerIsNotAnEmptyOne() {
        FixtureHost host = FixtureHost.at(dir)
                .file(IB + "/mlx5_0/ports/1/state", "4: ACTIVE\n").file(IB + "/mlx5_0/ports/1/link_layer", "Ethernet\n")
                .mkdir(IB + "/mlx5_1/ports/1/gids").file(IB + "/mlx5_1/ports/1/link_layer", "Ethernet\n")
                .file(IB + "/mlx5_2/ports/1/state", "4: ACTIVE\n")
                .mkdir(IB + "/mlx5_3");
        PortView view = PortView.read(new HostRoot(host.root()));

        assertThat(view.port(new DevicePort("mlx5_0", 1)).orElseThrow().gids()).isEmpty();
        assertThat(view.port(new DevicePort("mlx5_1", 1)).orElseThrow().gids()).hasValueSatisfying(g -> assertThat(g).isEmpty());
        RdmaPort unreadable = view.port(new DevicePort("mlx5_2", 1)).orElseThrow();
        assertThat(unreadable.linkLayer()).isEmpty();
        assertThat(unreadable.ethernet()).isFalse();
        assertThat(unreadable.sysfs().infiniband()).isFalse();
        assertThat(view.device("mlx5_3").orElseThrow().portsDirectory()).isFalse();
        assertThat(view.deviceNames()).containsExactly("mlx5_0", "mlx5_1", "mlx5_2", "mlx5_3");
    }
}
