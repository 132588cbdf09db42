package io.rdmastorage.probe.check;

import static io.rdmastorage.contract.checks.GdsReady.*;

import io.rdmastorage.contract.CheckType;
import io.rdmastorage.contract.InventoryFact;
import io.rdmastorage.contract.Reasons;
import io.rdmastorage.contract.Status;
import io.rdmastorage.contract.spec.ProbeSpec;
import io.rdmastorage.probe.host.HostRoot;
import io.rdmastorage.probe.host.ToolResult;
import io.rdmastorage.probe.parse.CufileJson;
import io.rdmastorage.probe.parse.GdscheckReport.DriverSupport;
import io.rdmastorage.probe.parse.GdscheckReport;
import io.rdmastorage.probe.parse.KernelCmdline;
import io.rdmastorage.probe.parse.LoadedModules;
import io.rdmastorage.probe.parse.NvfsHookSymbols;
import io.rdmastorage.probe.parse.NvidiaFsModules;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;

/**
 * GPUDirect Storage fails silently: with nvidia-fs missing, the IOMMU on, a storage driver that never
 * registered with nvidia-fs, or compat mode allowed, cuFile still works, through a POSIX bounce
 * buffer. This check reads {@code gdscheck -p} and then verifies what it cannot show: the
 * registrations in {@code /proc/driver/nvidia-fs/modules} and {@code /proc/kallsyms}, the IOMMU in
 * the boot parameters and sysfs, compat mode in {@code /etc/cufile.json}, and whether GPU and RDMA NIC
 * share a PCIe switch with no ACS redirect between them ({@link GdsTopology}); gdscheck's Userspace RDMA rows where the spec requires cuFile's own RDMA path;
 * and what nvidia-fs itself counted of the I/O it served ({@link GdsDataPath}).
 */
public final class GdsReadyCheck extends FactsCheck<GdsReadyCheck.Facts> {

    static final String NVFS_PROC = "/proc/driver/nvidia-fs";
    static final String NVFS_MODULES = "/proc/driver/nvidia-fs/modules";
    static final String KALLSYMS = "/proc/kallsyms";
    static final String CMDLINE = "/proc/cmdline";
    static final String IOMMU_GROUPS = "/sys/kernel/iommu_groups";
    static final String IOMMU_UNITS = "/sys/class/iommu";
    static final String MODULES = "/proc/modules";
    static final String CUFILE_JSON = "/etc/cufile.json";
    private static final String RELOAD_NVFS = "`modprobe -r nvidia_fs && modprobe nvidia_fs`";

    /** The spec's file system names and the DRIVER CONFIGURATION rows of gdscheck that serve them. */
    private static final Map<String, List<String>> GDSCHECK_ROWS = Map.of(
            "nvme", List.of("NVMe"),
            "nvmeof", List.of("NVMeOF"),
            "scsi", List.of("SCSI"),
            // the product was renamed IBM Storage Scale; accept either spelling of the row
            "gpfs", List.of("IBM Spectrum Scale", "IBM Storage Scale"),
            "nfs", List.of("NFS"),
            // GDS 1.16 added a separate row for Amazon's Lustre; both are Lustre clients
            "lustre", List.of("DDN EXAScaler", "FSx Lustre"),
            "beegfs", List.of("BeeGFS"),
            "wekafs", List.of("WekaFS"));

    /** What to do when a file system is not served directly. */
    private static final Map<String, String> FILESYSTEM_FIXES = Map.of(
            "nvme", "install the GDS-enabled NVMe driver (MLNX_OFED/DOCA-OFED with --with-nvmf) and reload nvidia-fs",
            "nvmeof", "install the GDS-enabled nvme-rdma driver (MLNX_OFED/DOCA-OFED with --with-nvmf) and reload nvidia-fs",
            "scsi", "use a SCSI stack with GDS support and reload nvidia-fs",
            "gpfs", "enable GDS in GPFS (`mmchconfig verbsGPUDirectStorage=yes`, with verbsRdma enabled) and restart GPFS on this node",
            "nfs", "mount NFS over RDMA (proto=rdma) with the GDS-enabled rpcrdma (MLNX_OFED/DOCA-OFED with --with-nfsrdma)",
            "lustre", "install the Lustre/EXAScaler client built with GDS support",
            "beegfs", "install the BeeGFS client built with GDS support",
            "wekafs", "enable GDS in the WekaFS client");

    /**
     * Kernel drivers that serve a file system only after registering with nvidia-fs: the key nvidia-fs
     * lists them under, and the registration hooks a GDS-enabled build of the driver exports.
     */
    private record Backend(String filesystem, String driver, String nvfsKey, List<String> hooks, String ofedOption) {

        String hookNames() {
            return String.join("/", hooks);
        }

        String install() {
            return "Install the GDS-enabled " + driver + " driver (MLNX_OFED/DOCA-OFED with " + ofedOption
                    + "), then reload nvidia-fs: " + RELOAD_NVFS;
        }
    }

    private static final List<Backend> BACKENDS = List.of(
            new Backend("nvme", "nvme", "nvme", List.of("nvme_v1_register_nvfs_dma_ops", "nvme_v2_register_nvfs_dma_ops"),
                    "--with-nvmf"),
            new Backend("nvmeof", "nvme-rdma", "nvme_rdma", List.of("nvme_rdma_v1_register_nvfs_dma_ops"), "--with-nvmf"),
            new Backend("nfs", "rpcrdma", "rpcrdma", List.of("rpcrdma_register_nvfs_dma_ops"), "--with-nfsrdma"));

    /** Without a spec, judge with the defaults: IOMMU must be off, nothing else is required. */
    private static final ProbeSpec.Gds DEFAULTS = new ProbeSpec.Gds(null, null, null, null);

    /**
     * What the host shows. Sources the spec does not need are not read (empty).
     *
     * @param gdscheck     the run of {@code gdscheck -p} (or gdscheck.py)
     * @param cmdline      /proc/cmdline
     * @param iommuGroups  how many entries /sys/kernel/iommu_groups has; empty when it is not a directory
     * @param nvfsModules  /proc/driver/nvidia-fs/modules
     * @param hooks        the nvfs registration symbols of /proc/kallsyms, read when a backend must be registered
     * @param cufileJson   the text of /etc/cufile.json
     * @param topology     the GPUs' and NICs' PCIe places and the ACS of the bridges between them (read with
     *                     requireNicGpuSameSwitch)
     * @param dataPath     nvidia-fs's counters and their switch (read where /proc/driver/nvidia-fs exists)
     */
    public record Facts(ToolResult gdscheck, Optional<KernelCmdline> cmdline, OptionalInt iommuGroups,
                        Optional<NvidiaFsModules> nvfsModules, Optional<NvfsHookSymbols> hooks, Optional<String> cufileJson,
                        GdsTopology.View topology, KernelView kernel, GdsDataPath.View dataPath) {

        /** Without nvidia-fs's counters: the facts as they were before the data path was judged. */
        public Facts(ToolResult gdscheck, Optional<KernelCmdline> cmdline, OptionalInt iommuGroups,
                     Optional<NvidiaFsModules> nvfsModules, Optional<NvfsHookSymbols> hooks, Optional<String> cufileJson,
                     GdsTopology.View topology, KernelView kernel) {
            this(gdscheck, cmdline, iommuGroups, nvfsModules, hooks, cufileJson, topology, kernel, GdsDataPath.View.NOT_READ);
        }
    }

    /**
     * The kernel's own view, to hold gdscheck's against, and which parts of the host could be seen.
     *
     * @param iommuUnits   entries of /sys/class/iommu (dmar0, ivhd0: IOMMU units the kernel drives); empty when absent
     * @param modules      /proc/modules
     * @param nvfsProc     whether /proc/driver/nvidia-fs exists (nvidia-fs creates it when it loads)
     * @param hostRoot     where the host's file system is seen, for messages
     * @param missing      the parts of the host's file system that are not visible at all
     */
    public record KernelView(OptionalInt iommuUnits, Optional<LoadedModules> modules, boolean nvfsProc, String hostRoot,
                         Set<HostView> missing) {

        /** What the kernel says about nvidia_fs: loaded, not loaded, or nothing (no /proc to look at). */
        Optional<Boolean> nvidiaFs() {
            if (nvfsProc || modules.map(m -> m.loaded("nvidia_fs")).orElse(false)) {
                return Optional.of(true);
            }
            return modules.isPresent() ? Optional.of(false) : Optional.empty();
        }
    }

    @Override
    public CheckType type() {
        return CheckType.GDS_READY;
    }

    @Override
    public boolean applies(ProbeContext context) {
        if (!context.discovery()) {
            return context.spec().gds() != null;
        }
        return context.tools().locate("gdscheck").isPresent() || context.tools().locate("gdscheck.py").isPresent()
                || context.host().exists(NVFS_PROC);
    }

    @Override
    protected Facts gather(ProbeContext context) {
        HostRoot host = context.host();
        ProbeSpec.Gds gds = context.spec().gds() != null ? context.spec().gds() : DEFAULTS;
        ToolResult run = context.tools().run("gdscheck", "-p");
        if (run.ending() == ToolResult.Ending.NOT_FOUND) {
            run = context.tools().run("gdscheck.py", "-p");
        }
        boolean backendRequired = BACKENDS.stream().anyMatch(b -> gds.filesystems().contains(b.filesystem()));
        boolean topology = gds.requireNicGpuSameSwitch();
        return new Facts(run,
                host.read(CMDLINE).map(KernelCmdline::parse),
                entryCount(host, IOMMU_GROUPS),
                host.read(NVFS_MODULES).map(NvidiaFsModules::parse),
                backendRequired ? host.read(KALLSYMS).map(NvfsHookSymbols::scan) : Optional.empty(),
                host.read(CUFILE_JSON),
                topology ? GdsTopology.read(host, context.ports(), context.spec()) : GdsTopology.View.NOT_READ,
                new KernelView(entryCount(host, IOMMU_UNITS),
                        host.read(MODULES).map(LoadedModules::parse), host.exists(NVFS_PROC), host.root().toString(),
                        HostView.missing(host, HostView.SYSFS, HostView.PROCFS, HostView.ETC)),
                // read on every probe, not kept: the counters move between probes
                new GdsDataPath.View(host.read(GdsDataPath.STATS), host.readAttribute(GdsDataPath.RW_STATS_PARAM)));
    }

    /** How many entries a directory has; empty when it is absent or cannot be listed (not zero: no IOMMU is evidence). */
    private static OptionalInt entryCount(HostRoot host, String dir) {
        return host.entries(dir).map(e -> OptionalInt.of(e.size())).orElse(OptionalInt.empty());
    }

    @Override
    protected Judgement judge(Facts facts, ProbeSpec spec) {
        boolean required = spec.gds() != null;
        ProbeSpec.Gds gds = required ? spec.gds() : DEFAULTS;
        ToolResult result = facts.gdscheck();
        Details none = new Details();
        if (result.ending() == ToolResult.Ending.NOT_FOUND) {
            return Judgement.only(Finding.of(required ? Status.FALSE : Status.UNKNOWN, GDSCHECK_NOT_FOUND,
                    "gdscheck is not installed (looked in /usr/local/cuda/gds/tools, /usr/local/cuda-*/gds/tools "
                            + "and PATH), so GDS cannot be verified. Install the GDS tools (package gds-tools-<cuda "
                            + "version>, part of nvidia-gds) or name the tool with --tool gdscheck=PATH"), none);
        }
        if (!result.ran()) {
            return Judgement.only(ToolFindings.cannotTell(result, false,
                    "Run `/usr/local/cuda/gds/tools/gdscheck -p` on the node and check that the NVIDIA driver responds"), none);
        }
        Optional<GdscheckReport> parsed = GdscheckReport.parse(result.stdout());
        if (parsed.isEmpty()) {
            return Judgement.only(result.succeeded()
                    ? ToolFindings.unparseable(result, "a gdscheck -p report")
                    : ToolFindings.cannotTell(result, false,
                            "Run `/usr/local/cuda/gds/tools/gdscheck -p` by hand and fix what it reports"), none);
        }
        return judge(facts, gds, parsed.get());
    }

    /** The GDS and nvidia_fs versions gdscheck prints; no gdscheck is GDS not installed. */
    @Override
    protected void inventory(Facts facts, Inventory into) {
        if (facts.gdscheck().ending() == ToolResult.Ending.NOT_FOUND) {
            into.notInstalled(InventoryFact.GDS);
            return;
        }
        if (!facts.gdscheck().ran()) {
            return;
        }
        GdscheckReport.parse(facts.gdscheck().stdout()).ifPresent(report -> {
            report.gdsVersion().ifPresent(v -> into.put(InventoryFact.GDS, v));
            into.put(InventoryFact.NVIDIA_FS, report.nvidiaFsVersion().orElse("not loaded"));
        });
    }

    @Override
    protected Findings.Mention mention() {
        return Findings.Mention.REASONS;
    }

    private static Judgement judge(Facts facts, ProbeSpec.Gds gds, GdscheckReport report) {
        Details details = new Details();
        report.gdsVersion().ifPresent(v -> details.put("gdsVersion", v));
        details.put("nvidiaFs", report.nvidiaFsVersion().orElse("not loaded"));
        List<Finding> findings = new ArrayList<>();
        List<String> passed = new ArrayList<>();

        nvidiaFs(facts.kernel(), report, findings, passed);
        iommu(facts, gds, report, details, findings, passed);
        if (report.nvidiaFsLoaded()) {
            backends(facts, gds, details, findings);
        }
        filesystems(gds, report, details, findings, passed);
        userspaceRdma(gds, report, details, findings, passed);
        compatMode(facts, gds, report, details, findings);
        if (report.nvidiaFsLoaded()) {
            GdsDataPath.judge(facts.dataPath(), gds, missingView(facts, HostView.PROCFS), details, findings, passed);
        }
        if (gds.requireNicGpuSameSwitch()) {
            GdsTopology.judge(facts.topology(), missingView(facts, HostView.SYSFS), details, findings, passed);
        }
        return Judgement.of(findings, Finding.passed(GDS_READY, "GDS is ready: " + String.join("; ", passed)), details);
    }

    /**
     * gdscheck opens nvidia-fs as cuFile does, so it is the stronger source: the kernel having the
     * module while gdscheck cannot see it is still a bounce buffer (False); gdscheck seeing a module
     * the kernel does not list cannot be a clean True.
     */
    private static void nvidiaFs(KernelView kernel, GdscheckReport report, List<Finding> findings, List<String> passed) {
        Optional<Boolean> inKernel = kernel.nvidiaFs();
        if (!report.nvidiaFsLoaded()) {
            findings.add(Finding.of(Status.FALSE, NVIDIA_FS_MISSING, inKernel.orElse(false)
                    ? "gdscheck -p shows no nvidia_fs version although the kernel has the nvidia_fs module loaded ("
                            + (kernel.nvfsProc() ? NVFS_PROC + " exists" : MODULES + " lists it") + "): cuFile cannot reach "
                            + "it, so its I/O goes through a POSIX bounce buffer. Check that /dev/nvidia-fs* exist and that "
                            + "nvidia_fs matches the running NVIDIA driver (`ls -l /dev/nvidia-fs*`, `dmesg | grep -i nvidia_fs`), "
                            + "then run `gdscheck -p` again"
                    : nvidiaFsMissing(report)));
        } else if (!inKernel.orElse(true)) {
            findings.add(Finding.of(Status.UNKNOWN, Reasons.SOURCES_DISAGREE, "gdscheck -p shows nvidia_fs "
                    + report.nvidiaFsVersion().get() + " loaded, but the kernel lists no nvidia_fs module (" + MODULES
                    + ") and there is no " + NVFS_PROC + ": one of them is not this host's. Run `lsmod | grep nvidia_fs` "
                    + "and `gdscheck -p` on the node itself to settle it", "nvidia_fs: gdscheck and " + MODULES + " disagree"));
        } else {
            passed.add("nvidia_fs " + report.nvidiaFsVersion().get() + " loaded");
        }
    }

    private static String nvidiaFsMissing(GdscheckReport report) {
        String p2pdma = report.driver(List.of("NVMe P2PDMA")).filter(DriverSupport::direct).isPresent()
                ? " (only NVMe through PCI P2PDMA works without it)" : "";
        return "gdscheck -p shows no nvidia_fs version: the nvidia-fs kernel module is not loaded, so cuFile I/O "
                + "goes through a POSIX bounce buffer" + p2pdma + ". Load it with `modprobe nvidia_fs` (package "
                + "nvidia-fs or nvidia-fs-dkms, built for the running kernel) and have it loaded at boot";
    }

    /**
     * gdscheck is what GDS itself sees; the kernel's IOMMU groups and units, and the boot parameters
     * when sysfs cannot tell, are its view. They stand in when gdscheck prints no IOMMU state, and
     * when both answer and disagree the verdict is never a clean True: gdscheck saying enabled is
     * the problem (False), gdscheck saying disabled against a kernel that remaps is Unknown.
     */
    private static void iommu(Facts facts, ProbeSpec.Gds gds, GdscheckReport report, Details result,
                              List<Finding> findings, List<String> passed) {
        Optional<KernelCmdline> cmdline = facts.cmdline();
        int groups = facts.iommuGroups().orElse(-1);
        int units = facts.kernel().iommuUnits().orElse(-1);
        List<String> evidence = new ArrayList<>();
        Optional<Boolean> gdscheck = report.iommuEnabled();
        gdscheck.ifPresent(e -> evidence.add("gdscheck: " + (e ? "enabled" : "disabled")));
        cmdline.ifPresent(c -> evidence.add("cmdline: "
                + (c.iommuParameters().isEmpty() ? "no iommu parameter" : String.join(" ", c.iommuParameters()))));
        if (groups >= 0) {
            evidence.add("iommu_groups: " + groups);
        }
        if (units > 0) {
            evidence.add("iommu units: " + units);
        }
        Optional<Boolean> kernel;
        if (groups > 0 || units > 0) {
            kernel = Optional.of(true);
        } else if (groups == 0) {
            kernel = Optional.of(false);
        } else {
            kernel = cmdline.flatMap(c -> switch (c.iommu()) {
                case OFF -> Optional.of(false);
                case ON, PASSTHROUGH -> Optional.of(true);
                case UNSPECIFIED -> Optional.<Boolean>empty();
            });
        }
        Optional<Boolean> enabled = gdscheck.or(() -> kernel);
        boolean disagree = gdscheck.isPresent() && kernel.isPresent() && !gdscheck.equals(kernel);
        result.put("iommu", disagree ? "disputed" : enabled.map(e -> e ? "enabled" : "disabled").orElse("unknown"));
        result.put("iommuEvidence", String.join("; ", evidence));
        if (!gds.requireIommuDisabled()) {
            return;
        }
        String kernelSays = kernelIommu(groups, units, cmdline);
        if (enabled.isEmpty()) {
            findings.add(missingView(facts, HostView.SYSFS, HostView.PROCFS).orElseGet(() -> Finding.of(Status.UNKNOWN,
                    IOMMU_STATE_UNKNOWN, "cannot tell whether the IOMMU is enabled: gdscheck -p printed no IOMMU state, " + CMDLINE
                            + " has no iommu parameter and " + IOMMU_GROUPS + " cannot be read. Run `dmesg | grep -i iommu` "
                            + "on the node; if it is on, add intel_iommu=off or amd_iommu=off to the kernel command line")));
        } else if (disagree && !gdscheck.get()) {
            findings.add(Finding.of(Status.UNKNOWN, Reasons.SOURCES_DISAGREE,
                    "gdscheck -p says the IOMMU is disabled, but the kernel shows it on (" + kernelSays + "): if the "
                            + "kernel is right, GPU-to-storage DMA is remapped and GDS falls back to the bounce buffer. Settle "
                            + "it on the node with `dmesg | grep -i -e DMAR -e IOMMU` and `ls /sys/kernel/iommu_groups`; if "
                            + "the IOMMU is on, add intel_iommu=off (Intel) or amd_iommu=off (AMD) to the kernel command line "
                            + "and reboot", "IOMMU: gdscheck and the kernel disagree"));
        } else if (enabled.get()) {
            boolean passthrough = cmdline.map(c -> c.iommu() == KernelCmdline.IommuRequest.PASSTHROUGH).orElse(false);
            findings.add(Finding.of(Status.FALSE, IOMMU_ENABLED,
                    "the IOMMU is enabled (" + String.join("; ", evidence) + "): GPU-to-storage DMA is remapped, so GDS "
                            + "fails or falls back to the bounce buffer. Add intel_iommu=off (Intel) or amd_iommu=off (AMD) "
                            + "to GRUB_CMDLINE_LINUX_DEFAULT, regenerate the GRUB configuration and reboot"
                            + (passthrough ? "; passthrough (iommu=pt) is supported by NVIDIA only on some platforms such "
                            + "as DGX: on those, set requireIommuDisabled: false" : "")
                            + (disagree ? ". gdscheck, which sees what GDS sees, says enabled although the kernel shows it "
                            + "off (" + kernelSays + "); `dmesg | grep -i -e DMAR -e IOMMU` tells which is stale" : "")));
        } else {
            passed.add("IOMMU disabled");
        }
    }

    /** The kernel's IOMMU evidence in words, for a message that names both sources. */
    private static String kernelIommu(int groups, int units, Optional<KernelCmdline> cmdline) {
        List<String> said = new ArrayList<>();
        if (groups >= 0) {
            said.add(groups + " IOMMU group(s) in " + IOMMU_GROUPS);
        }
        if (units >= 0) {
            said.add(units + " IOMMU unit(s) in " + IOMMU_UNITS);
        }
        cmdline.filter(c -> !c.iommuParameters().isEmpty())
                .ifPresent(c -> said.add(String.join(" ", c.iommuParameters()) + " in " + CMDLINE));
        return String.join(", ", said);
    }

    /** The first of these parts of the host that the probe cannot see, as the finding that says what to mount. */
    private static Optional<Finding> missingView(Facts facts, HostView... views) {
        for (HostView view : views) {
            if (facts.kernel().missing().contains(view)) {
                return Optional.of(view.missing(facts.kernel().hostRoot()));
            }
        }
        return Optional.empty();
    }

    /** For each required backend that is only served after its kernel driver registered with nvidia-fs. */
    private static void backends(Facts facts, ProbeSpec.Gds gds, Details result, List<Finding> findings) {
        List<Backend> required = BACKENDS.stream().filter(b -> gds.filesystems().contains(b.filesystem())).toList();
        Optional<NvidiaFsModules> modules = facts.nvfsModules();
        modules.ifPresent(m -> result.list("nvfsModules", List.copyOf(m.modules().keySet())));
        if (required.isEmpty()) {
            return;
        }
        Optional<NvfsHookSymbols> hooks = facts.hooks();
        hooks.ifPresent(h -> result.list("nvfsHooks", List.copyOf(h.registrationSymbols())));
        List<String> problems = new ArrayList<>();
        List<String> unknown = new ArrayList<>();
        for (Backend b : required) {
            boolean exported = hooks.map(h -> b.hooks().stream().anyMatch(h::exports)).orElse(false);
            if (modules.isPresent() && !modules.get().registered(b.nvfsKey())) {
                String listed = NVFS_MODULES + (modules.get().modules().isEmpty() ? " lists no driver"
                        : " lists only " + String.join(", ", modules.get().modules().keySet()));
                problems.add(exported
                        ? b.filesystem() + ": the " + b.driver() + " driver exports " + b.hookNames() + " but has not "
                                + "registered with nvidia-fs (" + listed + "), most likely because it was loaded after "
                                + "nvidia-fs. Reload nvidia-fs: " + RELOAD_NVFS
                        : b.filesystem() + ": the " + b.driver() + " driver has not registered with nvidia-fs (" + listed
                                + ") and " + (hooks.isPresent() ? "exports no " + b.hookNames() + ": it is the stock driver"
                                : KALLSYMS + " is unreadable") + ", so GDS there silently runs in compat mode. " + b.install());
            } else if (modules.isEmpty() && hooks.isEmpty()) {
                unknown.add(b.filesystem());
            } else if (modules.isEmpty() && !exported) {
                problems.add(b.filesystem() + ": the running " + b.driver() + " driver exports no " + b.hookNames()
                        + ": it is the stock driver and cannot register with nvidia-fs. " + b.install());
            }
            // no modules file but the hook exported: nvidia-fs registers every driver exporting it when it loads
        }
        if (!problems.isEmpty()) {
            findings.add(Finding.of(Status.FALSE, BACKEND_NOT_REGISTERED, String.join("; ", problems)));
        } else if (!unknown.isEmpty()) {
            findings.add(missingView(facts, HostView.PROCFS).orElseGet(() -> Finding.of(Status.UNKNOWN, BACKEND_REGISTRATION_UNKNOWN,
                    "cannot tell whether the drivers for " + String.join(", ", unknown) + " registered with nvidia-fs: "
                            + NVFS_MODULES + " and " + KALLSYMS + " are unreadable. Check that the probe sees the host's /proc")));
        }
    }

    private static void filesystems(ProbeSpec.Gds gds, GdscheckReport report, Details result,
                                    List<Finding> findings, List<String> passed) {
        if (gds.filesystems().isEmpty()) {
            // nothing named: GDS is only worth having if it serves something directly
            List<String> direct = report.drivers().entrySet().stream()
                    .filter(r -> !r.getKey().equalsIgnoreCase("Userspace RDMA"))
                    .map(r -> new DriverSupport(r.getKey(), r.getValue()))
                    .filter(DriverSupport::direct)
                    .map(DriverSupport::row)
                    .toList();
            result.list("direct", direct);
            if (direct.isEmpty() && !report.drivers().isEmpty()) {
                findings.add(Finding.of(Status.FALSE, FILESYSTEM_UNSUPPORTED,
                        "gdscheck -p shows no file system or driver served directly (every DRIVER CONFIGURATION row is "
                                + "Unsupported or compat only): all cuFile I/O goes through compat mode. Set up GDS for the "
                                + "storage this node uses and list it in gds.filesystems"));
            } else if (!direct.isEmpty()) {
                passed.add("served directly: " + String.join(", ", direct));
            }
            return;
        }
        List<String> shown = new ArrayList<>();
        List<String> unsupported = new ArrayList<>();
        List<String> fixes = new ArrayList<>();
        for (String fs : gds.filesystems()) {
            Optional<DriverSupport> row = report.driver(GDSCHECK_ROWS.get(fs));
            String seen = row.map(DriverSupport::toString).orElse(GDSCHECK_ROWS.get(fs).get(0) + ": not listed");
            shown.add(fs + " (" + seen + ")");
            if (row.filter(DriverSupport::direct).isEmpty()) {
                unsupported.add(fs + " (" + seen + ")");
                fixes.add("for " + fs + ", " + FILESYSTEM_FIXES.get(fs));
            }
        }
        result.list("filesystems", shown);
        if (unsupported.isEmpty()) {
            passed.add(String.join(", ", shown) + " served directly");
        } else {
            findings.add(Finding.of(Status.FALSE, FILESYSTEM_UNSUPPORTED,
                    "gdscheck -p shows " + String.join(", ", unsupported) + " not served by GDS: cuFile I/O there silently "
                            + "uses compat mode (POSIX reads through a bounce buffer). To fix: " + String.join("; ", fixes)));
        }
    }

    /**
     * cuFile's own RDMA path (libcufile_rdma over the devices of cufile.json's rdma_dev_addr_list): what
     * distributed file systems use to move data straight into GPU memory. gdscheck shows whether the
     * library loaded, whether devices are configured and how many are up.
     */
    private static void userspaceRdma(ProbeSpec.Gds gds, GdscheckReport report, Details result, List<Finding> findings,
                                      List<String> passed) {
        GdscheckReport.UserspaceRdma rdma = report.userspaceRdma();
        String shown = "Userspace RDMA " + rdma.row().map(DriverSupport::value).orElse("not listed")
                + rdma.library().map(l -> "; rdma library " + l).orElse("")
                + rdma.devices().map(d -> "; rdma devices " + d).orElse("")
                + (rdma.up().isPresent() ? "; Up: " + rdma.up().getAsInt() + " Down: " + rdma.down().getAsInt() : "");
        if (rdma.shown()) {
            result.put("userspaceRdma", shown);
        }
        if (!gds.requireUserspaceRdma()) {
            return;
        }
        String fixDevices = "list the RDMA NICs' IP addresses in properties.rdma_dev_addr_list of " + CUFILE_JSON;
        if (!rdma.shown()) {
            findings.add(Finding.of(Status.UNKNOWN, USERSPACE_RDMA_UNKNOWN,
                    "gdscheck -p printed no Userspace RDMA rows (no \"Userspace RDMA\", \"--rdma devices\" or "
                            + "\"--rdma_device_status\" below DRIVER CONFIGURATION), so cuFile's RDMA path cannot be told. "
                            + "Run `gdscheck -p` on the node; GDS releases before 1.0 do not print it"));
        } else if (rdma.row().filter(DriverSupport::direct).isEmpty()) {
            findings.add(Finding.of(Status.FALSE, USERSPACE_RDMA_UNSUPPORTED,
                    "gdscheck -p shows " + shown + ": cuFile cannot move data over RDMA itself, so a file system "
                            + "that relies on it falls back to compat mode. Install libcufile_rdma (part of the GDS "
                            + "packages, with rdma-core's libibverbs), " + fixDevices + ", and check `gdscheck -p` again"));
        } else if (!rdma.devicesConfigured().orElse(true)) {
            findings.add(Finding.of(Status.FALSE, RDMA_DEVICES_NOT_CONFIGURED,
                    "gdscheck -p shows " + shown + ": no RDMA device is configured for cuFile, so its RDMA path carries "
                            + "nothing. To fix: " + fixDevices));
        } else if (rdma.down().orElse(0) > 0 || rdma.up().orElse(1) == 0) {
            findings.add(Finding.of(Status.FALSE, RDMA_DEVICES_DOWN,
                    "gdscheck -p shows " + shown + ": " + (rdma.down().orElse(0) > 0 ? rdma.down().getAsInt()
                            + " of cuFile's RDMA devices are down" : "none of cuFile's RDMA devices is up") + ", so its "
                            + "RDMA I/O runs on fewer links or none. Check the ports with `ibstat` / `rdma link` and the "
                            + "addresses in rdma_dev_addr_list (each must be an RDMA NIC's address on this node)"));
        } else {
            passed.add(shown.replace("; ", ", "));
        }
    }

    private static void compatMode(Facts facts, ProbeSpec.Gds gds, GdscheckReport report, Details result,
                                   List<Finding> findings) {
        Optional<String> text = facts.cufileJson();
        Optional<CufileJson> json = text.flatMap(CufileJson::parse);
        if (text.isPresent() && json.isEmpty()) {
            result.put("cufileJson", "unparseable");
        }
        // gdscheck prints the effective setting as use_compat_mode; cufile.json is what an admin edits
        Optional<Boolean> effective = report.cufileFlag("use_compat_mode");
        boolean allowed = json.isPresent()
                ? json.get().compatModeAllowed() || effective.orElse(false)
                : effective.orElse(true);
        boolean forced = json.flatMap(CufileJson::forceCompatMode).orElse(false)
                || report.cufileFlag("force_compat_mode").orElse(false);
        result.put("compatMode", forced ? "forced" : allowed ? "allowed" : "forbidden");
        String where = json.isPresent() ? CUFILE_JSON : "gdscheck's CUFILE CONFIGURATION (" + CUFILE_JSON + " unreadable)";
        if (json.isPresent() && !json.get().compatModeAllowed() && effective.orElse(false)) {
            // the effective value is what cuFile does: the file the admin edited is not the one in effect
            where = "gdscheck's effective use_compat_mode (true, although " + CUFILE_JSON + " sets allow_compat_mode "
                    + "false: cuFile reads another file, see CUFILE_ENV_PATH_JSON)";
        }
        if (!forced && json.isEmpty() && effective.isEmpty() && gds.forbidCompatMode()
                && facts.kernel().missing().contains(HostView.ETC)) {
            // no cufile.json to read and no effective value: cuFile's default is not evidence when /etc is not visible
            findings.add(HostView.ETC.missing(facts.kernel().hostRoot()));
            return;
        }
        if (forced) {
            findings.add(Finding.of(Status.FALSE, COMPAT_MODE_FORCED,
                    where + " forces compat mode (properties.force_compat_mode: true): every cuFile read and write goes "
                            + "through POSIX and GDS is never used. Set \"force_compat_mode\": false in the properties "
                            + "section of " + CUFILE_JSON));
        } else if (allowed && gds.forbidCompatMode()) {
            findings.add(Finding.of(Status.FALSE, COMPAT_MODE_ALLOWED,
                    where + " allows compat mode (properties.allow_compat_mode is true or unset, which defaults to true): "
                            + "where GDS cannot serve a file, cuFile silently falls back to POSIX reads through a bounce "
                            + "buffer instead of failing. Set \"allow_compat_mode\": false in the properties section of "
                            + CUFILE_JSON + " (and in any file applications name with CUFILE_ENV_PATH_JSON)"));
        }
    }
}
