package io.rdmastorage.probe.testing;

/**
 * The LustreLnet area of a fixture node: {@code /proc/1/mounts} with a Lustre client mount,
 * {@code /usr/sbin/lnetctl} answering {@code net show -v 3} and {@code peer show -v 3} with the
 * recorded samples, {@code /sys/module/ko2iblnd} and {@code /sys/fs/lustre/version}.
 *
 * <p>What is recorded and what is constructed: the lnetctl outputs are the samples of
 * {@code samples/lustre/} as they are (their headers say which are verbatim); the mount lines are
 * constructed in the kernel's layout from the NIDs the samples show, as no public capture of a
 * Lustre line of {@code /proc/mounts} was found; the version file's content is constructed.
 */
public final class LustreFixtures {

    public static final String POINT = "/mnt/lustre";
    public static final String SPEC = "{\"lustre\":{\"mounts\":[\"/mnt/lustre\"]}}";
    public static final String LNETCTL = "/usr/sbin/lnetctl";
    public static final String HEALTHY_NET = "lustre/lnetctl-net-show-v_o2ib-2ni-health-1000_lustrefs-exporter-fixture.txt";
    public static final String DEGRADED_NET = "lustre/lnetctl-net-show-v4_o2ib-health-1000-979-66_nvidia-gds-troubleshooting.txt";
    public static final String NI_DOWN_NET = "lustre/lnetctl-net-show_o2ib-ni-down_tcp-up_iml-agent-test.txt";
    public static final String LNET_DOWN = "lustre/lnetctl-net-show_errno-100-network-down_lustrefs-exporter-fixture.txt";
    public static final String TCP_CLIENT = "lustre/lnetctl-net-show_tcp-only-client_lustre-demo-vm.txt";
    public static final String MULTIRAIL = "lustre/lnetctl-net+peer-show_mounts_multirail-o2ib-o2ib1_nvidia-gds-troubleshooting.txt";
    public static final String PEERS_V3 = "lustre/lnetctl-peer-show-v3_o2ib-down-tcp-up_peer-health-400_constructed.txt";
    public static final String PEERS_TCP = "lustre/lnetctl-peer-show_tcp-and-efa-peers_fsx-client-log.txt";
    public static final String LCTL = "/usr/sbin/lctl";
    public static final String[] GET_IMPORTS = {"get_param", "mdc.*.import", "osc.*.import"};
    /** Mounted through an MGS on tcp while the MDT and both OSTs are connected over o2ib (Lustre 2.16 layout). */
    public static final String IMPORTS_MGS_TCP = "lustre/lctl-get-param-mdc-osc-mgc-import_mgs-tcp-targets-o2ib_2.16-quoted-nids_constructed.txt";
    /** OST0001's import fell back to a tcp failover NID; the MDT and the other OSTs are on o2ib (Lustre 2.15 layout). */
    public static final String IMPORTS_OST_ON_TCP = "lustre/lctl-get-param-mdc-osc-import_one-ost-on-tcp-failover-nid_2.15_constructed.txt";
    public static final String IMPORTS_ENOENT = "lustre/lctl-get-param-import_no-lustre-client_param-path-enoent_constructed.txt";
    /** The o2ib servers of the healthy samples' network (172.16.0.0/24). */
    public static final String O2IB_DEVICE = "172.16.0.10@o2ib:172.16.0.11@o2ib:/lustre";
    /** The two servers of {@link #PEERS_V3}: oss-1 (its o2ib NID down, its tcp NID up) and oss-2 (o2ib, health 400). */
    public static final String O2IB_DOWN_DEVICE = "10.10.0.11@o2ib:10.10.0.12@o2ib:/lustre";
    /**
     * Where {@link #o2ibDown}'s client reaches oss-1 over TCP (LNet's socklnd, port 988): oss-1's tcp
     * NID in {@link #PEERS_V3}, from the client's tcp NI in {@link #NI_DOWN_NET}.
     */
    public static final String O2IB_DOWN_TCP_PEER = "192.168.0.11";
    public static final String O2IB_DOWN_TCP_LOCAL = "10.73.20.21";
    private static final String BASE_MOUNTS = """
            sysfs /sys sysfs rw,nosuid,nodev,noexec,relatime 0 0
            proc /proc proc rw,nosuid,nodev,noexec,relatime 0 0
            /dev/sda2 / ext4 rw,relatime 0 0
            """;
    private static final String O2IB_PEERS = """
            peer:
                - primary nid: 172.16.0.10@o2ib
                  Multi-Rail: True
                  peer ni:
                    - nid: 172.16.0.10@o2ib
                      state: up
                    - nid: 172.16.0.12@o2ib
                      state: up
                - primary nid: 172.16.0.11@o2ib
                  Multi-Rail: True
                  peer ni:
                    - nid: 172.16.0.11@o2ib
                      state: NA
            """;

    private LustreFixtures() {
    }

    /** /mnt/lustre mounted through o2ib NIDs, both o2ib NIs up with health 1000, both servers on o2ib. */
    public static FixtureHost healthy(FixtureHost host) {
        base(host, O2IB_DEVICE);
        host.tool(LNETCTL).on("net", "show", "-v", "3").printsSample(HEALTHY_NET)
                .on("peer", "show", "-v", "3").prints(O2IB_PEERS);
        return host;
    }

    /**
     * A client whose o2ib network is down while its traffic goes on tcp NIDs: /mnt/lustre mounted
     * through the two servers of {@link #PEERS_V3}, one of its two o2ib NIs down beside an up tcp
     * network (the recorded {@link #NI_DOWN_NET}), and oss-1 reached over its tcp NID because its
     * o2ib NID is down (the constructed {@link #PEERS_V3}, which also has oss-2 at health 400).
     * LustreLnet: False, PeerOnTcp.
     */
    public static FixtureHost o2ibDown(FixtureHost host) {
        base(host, O2IB_DOWN_DEVICE);
        host.tool(LNETCTL).on("net", "show", "-v", "3").printsSample(NI_DOWN_NET)
                .on("peer", "show", "-v", "3").printsSample(PEERS_V3);
        return host;
    }

    /**
     * A client of a sample with its {@code /proc/1/mounts} line and its {@code lctl get_param} imports:
     * the o2ib NIs of {@link #HEALTHY_NET} up, and {@code peers} as lnetctl's peer list.
     */
    public static FixtureHost withImports(FixtureHost host, String sample, String peers) {
        base(host, part(sample, "grep lustre /proc/1/mounts").split(" ")[0]);
        host.tool(LNETCTL).on("net", "show", "-v", "3").printsSample(HEALTHY_NET)
                .on("peer", "show", "-v", "3").prints(peers);
        host.tool(LCTL).on(GET_IMPORTS).prints(part(sample, "lctl get_param mdc.*.import osc.*.import"));
        return host;
    }

    /** The mount table, ko2iblnd, the version file and a sysfs marker: what every case shares. */
    public static FixtureHost base(FixtureHost host, String device) {
        host.file("/proc/1/mounts", BASE_MOUNTS + device + " " + POINT + " lustre rw,flock,lazystatfs 0 0\n");
        host.mkdir("/sys/class/net/ib0");
        host.mkdir("/sys/module/ko2iblnd/parameters");
        host.file("/sys/module/ko2iblnd/parameters/peer_credits", "32\n");
        host.file("/sys/fs/lustre/version", "2.15.4\n");
        return host;
    }

    /** One output of a sample that holds several, split at its "== <command> ==" lines. */
    public static String part(String sample, String command) {
        String body = Samples.body(sample);
        int start = body.indexOf("== " + command + " ==\n");
        if (start < 0) {
            throw new IllegalArgumentException(sample + " has no part " + command);
        }
        int from = start + command.length() + 7;
        int end = body.indexOf("\n== ", from);
        return body.substring(from, end < 0 ? body.length() : end + 1);
    }
}
