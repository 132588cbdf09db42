package io.rdmastorage.probe.testing;

/**
 * The NfsRdma area of a fixture node: the host's {@code /proc/1/mounts}, {@code /proc/1/mountstats}
 * and {@code /proc/modules} with {@code /data} mounted over RDMA.
 *
 * <p>What is recorded and what is constructed: the mountstats blocks are the recorded samples (an
 * NFSv3 mount over RDMA with nconnect=16, an NFSv4.1 mount over TCP) with their anonymised names
 * ({@code <nfsserver>:<nfsmount>}, {@code <mountpoint>}) replaced by this node's; no public capture
 * of a {@code /proc/mounts} line with {@code proto=rdma} exists, so the mount lines are constructed
 * in the kernel's format from the same samples' {@code opts:} option strings.
 */
public final class NfsFixtures {

    public static final String POINT = "/data";
    public static final String SERVER = "172.16.40.20:/export";
    public static final String SPEC = "{\"nfs\":{\"mounts\":[\"/data\"]}}";

    private static final String RDMA_OPTIONS = "ro,relatime,vers=3,rsize=1048576,wsize=1048576,namlen=255,acregmin=120,"
            + "acregmax=120,acdirmin=120,acdirmax=120,hard,nocto,forcerdirplus,proto=rdma,nconnect=16,port=20049,timeo=600,"
            + "retrans=2,sec=sys,mountaddr=172.16.40.20,mountvers=3,mountport=0,mountproto=tcp,local_lock=none,addr=172.16.40.20";
    private static final String TCP_OPTIONS = "rw,relatime,vers=4.1,rsize=131072,wsize=131072,namlen=255,acregmin=3,"
            + "acregmax=60,acdirmin=30,acdirmax=60,hard,proto=tcp,timeo=600,retrans=2,sec=sys,clientaddr=192.168.1.191,"
            + "local_lock=none,addr=172.16.40.20";
    private static final String BASE_MOUNTS = """
            sysfs /sys sysfs rw,nosuid,nodev,noexec,relatime 0 0
            proc /proc proc rw,nosuid,nodev,noexec,relatime 0 0
            /dev/sda2 / ext4 rw,relatime 0 0
            """;
    private static final String BASE_MOUNTSTATS = """
            device sysfs mounted on /sys with fstype sysfs
            device proc mounted on /proc with fstype proc
            device /dev/sda2 mounted on / with fstype ext4
            """;
    private static final String MODULES = """
            rpcrdma 352256 1 - Live 0xffffffffc1b4e000
            rdma_cm 139264 2 rpcrdma,rdma_ucm, Live 0xffffffffc1a93000
            nfsv3 57344 1 - Live 0xffffffffc1a7f000
            nfs 454656 2 nfsv3, Live 0xffffffffc19f0000
            sunrpc 712704 20 rpcrdma,nfsv3,nfs,lockd, Live 0xffffffffc1900000
            """;

    private NfsFixtures() {
    }

    /** /data over RDMA: proto=rdma, port 20049, sixteen rdma transports, rpcrdma loaded. */
    public static FixtureHost rdma(FixtureHost host) {
        host.file("/proc/1/mounts", BASE_MOUNTS + SERVER + " " + POINT + " nfs " + RDMA_OPTIONS + " 0 0\n");
        host.file("/proc/1/mountstats", BASE_MOUNTSTATS + rdmaBlock());
        host.file("/proc/modules", MODULES);
        return host;
    }

    /** The same export mounted on /data over TCP (NFSv4.1, the recorded TCP block), rpcrdma not loaded. */
    public static FixtureHost tcp(FixtureHost host) {
        host.file("/proc/1/mounts", BASE_MOUNTS + SERVER + " " + POINT + " nfs4 " + TCP_OPTIONS + " 0 0\n");
        host.file("/proc/1/mountstats", BASE_MOUNTSTATS + Samples.body("nfs/mountstats_nfs4.1-over-tcp_k8s-volume_xprt-tcp_procfs-fixture.txt")
                .replace("fs.example.com:/volume4/apps/home-automation/node-red-data", SERVER)
                .replace("/var/lib/kubelet/pods/1c2215a7-0d92-4df5-83ce-a807bcc2f8c8/volumes/kubernetes.io~nfs/"
                        + "home-automation--node-red-data--pv0001", POINT));
        host.file("/proc/modules", MODULES.lines().filter(l -> !l.startsWith("rpcrdma") && !l.startsWith("rdma_cm"))
                .map(l -> l.replace("rpcrdma,", "") + "\n").reduce("", String::concat));
        return host;
    }

    /**
     * /mnt/nfs from an IPv6 server, as the sample (constructed from the VM node's recording) shows
     * it: {@code [2001:db8::1]:/srv/nfs} with {@code proto=rdma6} or {@code proto=tcp6}; the
     * /proc/1/mounts lines are the sample's lines before its first mountstats block.
     */
    public static FixtureHost ipv6(FixtureHost host, String sample) {
        String body = Samples.body(sample);
        int stats = body.indexOf("device ");
        host.file("/proc/1/mounts", body.substring(0, stats));
        host.file("/proc/1/mountstats", body.substring(stats));
        host.file("/proc/modules", MODULES);
        return host;
    }

    /** The recorded RDMA mountstats block, named as this node's mount. */
    public static String rdmaBlock() {
        return Samples.body("nfs/mountstats_nfs3-over-rdma_proto-rdma_nconnect16_16-xprt-rdma-lines_procfs-fixture.txt")
                .replace("<nfsserver>:<nfsmount>", SERVER).replace("<mountpoint>", POINT);
    }
}
