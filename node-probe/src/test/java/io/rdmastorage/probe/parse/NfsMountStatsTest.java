package io.rdmastorage.probe.parse;

import static org.assertj.core.api.Assertions.assertThat;

import io.rdmastorage.probe.testing.Samples;
import java.util.Collections;
import org.junit.jupiter.api.Test;

/** /proc/<pid>/mountstats: the NFS mounts' opts: and xprt: lines, on the recorded RDMA and TCP mounts. */
class NfsMountStatsTest {

    static final String RDMA = "nfs/mountstats_nfs3-over-rdma_proto-rdma_nconnect16_16-xprt-rdma-lines_procfs-fixture.txt";
    static final String TCP = "nfs/mountstats_nfs4.1-over-tcp_k8s-volume_xprt-tcp_procfs-fixture.txt";
    static final String TCP_POINT = "/var/lib/kubelet/pods/1c2215a7-0d92-4df5-83ce-a807bcc2f8c8/volumes/kubernetes.io~nfs/"
            + "home-automation--node-red-data--pv0001";

    @Test
    void nconnect16OverRdmaShowsSixteenRdmaTransports() {
        NfsMountStats stats = NfsMountStats.parse(Samples.body(RDMA));

        NfsMountStats.NfsMount mount = stats.at("<mountpoint>").orElseThrow();
        assertThat(mount.device()).isEqualTo("<nfsserver>:<nfsmount>");
        assertThat(mount.fsType()).isEqualTo("nfs");
        assertThat(mount.options()).containsEntry("proto", "rdma").containsEntry("port", "20049").containsEntry("nconnect", "16");
        assertThat(mount.transports()).isEqualTo(Collections.nCopies(16, "rdma"));
    }

    @Test
    void nfs41OverTcpWithTabsShowsOneTcpTransport() {
        NfsMountStats.NfsMount mount = NfsMountStats.parse(Samples.body(TCP)).at(TCP_POINT).orElseThrow();

        assertThat(mount.fsType()).isEqualTo("nfs4");
        assertThat(mount.options()).containsEntry("proto", "tcp").containsEntry("vers", "4.1");
        assertThat(mount.transports()).containsExactly("tcp");
    }

    @Test
    void otherFileSystemsAreSkippedAndBlocksEndAtTheNextDevice() {
        // the recorded RDMA block between two non-NFS devices, as a whole /proc/1/mountstats prints them
        String text = "device rootfs mounted on / with fstype rootfs\ndevice proc mounted on /proc with fstype proc\n"
                + Samples.body(RDMA) + "device tmpfs mounted on /run with fstype tmpfs\n";

        NfsMountStats stats = NfsMountStats.parse(text);

        assertThat(stats.mounts()).extracting(NfsMountStats.NfsMount::mountPoint).containsExactly("<mountpoint>");
        assertThat(stats.at("<mountpoint>").orElseThrow().transports()).hasSize(16);
        assertThat(stats.at("/proc")).isEmpty();
    }

    @Test
    void aRealKernelsRdmaAndTcpBlocksWithTheirTabs() {
        // recorded in the VM node: nfsd's control file system first (not NFS), then the mount
        NfsMountStats rdma = NfsMountStats.parse(Samples.body("nfs/proc-1-mounts+mountstats_nfs4.2-over-rdma_rxe_vm-6.1.txt"));
        NfsMountStats tcp = NfsMountStats.parse(Samples.body("nfs/proc-1-mounts+mountstats_nfs4.2-over-tcp_rxe_vm-6.1.txt"));

        assertThat(rdma.mounts()).extracting(NfsMountStats.NfsMount::mountPoint).containsExactly("/mnt/nfs");
        assertThat(rdma.at("/mnt/nfs").orElseThrow().transports()).containsExactly("rdma");
        assertThat(rdma.at("/mnt/nfs").orElseThrow().options()).containsEntry("proto", "rdma").containsEntry("port", "20049");
        assertThat(tcp.at("/mnt/nfs").orElseThrow().transports()).containsExactly("tcp");
    }

    @Test
    void garbageHasNoMounts() {
        assertThat(NfsMountStats.parse("xprt: rdma 0 0\nnonsense\n").mounts()).isEmpty();
    }
}
