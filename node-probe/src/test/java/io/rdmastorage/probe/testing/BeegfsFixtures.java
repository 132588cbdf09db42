package io.rdmastorage.probe.testing;

/**
 * The BeegfsRdma area of a fixture node: {@code /proc/1/mounts} with a BeeGFS mount,
 * {@code /proc/fs/beegfs/<clientID>/} with the client's {@code config}, {@code storage_nodes} and
 * {@code meta_nodes}, and the DKMS directory of the client module.
 *
 * <p>What is recorded and what is constructed: the server files and the mount line are the samples
 * of {@code samples/beegfs/} as they are (their headers say which are verbatim); the client ID
 * directory name and the DKMS version are constructed.
 */
public final class BeegfsFixtures {

    public static final String POINT = "/mnt/beegfs";
    public static final String SPEC = "{\"beegfs\":{\"mounts\":[\"/mnt/beegfs\"]}}";
    public static final String CLIENT = "/proc/fs/beegfs/5A1B2C3D-6789ABCD-client01";
    public static final String ALL_RDMA = "beegfs/proc-fs-beegfs-storage+meta_nodes_all-rdma_constructed.txt";
    public static final String FALLBACK_ROUTE = "beegfs/proc-fs-beegfs-meta_nodes_tcp-fallback-route-beside-rdma_beegfs-go-procfs-test.txt";
    public static final String TCP_ONLY = "beegfs/proc-fs-beegfs-storage_nodes_tcp-only_beegfs-csi-driver-e2e.txt";
    public static final String CONFIG = "beegfs/proc-fs-beegfs-config_connUseRDMA-1-and-0_constructed.txt";
    public static final String MOUNTS = "beegfs/proc-1-mounts_two-beegfs-mounts-with-cfgFile_beegfs-go-procfs-test.txt";
    /** The recorded table's first BeeGFS line (cfgFile=/etc/beegfs/beegfs-client.conf). */
    public static final String MOUNT_LINE = Samples.body(MOUNTS).lines().filter(l -> l.contains(" /mnt/beegfs ")).findFirst()
            .orElseThrow() + "\n";

    private BeegfsFixtures() {
    }

    /** /mnt/beegfs mounted, RDMA on, every storage and metadata server on RDMA only. */
    public static FixtureHost healthy(FixtureHost host) {
        base(host, LustreFixtures.part(CONFIG, "rdma on"));
        host.file("/etc/beegfs/rdma-interfaces.conf", "ib0\n");
        host.file(CLIENT + "/storage_nodes", LustreFixtures.part(ALL_RDMA, "storage_nodes"));
        host.file(CLIENT + "/meta_nodes", LustreFixtures.part(ALL_RDMA, "meta_nodes"));
        return host;
    }

    /** The mount table with the recorded BeeGFS line, the client's config, the DKMS version. */
    public static FixtureHost base(FixtureHost host, String config) {
        host.file("/proc/1/mounts", "/dev/sda2 / ext4 rw,relatime 0 0\n" + MOUNT_LINE);
        host.file(CLIENT + "/config", config);
        host.mkdir("/var/lib/dkms/beegfs/7.4.5");
        return host;
    }
}
