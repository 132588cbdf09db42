package io.rdmastorage.probe.check;

import static io.rdmastorage.contract.checks.NfsRdma.*;

import io.rdmastorage.contract.CheckType;
import io.rdmastorage.contract.Reasons;
import io.rdmastorage.contract.Status;
import io.rdmastorage.contract.spec.ProbeSpec;
import io.rdmastorage.probe.host.HostRoot;
import io.rdmastorage.probe.parse.LoadedModules;
import io.rdmastorage.probe.parse.NfsMountStats;
import io.rdmastorage.probe.parse.NfsNetid;
import io.rdmastorage.probe.parse.NvfsHookSymbols;
import io.rdmastorage.probe.parse.NvidiaFsModules;
import io.rdmastorage.probe.parse.ProcMounts;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * NFS over RDMA fails quietly too: a mount without {@code proto=rdma}, or made before rpcrdma was
 * loaded, works over TCP. This check reads the host's mount table and the RPC transports each NFS
 * mount really uses, from PID 1's view ({@code /proc/1/mounts}, {@code /proc/1/mountstats}: the
 * probe's own /proc/self is its pod's mount namespace). mountstats is the stronger source: its
 * {@code xprt:} lines are the transports the client sends on.
 *
 * <p>Where nvidia-fs is loaded, the message also says whether GDS can read these mounts directly:
 * whether rpcrdma registered with nvidia-fs (GdsReady with {@code gds.filesystems: [nfs]} judges it).
 */
public final class NfsRdmaCheck extends FactsCheck<NfsRdmaCheck.Facts> {

    static final String MOUNTS = ClientMounts.MOUNTS;
    static final String MOUNTSTATS = "/proc/1/mountstats";
    static final String MODULES = "/proc/modules";
    static final String NVFS_PROC = "/proc/driver/nvidia-fs";
    static final String NVFS_MODULES = "/proc/driver/nvidia-fs/modules";
    static final String KALLSYMS = "/proc/kallsyms";
    /** The IANA port of NFS over RDMA (RFC 5667), the one nfsd's rdma listener uses by convention. */
    static final String RDMA_PORT = "20049";
    private static final String NVFS_HOOK = "rpcrdma_register_nvfs_dma_ops";
    /** The client's RDMA transport module: rpcrdma, or xprtrdma in kernels from before it was merged into rpcrdma. */
    private static final List<String> RDMA_MODULES = List.of("rpcrdma", "xprtrdma");

    /**
     * What the host shows.
     *
     * @param mounts        PID 1's /proc/1/mounts; empty when unreadable
     * @param mountStats    PID 1's /proc/1/mountstats; empty when unreadable
     * @param modules       /proc/modules; empty when unreadable
     * @param rpcrdmaInSysfs /sys/module/rpcrdma (or xprtrdma) exists: loaded as a module or built into the kernel
     * @param gds           what nvidia-fs says of rpcrdma; empty when nvidia-fs is not loaded
     * @param hostRoot      where the host's file system is seen, for messages
     * @param procVisible   whether the host's /proc is there at all
     */
    public record Facts(Optional<ProcMounts> mounts, Optional<NfsMountStats> mountStats, Optional<LoadedModules> modules,
                        boolean rpcrdmaInSysfs, Optional<GdsView> gds, String hostRoot, boolean procVisible) {
    }

    /**
     * nvidia-fs's view of rpcrdma.
     *
     * @param registered the drivers of /proc/driver/nvidia-fs/modules; empty when unreadable
     * @param hooks      the nvfs hooks of /proc/kallsyms, read only when rpcrdma is not registered
     */
    public record GdsView(Optional<NvidiaFsModules> registered, Optional<NvfsHookSymbols> hooks) {
    }

    @Override
    public CheckType type() {
        return CheckType.NFS_RDMA;
    }

    @Override
    public boolean applies(ProbeContext context) {
        if (context.spec().nfs() != null) {
            return true;
        }
        // without a spec, only mounts that were meant to be RDMA: a TCP home directory is nobody's fallback
        return ClientMounts.discovered(context, NfsRdmaCheck::rdmaMount);
    }

    @Override
    protected Facts gather(ProbeContext context) {
        HostRoot host = context.host();
        Optional<GdsView> gds = Optional.empty();
        if (host.exists(NVFS_PROC)) {
            Optional<NvidiaFsModules> registered = host.read(NVFS_MODULES).map(NvidiaFsModules::parse);
            // kallsyms is large: read it only to tell why rpcrdma did not register
            boolean why = registered.map(r -> !r.registered("rpcrdma")).orElse(true);
            gds = Optional.of(new GdsView(registered, why ? host.read(KALLSYMS).map(NvfsHookSymbols::scan) : Optional.empty()));
        }
        return new Facts(host.read(MOUNTS).map(ProcMounts::parse), host.read(MOUNTSTATS).map(NfsMountStats::parse),
                host.read(MODULES).map(LoadedModules::parse),
                RDMA_MODULES.stream().anyMatch(m -> host.isDirectory("/sys/module/" + m)),
                gds, host.root().toString(), HostView.PROCFS.visible(host));
    }

    @Override
    protected Findings.Mention mention() {
        return Findings.Mention.COUNTED;
    }

    @Override
    protected List<String> precedence() {
        return List.of(MOUNT_NOT_RDMA, NOT_MOUNTED);
    }

    @Override
    protected Judgement judge(Facts facts, ProbeSpec spec) {
        Details details = new Details();
        if (!facts.procVisible()) {
            return Judgement.only(HostView.PROCFS.missing(facts.hostRoot()), details);
        }
        if (facts.mounts().isEmpty()) {
            return Judgement.only(Finding.of(Status.UNKNOWN, MOUNTS_UNREADABLE, MOUNTS + " cannot be read under the host "
                    + "root " + facts.hostRoot() + ", so the NFS mounts of the host are not known. The probe reads the mount "
                    + "table of the host's PID 1 through the host's /proc: run it as root with the host's / mounted with "
                    + "its submounts"), details);
        }
        ProcMounts mounts = facts.mounts().get();
        List<String> wanted = wanted(mounts, spec.nfs());
        if (wanted.isEmpty()) {
            return Judgement.only(Finding.of(Status.UNKNOWN, NO_NFS_MOUNTS, "the nfs section lists no mount and " + MOUNTS
                    + " has no NFS mount, so there is nothing to judge. List the mounts that must use RDMA in nfs.mounts "
                    + "(e.g. [/mnt/data]) and mount them with proto=rdma,port=" + RDMA_PORT), details);
        }
        boolean moduleLoaded = facts.rpcrdmaInSysfs() || facts.modules().map(m -> RDMA_MODULES.stream().anyMatch(m::loaded)).orElse(false);
        details.put("rpcrdma", moduleLoaded ? "loaded" : facts.modules().isPresent() ? "not loaded" : "unknown");
        List<Finding> findings = new ArrayList<>();
        List<String> passed = new ArrayList<>();
        List<String> shown = new ArrayList<>();
        for (String point : wanted) {
            judgeMount(point, mounts, facts, moduleLoaded, shown, findings, passed);
        }
        details.list("mounts", shown);
        String gds = facts.gds().map(g -> gdsNote(g, details)).orElse("");
        return Judgement.of(findings, Finding.passed(MOUNTS_OVER_RDMA, "NFS over RDMA: " + String.join("; ", passed)
                + (moduleLoaded ? "; rpcrdma loaded" : "") + gds), details);
    }

    /** The listed mount points; else (an empty list) every NFS mount; else (no spec) the proto=rdma ones. */
    private static List<String> wanted(ProcMounts mounts, ProbeSpec.Nfs nfs) {
        if (nfs != null && !nfs.mounts().isEmpty()) {
            return nfs.mounts();
        }
        Set<String> points = new LinkedHashSet<>();
        for (ProcMounts.Mount m : mounts.mounts()) {
            if (m.nfs() && (nfs != null || rdmaMount(m))) {
                points.add(m.mountPoint());
            }
        }
        return List.copyOf(points);
    }

    private static boolean rdmaMount(ProcMounts.Mount m) {
        return m.nfs() && netid(m).filter(NfsNetid::rdma).isPresent();
    }

    /** The mount's netid: rdma and rdma6 (an IPv6 server) are both RDMA, as tcp and tcp6 are both TCP. */
    private static Optional<NfsNetid> netid(ProcMounts.Mount m) {
        return m.option("proto").flatMap(NfsNetid::parse);
    }

    private static void judgeMount(String point, ProcMounts mounts, Facts facts, boolean moduleLoaded, List<String> shown,
                                   List<Finding> findings, List<String> passed) {
        Optional<ProcMounts.Mount> at = mounts.at(point);
        if (at.isEmpty() || !at.get().nfs()) {
            shown.add(point + ": " + at.map(m -> m.fsType() + ", not NFS").orElse("not mounted"));
            findings.add(Finding.of(Status.FALSE, NOT_MOUNTED, point + " has no NFS mount in " + MOUNTS
                    + at.map(m -> " (it is " + m.fsType() + " from " + m.device() + ")").orElse(" (nothing is mounted there)")
                    + ", so its I/O cannot be NFS over RDMA. Mount it: `mount -t nfs -o proto=rdma,port=" + RDMA_PORT
                    + " <server>:<export> " + point + "` (proto=rdma6 for a server's IPv6 address)", point + " not mounted"));
            return;
        }
        ProcMounts.Mount mount = at.get();
        String proto = mount.option("proto").orElse("(none)");
        Optional<NfsNetid> netid = netid(mount);
        // a remount keeps the server's address family: rdma6 for an IPv6 server, as tcp6 names it
        String rdmaProto = "proto=" + netid.map(NfsNetid::rdmaNetid).orElse(NfsNetid.RDMA);
        // the kernel leaves port= out of the options when it is the transport's default
        String what = point + " (" + mount.device() + ", " + mount.fsType() + mount.option("vers").map(v -> " vers=" + v).orElse("")
                + ", proto=" + proto + mount.option("port").map(p -> " port=" + p).orElse("");
        Optional<NfsMountStats.NfsMount> stats = facts.mountStats().flatMap(s -> s.at(point));
        List<String> transports = stats.map(NfsMountStats.NfsMount::transports).orElse(List.of());
        long rdma = transports.stream().filter(NfsNetid.RDMA::equals).count();
        String xprts = transports.isEmpty() ? "no xprt line" : rdma == transports.size()
                ? transports.size() + " xprt rdma" : String.join(", ", new LinkedHashSet<>(transports)) + " xprt";
        shown.add(point + ": proto=" + proto + ", " + (stats.isPresent() ? xprts : "no mountstats"));
        if (netid.filter(NfsNetid::rdma).isEmpty()) {
            findings.add(Finding.of(Status.FALSE, MOUNT_NOT_RDMA, what + " in " + MOUNTS + (transports.isEmpty() ? ""
                    : "; " + String.join(", ", new LinkedHashSet<>(transports)) + " transport in " + MOUNTSTATS) + ") is not "
                    + "mounted over RDMA: its I/O goes over " + proto + ". The transport cannot be changed by a remount: "
                    + "`umount " + point + "` and mount it again with `-o " + rdmaProto + ",port=" + RDMA_PORT + "` (the server "
                    + "must listen on rdma " + RDMA_PORT + ": `echo rdma " + RDMA_PORT + " > /proc/fs/nfsd/portlist`)"
                    + (moduleLoaded ? "" : "; rpcrdma is not loaded on this node: `modprobe rpcrdma` first"),
                    point + " proto=" + proto));
        } else if (transports.isEmpty()) {
            findings.add(Finding.of(Status.UNKNOWN, TRANSPORT_UNKNOWN, what + ") says proto=" + proto + " in " + MOUNTS + ", but "
                    + (facts.mountStats().isEmpty() ? MOUNTSTATS + " cannot be read (the probe must run as root)"
                    : stats.isEmpty() ? MOUNTSTATS + " has no block for it" : MOUNTSTATS + " lists no RPC transport (xprt:) for it")
                    + ", so the transport its I/O really uses cannot be confirmed. Run `grep -A20 '" + point + "' "
                    + MOUNTSTATS + "` on the node", point + " transport not shown"));
        } else if (rdma < transports.size()) {
            List<String> others = List.copyOf(new LinkedHashSet<>(transports.stream().filter(t -> !t.equals(NfsNetid.RDMA)).toList()));
            findings.add(Finding.of(Status.FALSE, MOUNT_NOT_RDMA, what + ") says proto=" + proto + " in " + MOUNTS + ", but "
                    + (transports.size() - rdma) + " of its " + transports.size() + " RPC transports in " + MOUNTSTATS + " are "
                    + String.join(", ", others) + ": that share of its I/O goes over "
                    + String.join("/", others.stream().map(t -> t.toUpperCase(java.util.Locale.ROOT)).toList())
                    + ". Remount it with only " + rdmaProto + " (no trunking over TCP addresses): `umount " + point
                    + "`, then `mount -o " + rdmaProto + ",port=" + RDMA_PORT + "`",
                    point + " " + (transports.size() - rdma) + " non-rdma transport(s)"));
        } else if (!moduleLoaded && facts.modules().isPresent()) {
            findings.add(Finding.of(Status.UNKNOWN, Reasons.SOURCES_DISAGREE, what + ") says proto=" + proto + " in " + MOUNTS
                    + " with " + transports.size() + " rdma transport(s) in " + MOUNTSTATS + ", but the kernel has no "
                    + String.join("/", RDMA_MODULES) + " module (" + MODULES + ", /sys/module): they cannot both be this "
                    + "host's. Run `lsmod | grep rpcrdma` and `nfsstat -m` on the node itself", point + ": the mount and "
                    + MODULES + " disagree"));
        } else {
            passed.add(what + ", " + transports.size() + " rdma transport(s))");
        }
    }

    /** Whether GDS can read NFS over RDMA directly here: rpcrdma registered with nvidia-fs, or why not. */
    private static String gdsNote(GdsView gds, Details details) {
        boolean registered = gds.registered().map(r -> r.registered("rpcrdma")).orElse(false);
        boolean hook = gds.hooks().map(h -> h.exports(NVFS_HOOK)).orElse(false);
        details.put("gds", registered ? "rpcrdma registered with nvidia-fs" : hook ? "rpcrdma not registered, exports "
                + NVFS_HOOK : gds.registered().isEmpty() ? "unknown" : "rpcrdma not registered");
        if (registered) {
            return "; GDS: rpcrdma is registered with nvidia-fs (" + NVFS_MODULES + "), so cuFile can read these mounts "
                    + "straight into GPU memory";
        }
        if (gds.registered().isEmpty()) {
            return "; GDS: nvidia-fs is loaded but " + NVFS_MODULES + " cannot be read, so whether cuFile can read these "
                    + "mounts directly is not known";
        }
        return "; GDS: nvidia-fs is loaded but rpcrdma has not registered with it (" + NVFS_MODULES + "), so cuFile reads "
                + "of these mounts go through compat mode" + (hook ? ": rpcrdma exports " + NVFS_HOOK + ", so it was loaded "
                + "after nvidia-fs; reload nvidia-fs" : gds.hooks().isPresent() ? ": the running rpcrdma exports no " + NVFS_HOOK
                + " (the stock driver; GDS needs MLNX_OFED/DOCA-OFED's, installed with --with-nfsrdma)" : "")
                + ". GdsReady with gds.filesystems [nfs] fails on it";
    }
}
