package io.rdmastorage.probe.parse;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * /proc/<pid>/mounts. No public capture of a proto=rdma line was found (samples/SOURCES.md): these
 * lines are constructed in the kernel's format, their NFS options copied from the recorded
 * mountstats samples' {@code opts:} lines, which carry the same option string.
 */
class ProcMountsTest {

    private static final String TABLE = """
            sysfs /sys sysfs rw,nosuid,nodev,noexec,relatime 0 0
            proc /proc proc rw,nosuid,nodev,noexec,relatime 0 0
            /dev/sda1 /mnt/data ext4 rw,relatime 0 0
            172.16.40.20:/export /mnt/data nfs ro,relatime,vers=3,rsize=1048576,wsize=1048576,namlen=255,hard,nocto,forcerdirplus,proto=rdma,nconnect=16,port=20049,timeo=600,retrans=2,sec=sys,mountaddr=172.16.40.20,mountvers=3,mountport=0,mountproto=tcp,local_lock=none,addr=172.16.40.20 0 0
            fs.example.com:/volume4/apps /mnt/with\\040space nfs4 rw,relatime,vers=4.1,rsize=131072,wsize=131072,namlen=255,hard,proto=tcp,timeo=600,retrans=2,sec=sys,clientaddr=192.168.1.191,local_lock=none,addr=192.168.1.10 0 0
            """;

    /** The /proc/1/mounts part of a VM recording: the lines before its mountstats blocks. */
    static String recordedMounts(String sample) {
        String body = io.rdmastorage.probe.testing.Samples.body(sample);
        return body.substring(0, body.indexOf("device "));
    }

    @Test
    void aRealNfs42MountOverRdmaAndOverTcp() {
        ProcMounts rdma = ProcMounts.parse(recordedMounts("nfs/proc-1-mounts+mountstats_nfs4.2-over-rdma_rxe_vm-6.1.txt"));
        ProcMounts tcp = ProcMounts.parse(recordedMounts("nfs/proc-1-mounts+mountstats_nfs4.2-over-tcp_rxe_vm-6.1.txt"));

        ProcMounts.Mount overRdma = rdma.at("/mnt/nfs").orElseThrow();
        assertThat(overRdma.device()).isEqualTo("192.0.2.1:/srv/nfs");
        assertThat(overRdma.fsType()).isEqualTo("nfs4");
        assertThat(overRdma.option("proto")).contains("rdma");
        assertThat(overRdma.option("port")).contains("20049");
        assertThat(rdma.at("/proc/fs/nfsd").orElseThrow().nfs()).isFalse();   // nfsd's control file system is not NFS
        // over tcp the kernel leaves the default port out
        assertThat(tcp.at("/mnt/nfs").orElseThrow().option("proto")).contains("tcp");
        assertThat(tcp.at("/mnt/nfs").orElseThrow().option("port")).isEmpty();
    }

    @Test
    void theLastMountOnAPointIsTheVisibleOne() {
        ProcMounts mounts = ProcMounts.parse(TABLE);

        ProcMounts.Mount data = mounts.at("/mnt/data").orElseThrow();
        assertThat(data.fsType()).isEqualTo("nfs");
        assertThat(data.nfs()).isTrue();
        assertThat(data.device()).isEqualTo("172.16.40.20:/export");
        assertThat(data.option("proto")).contains("rdma");
        assertThat(data.option("port")).contains("20049");
        assertThat(data.option("ro")).contains("");
    }

    @Test
    void octalEscapesInPathsAreUndone() {
        ProcMounts.Mount home = ProcMounts.parse(TABLE).at("/mnt/with space").orElseThrow();

        assertThat(home.fsType()).isEqualTo("nfs4");
        assertThat(home.option("proto")).contains("tcp");
        assertThat(ProcMounts.unescape("a\\134b\\011c")).isEqualTo("a\\b\tc");
    }

    @Test
    void shortLinesAndAbsentPointsGiveNothing() {
        ProcMounts mounts = ProcMounts.parse("garbage\n\nnone /x\n");

        assertThat(mounts.mounts()).isEmpty();
        assertThat(ProcMounts.parse(TABLE).at("/mnt")).isEmpty();
    }
}
