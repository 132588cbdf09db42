package io.rdmastorage.probe.check;

import static org.assertj.core.api.Assertions.assertThat;

import io.rdmastorage.contract.Status;
import io.rdmastorage.contract.spec.ProbeSpec;
import io.rdmastorage.probe.parse.LoadedModules;
import io.rdmastorage.probe.parse.NfsMountStats;
import io.rdmastorage.probe.parse.NvfsHookSymbols;
import io.rdmastorage.probe.parse.NvidiaFsModules;
import io.rdmastorage.probe.parse.ProcMounts;
import io.rdmastorage.probe.testing.NfsFixtures;
import io.rdmastorage.probe.testing.Samples;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * NfsRdma's rules on fact records: the mount table, mountstats (recorded blocks) and the modules.
 * The mount lines are constructed in the kernel's format (no public capture of a proto=rdma line).
 */
class NfsRdmaJudgeTest {

    private static final ProbeSpec DATA = spec(List.of("/data"));
    private static final String RDMA_LINE = NfsFixtures.SERVER + " /data nfs ro,vers=3,proto=rdma,nconnect=16,port=20049 0 0\n";
    private static final String TCP_LINE = NfsFixtures.SERVER + " /data nfs4 rw,vers=4.1,proto=tcp,port=2049 0 0\n";
    private static final String MODULES = "rpcrdma 352256 1 - Live 0x0\nnfs 454656 2 nfsv3, Live 0x0\n";

    private static ProbeSpec spec(List<String> mounts) {
        return new ProbeSpec(null, null, null, null, null, null, null, new ProbeSpec.Nfs(mounts));
    }

    private static NfsRdmaCheck.Facts facts(String mounts, String mountStats, String modules) {
        return new NfsRdmaCheck.Facts(Optional.ofNullable(mounts).map(ProcMounts::parse),
                Optional.ofNullable(mountStats).map(NfsMountStats::parse), Optional.ofNullable(modules).map(LoadedModules::parse),
                false, Optional.empty(), "/host", true);
    }

    private static String tcpBlock() {
        return Samples.body("nfs/mountstats_nfs4.1-over-tcp_k8s-volume_xprt-tcp_procfs-fixture.txt")
                .replaceAll("mounted on \\S+", "mounted on /data");
    }

    private static CheckResult verdict(NfsRdmaCheck.Facts facts, ProbeSpec spec) {
        return new NfsRdmaCheck().result(facts, spec);
    }

    @Test
    void rdmaMountWithRdmaTransportsIsTrue() {
        CheckResult result = verdict(facts(RDMA_LINE, NfsFixtures.rdmaBlock(), MODULES), DATA);

        assertThat(result.status()).as(result.message()).isEqualTo(Status.TRUE);
        assertThat(result.reason()).isEqualTo("MountsOverRdma");
        assertThat(result.message()).contains("/data (172.16.40.20:/export, nfs vers=3, proto=rdma port=20049, "
                + "16 rdma transport(s))", "rpcrdma loaded");
        assertThat(result.details().get("mounts")).isEqualTo(List.of("/data: proto=rdma, 16 xprt rdma"));
    }

    @Test
    void tcpMountIsMountNotRdmaNamingItsProto() {
        CheckResult result = verdict(facts(TCP_LINE, tcpBlock(), "nfs 454656 2 nfsv3, Live 0x0\n"), DATA);

        assertThat(result.status()).isEqualTo(Status.FALSE);
        assertThat(result.reason()).isEqualTo("MountNotRdma");
        assertThat(result.message()).contains("/data (172.16.40.20:/export, nfs4 vers=4.1, proto=tcp port=2049",
                "tcp transport in /proc/1/mountstats", "proto=rdma,port=20049", "modprobe rpcrdma");
    }

    @Test
    void anAbsentMountIsNotMountedAndAnotherFileSystemIsNamed() {
        CheckResult absent = verdict(facts("/dev/sda2 / ext4 rw 0 0\n", "", MODULES), DATA);
        CheckResult ext4 = verdict(facts("/dev/sdb1 /data ext4 rw 0 0\n", "", MODULES), DATA);

        assertThat(absent.status()).isEqualTo(Status.FALSE);
        assertThat(absent.reason()).isEqualTo("NotMounted");
        assertThat(absent.message()).contains("/data has no NFS mount", "nothing is mounted there");
        assertThat(ext4.message()).contains("it is ext4 from /dev/sdb1");
    }

    @Test
    void mountstatsThatCannotBeReadLeaveTheTransportUnknown() {
        CheckResult result = verdict(facts(RDMA_LINE, null, MODULES), DATA);

        assertThat(result.status()).isEqualTo(Status.UNKNOWN);
        assertThat(result.reason()).isEqualTo("TransportUnknown");
        assertThat(result.message()).contains("/proc/1/mountstats cannot be read");
    }

    @Test
    void sourcesAbsentAreUnknown() {
        CheckResult noMounts = verdict(facts(null, null, MODULES), DATA);
        CheckResult noProc = verdict(new NfsRdmaCheck.Facts(Optional.empty(), Optional.empty(), Optional.empty(), false,
                Optional.empty(), "/host", false), DATA);

        assertThat(noMounts.reason()).isEqualTo("MountsUnreadable");
        assertThat(noMounts.status()).isEqualTo(Status.UNKNOWN);
        assertThat(noProc.reason()).isEqualTo("HostViewMissing");
    }

    @Test
    void mountstatsShowingTcpOutranksTheMountTable() {
        // the mount table says rdma, the transports the client sends on are tcp: the stronger source decides
        CheckResult result = verdict(facts(RDMA_LINE, tcpBlock(), MODULES), DATA);

        assertThat(result.status()).isEqualTo(Status.FALSE);
        assertThat(result.reason()).isEqualTo("MountNotRdma");
        assertThat(result.message()).contains("says proto=rdma in /proc/1/mounts, but 1 of its 1 RPC transports", "tcp");
    }

    @Test
    void anRdmaMountWithoutTheRdmaModuleIsNeverTrue() {
        CheckResult result = verdict(facts(RDMA_LINE, NfsFixtures.rdmaBlock(), "nfs 454656 2 nfsv3, Live 0x0\n"), DATA);

        assertThat(result.status()).isEqualTo(Status.UNKNOWN);
        assertThat(result.reason()).isEqualTo("SourcesDisagree");
        assertThat(result.message()).contains("no rpcrdma/xprtrdma module");
        // a built-in rpcrdma (/sys/module/rpcrdma without a /proc/modules line) is no contradiction
        NfsRdmaCheck.Facts builtIn = new NfsRdmaCheck.Facts(Optional.of(ProcMounts.parse(RDMA_LINE)),
                Optional.of(NfsMountStats.parse(NfsFixtures.rdmaBlock())), Optional.of(LoadedModules.parse("")), true,
                Optional.empty(), "/host", true);
        assertThat(verdict(builtIn, DATA).status()).isEqualTo(Status.TRUE);
    }

    @Test
    void anEmptyListJudgesEveryNfsMountAndNoneIsUnknown() {
        CheckResult every = verdict(facts(RDMA_LINE.replace("/data", "/a") + TCP_LINE, tcpBlock(), MODULES), spec(List.of()));
        CheckResult none = verdict(facts("/dev/sda2 / ext4 rw 0 0\n", "", MODULES), spec(List.of()));

        assertThat(every.status()).isEqualTo(Status.FALSE);
        assertThat(every.details().get("mounts").toString()).contains("/a: proto=rdma", "/data: proto=tcp");
        assertThat(none.status()).isEqualTo(Status.UNKNOWN);
        assertThat(none.reason()).isEqualTo("NoNfsMounts");
    }

    @Test
    void withoutASpecOnlyRdmaMountsAreJudged() {
        CheckResult result = verdict(facts(RDMA_LINE + TCP_LINE.replace("/data", "/home"), NfsFixtures.rdmaBlock(), MODULES),
                ProbeSpec.discover());

        assertThat(result.status()).as(result.message()).isEqualTo(Status.TRUE);
        assertThat(result.details().get("mounts")).isEqualTo(List.of("/data: proto=rdma, 16 xprt rdma"));
    }

    @Test
    void whereNvidiaFsIsLoadedTheMessageSaysWhetherGdsCanReadTheMounts() {
        NfsRdmaCheck.GdsView registered = new NfsRdmaCheck.GdsView(
                Optional.of(NvidiaFsModules.parse("rpcrdma: (null)\nwekafsio: 1\n")), Optional.empty());
        NfsRdmaCheck.GdsView stock = new NfsRdmaCheck.GdsView(Optional.of(NvidiaFsModules.parse("wekafsio: 1\n")),
                Optional.of(NvfsHookSymbols.scan("ffffffffc1b50000 t rpcrdma_bc_init\t[rpcrdma]\n")));

        assertThat(verdict(withGds(registered), DATA).message()).contains("GDS: rpcrdma is registered with nvidia-fs");
        CheckResult notRegistered = verdict(withGds(stock), DATA);
        assertThat(notRegistered.status()).isEqualTo(Status.TRUE);   // the transport is RDMA; GdsReady judges GDS
        assertThat(notRegistered.message()).contains("rpcrdma has not registered with it",
                "exports no rpcrdma_register_nvfs_dma_ops", "GdsReady with gds.filesystems [nfs] fails on it");
    }

    private static NfsRdmaCheck.Facts withGds(NfsRdmaCheck.GdsView gds) {
        return new NfsRdmaCheck.Facts(Optional.of(ProcMounts.parse(RDMA_LINE)), Optional.of(NfsMountStats.parse(NfsFixtures.rdmaBlock())),
                Optional.of(LoadedModules.parse(MODULES)), false, Optional.of(gds), "/host", true);
    }
}
