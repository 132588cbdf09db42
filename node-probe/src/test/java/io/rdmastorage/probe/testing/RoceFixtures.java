package io.rdmastorage.probe.testing;

/**
 * A RoCE node: mlx5_0 port 1 with link layer Ethernet on netdev eth0, set up for lossless storage
 * traffic on DSCP 26 / priority 3 as MLNX_OFED's tools show it (the real {@code mlnx_qos -i} output of
 * samples/roce/), mlx5's ECN switches on, rdma_cm's configfs default ToS 106 (DSCP 26). iproute2's
 * dcb is not installed unless a fixture adds it.
 */
public final class RoceFixtures {

    public static final String SPEC = "{\"roce\":{\"dscp\":26,\"priority\":3}}";
    public static final String PORT = "/sys/class/infiniband/mlx5_0/ports/1/";
    public static final String ECN = "/sys/class/net/eth0/ecn/";
    public static final String CONFIGFS_TOS = "/sys/kernel/config/rdma_cm/mlx5_0/ports/1/default_roce_tos";
    public static final String MLNX_QOS = "/usr/bin/mlnx_qos";
    public static final String DCB = "/usr/sbin/dcb";

    private RoceFixtures() {
    }

    public static FixtureHost healthy(FixtureHost host) {
        host.file(PORT + "state", "4: ACTIVE\n")
                .file(PORT + "phys_state", "5: LinkUp\n")
                .file(PORT + "rate", "100 Gb/sec (4X EDR)\n")
                .file(PORT + "link_layer", "Ethernet\n")
                .file(PORT + "gid_attrs/ndevs/0", "eth0\n")
                .file("/sys/class/net/eth0/mtu", "9000\n")
                .file(ECN + "roce_np/cnp_dscp", "48\n")
                .file(CONFIGFS_TOS, "106\n");
        for (int p = 0; p < 8; p++) {
            host.file(ECN + "roce_np/enable/" + p, "1\n").file(ECN + "roce_rp/enable/" + p, "1\n");
        }
        return mlnxQos(host, lastRun(Samples.body("roce/mlnx_qos_dscp_pfc-prio3_xtrace.txt"), "+ mlnx_qos -i eth4 --pfc"));
    }

    /**
     * The healthy RoCE node configured with iproute2's dcb instead of MLNX_OFED's tools, PFC on the
     * wrong priorities: {@code dcb pfc show} is the man page's example (PFC on 6 and 7 only), while
     * the storage DSCP 26 maps to priority 3 ({@code dcb app} in the man page's format, constructed).
     */
    public static FixtureHost pfcOnOtherPriorities(FixtureHost host) {
        host.delete(MLNX_QOS);
        return host.tool(DCB).on("pfc", "show", "dev", "eth0").printsSample("roce/dcb-pfc_prio6-7_man-page-example.txt")
                .on("-N", "app", "show", "dev", "eth0", "dscp-prio").prints("dscp-prio 26:3\n").and();
    }

    /** mlnx_qos -i eth0 prints that output. */
    public static FixtureHost mlnxQos(FixtureHost host, String output) {
        return host.tool(MLNX_QOS).on("-i", "eth0").prints(output).and();
    }

    /**
     * The part of a terminal copy after the line starting with {@code marker}, up to the next
     * shell prompt or xtrace line: one run's output.
     */
    public static String lastRun(String copy, String marker) {
        String after = copy.substring(copy.lastIndexOf(marker));
        after = after.substring(after.indexOf('\n') + 1);
        StringBuilder out = new StringBuilder();
        for (String line : after.split("\n", -1)) {
            if (line.startsWith("+ ") || line.startsWith("root@")) {
                break;
            }
            out.append(line).append('\n');
        }
        return out.toString();
    }
}
