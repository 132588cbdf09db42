package io.rdmastorage.probe.ports;

import static org.assertj.core.api.Assertions.assertThat;

import io.rdmastorage.probe.host.HostRoot;
import io.rdmastorage.probe.testing.FixtureHost;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The netdev stack as /sys/class/net links it (the kernel's layout: a VLAN's {@code lower_<parent>}
 * link, a bond's {@code bonding/slaves} list and {@code lower_<slave>} links; constructed, the
 * attribute names as Documentation/ABI/testing/sysfs-class-net documents them).
 */
class NetdevStackTest {

    private static final String IB = "/sys/class/infiniband";

    @TempDir
    Path dir;

    @Test
    void aVlanOverABondReachesTheBondsSlaves() {
        FixtureHost host = FixtureHost.at(dir)
                .file("/sys/class/net/bond0/bonding/slaves", "ens1f0 ens1f1\n")
                .symlink("/sys/class/net/bond0/lower_ens1f0", "../ens1f0").symlink("/sys/class/net/bond0/lower_ens1f1", "../ens1f1")
                .symlink("/sys/class/net/bond0.100/lower_bond0", "../bond0")
                .file("/sys/class/net/ens1f0/mtu", "9000\n").file("/sys/class/net/ens1f1/mtu", "9000\n");
        HostRoot root = new HostRoot(host.root());

        assertThat(NetdevStack.ports(root, "bond0.100")).containsExactly("ens1f0", "ens1f1");
        assertThat(NetdevStack.ports(root, "bond0")).containsExactly("ens1f0", "ens1f1");
        assertThat(NetdevStack.ports(root, "ens1f0")).containsExactly("ens1f0");
        assertThat(NetdevStack.under(root, "bond0.100")).containsExactly("bond0");
        assertThat(NetdevStack.bond(root, "bond0")).isTrue();
        assertThat(NetdevStack.bond(root, "bond0.100")).isFalse();
        assertThat(NetdevStack.mtu(root, "ens1f0")).contains(9000);
        assertThat(NetdevStack.mtu(root, "bond0")).isEmpty();
    }

    @Test
    void thePortsOwnNetdevIsItsDefaultGidsThenSoftRocesParentThenThePciFunctionsOnlyNetdev() {
        FixtureHost host = FixtureHost.at(dir)
                .file(IB + "/mlx5_0/ports/1/gid_attrs/ndevs/0", "eth4\n")
                .file(IB + "/rxe0/parent", "eth1.100\n")
                .mkdir(IB + "/mlx5_1/device/net/ens2f0")
                .mkdir(IB + "/mlx5_2/device/net/a").mkdir(IB + "/mlx5_2/device/net/b");
        HostRoot root = new HostRoot(host.root());

        assertThat(NetdevStack.ofPort(root, IB, "mlx5_0", 1)).contains("eth4");
        assertThat(NetdevStack.ofPort(root, IB, "rxe0", 1)).contains("eth1.100");
        assertThat(NetdevStack.ofPort(root, IB, "mlx5_1", 1)).contains("ens2f0");
        assertThat(NetdevStack.ofPort(root, IB, "mlx5_2", 1)).as("two netdevs: none is the port's").isEmpty();
    }
}
