package io.rdmastorage.probe.check;

import static io.rdmastorage.contract.checks.RdmaDevices.*;

import io.rdmastorage.contract.CheckType;
import io.rdmastorage.contract.InventoryFact;
import io.rdmastorage.contract.Status;
import io.rdmastorage.contract.spec.ByteQuantity;
import io.rdmastorage.contract.spec.DevicePort;
import io.rdmastorage.contract.spec.ProbeSpec;
import io.rdmastorage.probe.host.HostRoot;
import io.rdmastorage.probe.parse.ProcLimits;
import io.rdmastorage.probe.ports.DeviceNodes;
import io.rdmastorage.probe.ports.PortView;
import io.rdmastorage.probe.parse.SysfsIbPort;
import io.rdmastorage.probe.verbs.Errno;
import io.rdmastorage.probe.verbs.UserspaceVerbs;
import io.rdmastorage.probe.verbs.VerbsReport.DeviceTest;
import io.rdmastorage.probe.verbs.VerbsReport.Failure;
import io.rdmastorage.probe.verbs.VerbsReport.PortAttributes;
import io.rdmastorage.probe.verbs.VerbsReport;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * RDMA ports as the host's sysfs shows them ({@code /sys/class/infiniband/<dev>/ports/<n>/}):
 * the expected HCA ports must exist and be ACTIVE with the link up. With
 * {@code rdma.userspaceVerbs}, each device must also open and register memory through libibverbs,
 * as a storage client in a pod would.
 *
 * <p>Without {@code rdma.devices} (and without a spec) every port found is reported and one
 * working port is enough: spare ports of dual-port cards are often not cabled.
 *
 * <p>The sysfs part reads the host under {@code --host-root}; user-space verbs run in the probe's
 * own container (see {@link UserspaceVerbs}), so they are tried only once sysfs says the ports work.
 */
public final class RdmaDevicesCheck extends FactsCheck<RdmaDevicesCheck.Facts> {

    static final String SYSFS_CLASS = PortView.IB_CLASS;


    /**
     * What the host shows.
     *
     * @param hostRoot     where the host's file system is seen, for messages
     * @param sysfsVisible whether the host's /sys is there at all ({@link HostView#SYSFS})
     * @param devices      the entries of /sys/class/infiniband
     * @param ports   every port of those devices, by {@code device/port}
     * @param verbs   the user-space verbs attempt, made only when asked for and sysfs says the ports work
     * @param links   GIDs, netdev MTUs, PCIe links and firmware: the link expectations and the fleet's facts
     * @param nodes   the uverbs/umad/issm character devices sysfs announces, against the host's /dev/infiniband
     * @param log     the mlx5 fault signatures of the host's kernel log
     * @param computeNics the devices {@code rdma.storageNics} leaves out, by name: {@code devices} and
     *                {@code ports} are the storage NICs' only
     */
    public record Facts(String hostRoot, boolean sysfsVisible, List<String> devices, Map<String, SysfsIbPort> ports,
                        Optional<VerbsAttempt> verbs, RdmaLinks.Facts links, DeviceNodes nodes, RdmaKernelLog.Facts log,
                        List<String> computeNics) {

        public Facts {
            computeNics = List.copyOf(computeNics);
        }

        /** Without storage NICs named: every device carries storage. */
        public Facts(String hostRoot, boolean sysfsVisible, List<String> devices, Map<String, SysfsIbPort> ports,
                     Optional<VerbsAttempt> verbs, RdmaLinks.Facts links, DeviceNodes nodes, RdmaKernelLog.Facts log) {
            this(hostRoot, sysfsVisible, devices, ports, verbs, links, nodes, log, List.of());
        }

        /** Without kernel-log facts: a host whose log was read and shows no mlx5 signature. */
        public Facts(String hostRoot, boolean sysfsVisible, List<String> devices, Map<String, SysfsIbPort> ports,
                     Optional<VerbsAttempt> verbs, RdmaLinks.Facts links, DeviceNodes nodes) {
            this(hostRoot, sysfsVisible, devices, ports, verbs, links, nodes, RdmaKernelLog.Facts.quiet());
        }

        /** Without device-node facts: sysfs announces no uverbs or umad nodes to compare with /dev. */
        public Facts(String hostRoot, boolean sysfsVisible, List<String> devices, Map<String, SysfsIbPort> ports,
                     Optional<VerbsAttempt> verbs, RdmaLinks.Facts links) {
            this(hostRoot, sysfsVisible, devices, ports, verbs, links, DeviceNodes.none());
        }

        /** Without link facts: a host whose GIDs, MTUs and PCIe links show nothing to judge. */
        public Facts(String hostRoot, boolean sysfsVisible, List<String> devices, Map<String, SysfsIbPort> ports,
                     Optional<VerbsAttempt> verbs) {
            this(hostRoot, sysfsVisible, devices, ports, verbs, RdmaLinks.Facts.none());
        }
    }

    /**
     * One try of user-space verbs on the working ports.
     *
     * @param report  what libibverbs answered; empty when the binding itself failed
     * @param failure that failure ({@code UnsatisfiedLinkError: ...}) when it did
     */
    public record VerbsAttempt(Map<String, List<Integer>> wanted, Optional<VerbsReport> report, Optional<String> failure) {
    }

    /** The sysfs part's outcome; {@code working} are the ports the verdict rests on. */
    private record SysfsJudgement(List<Finding> findings, List<SysfsIbPort> working, String passedMessage) {
    }

    private final UserspaceVerbs verbs;

    public RdmaDevicesCheck() {
        this(UserspaceVerbs.system());
    }

    /** With another verbs implementation: tests use a fake for the device-present paths. */
    public RdmaDevicesCheck(UserspaceVerbs verbs) {
        this.verbs = verbs;
    }

    @Override
    public CheckType type() {
        return CheckType.RDMA_DEVICES;
    }

    /** Always in discovery: RDMA is the point of the product, so a node without it is news. */
    @Override
    public boolean applies(ProbeContext context) {
        return context.discovery() || context.spec().rdma() != null;
    }

    @Override
    protected Facts gather(ProbeContext context) {
        HostRoot host = context.host();
        ProbeSpec.Rdma rdma = context.spec().rdma();
        PortView view = context.ports();
        List<String> devices = view.deviceNames();
        Map<String, SysfsIbPort> ports = view.sysfsPorts();
        List<String> computeNics = context.storageNics().computeNics();
        Optional<VerbsAttempt> attempt = Optional.empty();
        if (rdma != null && rdma.userspaceVerbs() && !devices.isEmpty()) {
            SysfsJudgement sysfs = judgeSysfs(devices, ports, StorageNicPorts.expected(ports, computeNics, rdma));
            if (sysfs.findings().isEmpty()) {
                attempt = Optional.of(tryVerbs(sysfs.working()));
            }
        }
        return new Facts(host.root().toString(), view.sysfsVisible(), devices, ports, attempt, RdmaLinks.gather(host, view),
                DeviceNodes.read(host), RdmaKernelLog.gather(host, context.allPorts(), computeNics, context.now()), computeNics);
    }

    private VerbsAttempt tryVerbs(List<SysfsIbPort> working) {
        Map<String, List<Integer>> wanted = new LinkedHashMap<>();
        for (SysfsIbPort port : working) {
            wanted.computeIfAbsent(port.device(), d -> new ArrayList<>()).add(port.port());
        }
        try {
            return new VerbsAttempt(wanted, Optional.of(verbs.probe(wanted)), Optional.empty());
        } catch (RuntimeException | LinkageError e) {
            return new VerbsAttempt(wanted, Optional.empty(), Optional.of(e.getClass().getSimpleName()
                    + (e.getMessage() == null ? "" : ": " + e.getMessage())));
        }
    }

    /** A visible sysfs without RDMA devices has no HCA firmware: the odd node out when the others have one. */
    @Override
    protected void inventory(Facts facts, Inventory into) {
        if (facts.sysfsVisible() && facts.devices().isEmpty()) {
            into.notInstalled(InventoryFact.HCA_MODEL).notInstalled(InventoryFact.HCA_FIRMWARE).notInstalled(InventoryFact.RDMA_PORTS);
            return;
        }
        activePorts(facts.ports().values()).ifPresent(ports -> into.put(InventoryFact.RDMA_PORTS, ports));
        RdmaLinks.inventory(facts.links(), into);
    }

    /**
     * The ports ACTIVE with the link up, counted per rate ({@code 2 × 400 Gb/sec (4X NDR)}), for the
     * fleet to compare; empty when a port's state cannot be read (a count that may be short is no fact).
     */
    static Optional<String> activePorts(Collection<SysfsIbPort> ports) {
        if (ports.isEmpty() || ports.stream().anyMatch(p -> !p.readable())) {
            return Optional.empty();
        }
        Map<String, Long> perRate = new TreeMap<>(ports.stream().filter(SysfsIbPort::healthy)
                .collect(Collectors.groupingBy(p -> p.rate().isEmpty() ? "rate unknown" : p.rate(), Collectors.counting())));
        if (perRate.isEmpty()) {
            return Optional.of("none active");
        }
        return Optional.of(String.join(", ", perRate.entrySet().stream().map(e -> e.getValue() + " × " + e.getKey()).toList()));
    }

    @Override
    protected Judgement judge(Facts facts, ProbeSpec spec) {
        ProbeSpec.Rdma rdma = spec.rdma();
        Details details = new Details();
        if (!facts.sysfsVisible()) {
            // a probe that cannot see /sys knows nothing about the HCAs: never tell the admin to load a driver
            return Judgement.only(HostView.SYSFS.missing(facts.hostRoot()), details);
        }
        Optional<Finding> noStorageNic = StorageNicPorts.judge(facts.devices(), facts.computeNics(), rdma, details);
        if (noStorageNic.isPresent()) {
            return Judgement.only(noStorageNic.get(), details);
        }
        if (facts.devices().isEmpty()) {
            // /sys is there (net, block, ... have entries) but the RDMA class is not: no HCA or no driver
            return Judgement.only(Finding.of(Status.FALSE, NO_RDMA_DEVICES, "no RDMA devices under " + SYSFS_CLASS
                    + ": the HCA is missing or its driver is not loaded; check `lspci | grep -i -e mellanox -e infiniband`, "
                    + "`dmesg | grep -i mlx5`, then `modprobe mlx5_ib` and `ibv_devinfo`"), details);
        }
        details.list("ports", facts.ports().values().stream().map(SysfsIbPort::summary).toList());
        SysfsJudgement sysfs = judgeSysfs(facts.devices(), facts.ports(),
                StorageNicPorts.expected(facts.ports(), facts.computeNics(), rdma));
        Optional<VerbsReport> report = facts.verbs().flatMap(VerbsAttempt::report);
        List<Finding> findings = new ArrayList<>(sysfs.findings());
        findings.addAll(deviceNodes(facts, sysfs.working()));
        for (Finding logged : RdmaKernelLog.judge(facts.log(), rdma, facts.hostRoot(), details)) {
            if (!findings.contains(logged)) {
                findings.add(logged);
            }
        }
        findings.addAll(RdmaLinks.judge(facts.links(), rdma, sysfs.working(), report, details));
        String passedMessage = sysfs.passedMessage() + RdmaLinks.passedSuffix(facts.links(), sysfs.working(), rdma);
        if (!sysfs.findings().isEmpty() || rdma == null || !rdma.userspaceVerbs()) {
            return Judgement.of(findings, Finding.passed(PORTS_ACTIVE, passedMessage), details);
        }
        if (facts.verbs().isEmpty()) {
            // required but not tried: the sysfs part alone is not the evidence the spec asks for
            findings.add(0, Finding.of(Status.UNKNOWN, VERBS_UNAVAILABLE, "user-space verbs were not tried although "
                    + "rdma.userspaceVerbs requires them; report this node-probe failure with the probe's stderr"));
            return Judgement.of(findings, null, details);
        }
        Finding verbsFinding = judgeVerbs(facts.verbs().get(), passedMessage, details);
        if (verbsFinding.status() != Status.TRUE) {
            findings.add(0, verbsFinding);
            return Judgement.of(findings, null, details);
        }
        return Judgement.of(findings, verbsFinding, details);
    }

    @Override
    protected Findings.Mention mention() {
        return Findings.Mention.COUNTED;
    }

    /** Among False findings, a missing device before a device whose firmware failed, before a port that is down. */
    @Override
    protected List<String> precedence() {
        return List.of(DEVICE_MISSING, DEVICE_FATAL_LOGGED);
    }

    /**
     * The working ports' devices whose uverbs/umad/issm node sysfs announces but the host's
     * /dev/infiniband lacks: False naming the node; Unknown when the host's /dev cannot be seen.
     */
    private static List<Finding> deviceNodes(Facts facts, List<SysfsIbPort> working) {
        List<String> devices = working.stream().map(SysfsIbPort::device).distinct()
                .filter(facts.nodes()::announced).toList();
        if (devices.isEmpty()) {
            return List.of();
        }
        if (!facts.nodes().devVisible()) {
            return List.of(HostView.DEV.missing(facts.hostRoot()));
        }
        List<Finding> findings = new ArrayList<>();
        for (String device : devices) {
            List<String> missing = facts.nodes().missing(device);
            if (missing.isEmpty()) {
                continue;
            }
            String paths = String.join(", ", missing.stream().map(n -> DeviceNodes.DEV_DIR + "/" + n).toList());
            String ports = String.join(", ", working.stream().filter(p -> p.device().equals(device)).map(SysfsIbPort::name).toList());
            findings.add(Finding.of(Status.FALSE, DEVICE_NODE_MISSING, paths + " missing on the host although " + ports
                    + " is ACTIVE and sysfs announces " + (missing.size() == 1 ? "it" : "them") + " for " + device
                    + ": every RDMA pod fails with `lstat " + DeviceNodes.DEV_DIR + "/" + missing.get(0) + "`; check "
                    + "`ls -l " + DeviceNodes.DEV_DIR + "` and udev (`udevadm trigger --subsystem-match=infiniband_verbs "
                    + "--subsystem-match=infiniband_mad`), or reload the modules (`modprobe -r ib_uverbs ib_umad && modprobe "
                    + "ib_uverbs ib_umad`)", device + " " + String.join(", ", missing) + " missing"));
        }
        return findings;
    }

    /** rdma.devices given: each must exist and work; else every port is reported and one working port is enough. */
    private static SysfsJudgement judgeSysfs(List<String> devices, Map<String, SysfsIbPort> ports, List<DevicePort> expected) {
        return expected.isEmpty() ? judgeAny(ports) : judgeExpected(expected, devices, ports);
    }

    private static SysfsJudgement judgeExpected(List<DevicePort> expected, List<String> devices, Map<String, SysfsIbPort> ports) {
        List<Finding> findings = new ArrayList<>();
        List<SysfsIbPort> working = new ArrayList<>();
        for (DevicePort wanted : expected) {
            SysfsIbPort port = ports.get(wanted.toString());
            if (!devices.contains(wanted.device())) {
                findings.add(Finding.of(Status.FALSE, DEVICE_MISSING,
                        "expected " + wanted + " but " + SYSFS_CLASS + " has no " + wanted.device() + " (found "
                        + String.join(", ", devices) + "): check the card (`lspci -d 15b3:`), its driver "
                        + "(`dmesg | grep -i mlx5`), and whether udev renamed it (`rdma link`)", wanted + " missing"));
            } else if (port == null && ports.keySet().stream().noneMatch(p -> p.startsWith(wanted.device() + "/"))) {
                // every RDMA device has a port: none listed means its ports/ could not be read, not that port N is gone
                findings.add(Finding.of(Status.UNKNOWN, PORT_STATE_UNREADABLE, wanted.device() + " is listed under "
                        + SYSFS_CLASS + " but shows no ports/ entries, so " + wanted + " cannot be judged: check that the "
                        + "probe mounts the host's /sys, and `ibstat " + wanted.device() + "`", wanted + " unreadable"));
            } else if (port == null) {
                findings.add(Finding.of(Status.FALSE, DEVICE_MISSING,
                        wanted.device() + " has no port " + wanted.port() + " (its ports: " + portsOf(wanted.device(), ports)
                        + "); fix rdma.devices or check `ibstat " + wanted.device() + "`", wanted + " missing"));
            } else if (!port.readable()) {
                findings.add(unreadable(port));
            } else if (!port.healthy()) {
                findings.add(down(port));
            } else {
                working.add(port);
            }
        }
        return new SysfsJudgement(findings, working, listed(working) + " ACTIVE with the link up" + rateSuffix(working));
    }

    private static SysfsJudgement judgeAny(Map<String, SysfsIbPort> ports) {
        if (ports.isEmpty()) {
            return new SysfsJudgement(List.of(Finding.of(Status.UNKNOWN, PORT_STATE_UNREADABLE, "RDMA devices exist under "
                    + SYSFS_CLASS + " but none has ports listed: check the probe's /sys mount and `ibstat`")), List.of(), "");
        }
        List<SysfsIbPort> working = ports.values().stream().filter(SysfsIbPort::healthy).toList();
        List<SysfsIbPort> others = ports.values().stream().filter(p -> !p.healthy()).toList();
        if (!working.isEmpty()) {
            String message = listed(working) + " ACTIVE with the link up" + rateSuffix(working);
            if (!others.isEmpty()) {
                message += "; not working (no rdma.devices required them): " + String.join(", ",
                        others.stream().map(p -> p.name() + " " + p.states()).toList());
            }
            return new SysfsJudgement(List.of(), working, message);
        }
        return new SysfsJudgement(others.stream().map(p -> p.readable() ? down(p) : unreadable(p)).toList(), List.of(), "");
    }

    /**
     * A port that is not working, by what its states say it needs: cable work (the link is not
     * up), a setting (disabled), or the subnet manager (the link is up, the port not activated).
     */
    private static Finding down(SysfsIbPort port) {
        String reason = PORT_DOWN;
        if (notActivated(port)) {
            reason = PORT_NOT_ACTIVATED;
        } else if (!port.linkUp() && disabled(port)) {
            reason = PORT_DISABLED;
        }
        return Finding.of(Status.FALSE, reason, notWorking(port), port.name() + " " + port.states()).onDevice(port.device());
    }

    private static boolean notActivated(SysfsIbPort port) {
        String state = port.state().map(SysfsIbPort.Coded::name).orElse("").toUpperCase(Locale.ROOT);
        return port.linkUp() && port.infiniband() && (state.equals("INIT") || state.equals("ARMED"));
    }

    private static boolean disabled(SysfsIbPort port) {
        String phys = port.physState().map(SysfsIbPort.Coded::name).orElse("").toLowerCase(Locale.ROOT);
        return phys.equals("disabled") || phys.equals("sleep");
    }

    private static Finding unreadable(SysfsIbPort port) {
        return Finding.of(Status.UNKNOWN, PORT_STATE_UNREADABLE,
                "cannot read the state of " + port.name() + " (" + port.states() + ") under " + SYSFS_CLASS
                        + ": check that the probe mounts the host's /sys, and `ibstat " + port.device() + " "
                        + port.port() + "`", port.name() + " unreadable");
    }

    /** What is wrong with a port and what to do, in the words an InfiniBand administrator uses. */
    private static String notWorking(SysfsIbPort port) {
        String head = port.name() + " is " + port.states() + ": ";
        if (notActivated(port)) {
            boolean noSm = port.smLid().isEmpty() || port.smLid().getAsInt() == 0;
            if (noSm) {
                return head + "the link is up but no subnet manager has configured the port"
                        + (port.smLid().isPresent() ? " (SM lid 0)" : "") + ". No subnet "
                        + "manager? run `sminfo` and `ibstat " + port.device() + " " + port.port() + "`, then start one "
                        + "(opensm or the switch's SM)";
            }
            return head + "the subnet manager (lid " + port.smLid().getAsInt() + ") has not activated it yet; run "
                    + "`sminfo` and check the SM's log";
        }
        if (!port.linkUp() && disabled(port)) {
            return head + "the port is disabled: enable it on the switch"
                    + (port.infiniband() ? " or with `ibportstate`" : " and `ip link set <netdev> up`");
        }
        if (!port.linkUp()) {
            boolean polling = port.physState().map(SysfsIbPort.Coded::name).orElse("").equalsIgnoreCase("polling");
            return head + (polling ? "no physical link: check the cable, the transceiver and the switch port"
                    : "the link is not up (training or error recovery): check the cable and `ibstat "
                            + port.device() + " " + port.port() + "` error counters");
        }
        return head + "the link is up but the port is not ACTIVE; run `ibstat " + port.device() + " " + port.port()
                + "`" + (port.infiniband() ? " and `sminfo`" : " and check the netdev with `rdma link`");
    }

    private static String portsOf(String device, Map<String, SysfsIbPort> ports) {
        List<String> numbers = ports.values().stream().filter(p -> p.device().equals(device))
                .map(p -> String.valueOf(p.port())).toList();
        return numbers.isEmpty() ? "none" : String.join(", ", numbers);
    }

    private static String listed(List<SysfsIbPort> ports) {
        return String.join(", ", ports.stream().map(SysfsIbPort::name).toList());
    }

    /** " (400 Gb/sec (4X NDR), InfiniBand)" when all ports agree, which is the usual case. */
    private static String rateSuffix(List<SysfsIbPort> ports) {
        List<String> kinds = ports.stream().map(p -> p.rate() + (p.linkLayer().isEmpty() ? "" : ", " + p.linkLayer()))
                .distinct().toList();
        return kinds.size() == 1 && !kinds.get(0).isBlank() ? " (" + kinds.get(0) + ")" : "";
    }

    // ---- user-space verbs --------------------------------------------------------------------

    /** The verbs part's finding; {@code sysfsMessage} opens the True message. Adds memlock and the devices seen. */
    private static Finding judgeVerbs(VerbsAttempt attempt, String sysfsMessage, Details details) {
        if (attempt.report().isEmpty()) {
            return Finding.of(Status.UNKNOWN, VERBS_UNAVAILABLE, "user-space verbs could not be tried ("
                    + attempt.failure().orElse("no answer") + "); report this node-probe failure with the probe's stderr");
        }
        VerbsReport report = attempt.report().get();
        String memlock = report.memlock().map(RdmaDevicesCheck::describe).orElse("unknown");
        details.put("memlock", memlock);
        if (report.loadProblem().isPresent()) {
            return Finding.of(Status.FALSE, VERBS_UNAVAILABLE, "user-space verbs unavailable: libibverbs cannot be "
                    + "loaded in the probe (" + report.loadProblem().get() + "); the probe image needs rdma-core's "
                    + "libibverbs1 and ibverbs-providers, and a writable /tmp for jnr-ffi's native stub");
        }
        if (report.listErrno().isPresent()) {
            return Finding.of(Status.FALSE, VERBS_UNAVAILABLE, noDevicesVisible("ibv_get_device_list failed: "
                    + Errno.name(report.listErrno().getAsInt())));
        }
        details.list("verbsDevices", report.visible());
        if (report.visible().isEmpty()) {
            return Finding.of(Status.FALSE, VERBS_UNAVAILABLE, noDevicesVisible("ibv_get_device_list returned none"));
        }
        details.list("verbs", report.tests().stream().map(RdmaDevicesCheck::describe).toList());
        for (DeviceTest test : report.tests()) {
            Optional<Failure> failure = test.failure();
            if (failure.isPresent()) {
                return verbsFailure(report, test, failure.get(), memlock);
            }
            for (PortAttributes port : test.ports()) {
                if (!port.active()) {
                    return Finding.of(Status.FALSE, VERBS_PORT_NOT_ACTIVE, "libibverbs in the probe reports " + test.device() + "/"
                            + port.port() + " " + port.stateName() + " although the host's sysfs says ACTIVE: the probe "
                            + "container may see another device (check the RDMA device plugin or VF assignment) or the "
                            + "port just changed; run `ibv_devinfo -d " + test.device() + "`");
                }
            }
        }
        return Finding.passed(PORTS_ACTIVE, sysfsMessage + "; libibverbs opened "
                + String.join(", ", attempt.wanted().keySet()) + " and registered " + ByteQuantity.format(UserspaceVerbs.REGION_BYTES)
                + " on each (RLIMIT_MEMLOCK " + memlock + ")");
    }

    private static Finding verbsFailure(VerbsReport report, DeviceTest test, Failure failure, String memlock) {
        String device = test.device();
        String call = failure.step().call() + "(" + device + ")";
        return switch (failure.step()) {
            case NOT_LISTED -> Finding.of(Status.FALSE, VERBS_UNAVAILABLE, "libibverbs in the probe lists "
                    + String.join(", ", report.visible()) + " but not " + device + ": mount its /dev/infiniband/uverbs* "
                    + "into the probe pod and check that a provider for it is installed (`ibv_devices` in the pod)");
            case OPEN_DEVICE -> Finding.of(Status.FALSE, VERBS_UNAVAILABLE, call + " failed with " + failure.errnoName()
                    + ": the probe cannot open /dev/infiniband/uverbs* (run `ls -l /dev/infiniband` in the pod; it needs "
                    + "the device mounted and read-write access)");
            case QUERY_PORT, ALLOC_PD -> Finding.of(Status.FALSE, VERBS_UNAVAILABLE, call + " failed with "
                    + failure.errnoName() + ": the device opens but does not work for verbs; check `dmesg` for "
                    + device + " errors and run `ibv_devinfo -d " + device + "`");
            case REG_MR -> registrationFailure(device, failure, memlock, report.memlock());
        };
    }

    /**
     * The kernel pins registered memory against RLIMIT_MEMLOCK: ENOMEM when the region would
     * exceed it, EPERM when the limit is 0 (ib_umem_get). With an unlimited limit, ENOMEM is a real
     * shortage instead.
     */
    private static Finding registrationFailure(String device, Failure failure, String memlock,
                                               Optional<ProcLimits.Limit> limit) {
        String what = "registering " + ByteQuantity.format(UserspaceVerbs.REGION_BYTES) + " with " + device
                + " failed (ibv_reg_mr: " + failure.errnoName() + ")";
        boolean limited = limit.map(l -> !l.softUnlimited()).orElse(true);
        if ((failure.errno() == Errno.ENOMEM || failure.errno() == Errno.EPERM) && limited) {
            return Finding.of(Status.FALSE, MEMLOCK_TOO_LOW, what + " and the probe's RLIMIT_MEMLOCK is " + memlock
                    + ": RDMA pins memory, so GPFS, NVMe-oF and GDS fail the same way; set the container runtime's "
                    + "memlock limit to unlimited (`LimitMEMLOCK=infinity` in containerd's or CRI-O's systemd unit, "
                    + "`ulimit -l unlimited`), then re-probe");
        }
        return Finding.of(Status.FALSE, MEMORY_REGISTRATION_FAILED, what + " with RLIMIT_MEMLOCK " + memlock
                + ": check `dmesg` for " + device + " errors and the node's free memory");
    }

    private static String noDevicesVisible(String why) {
        return "user-space verbs unavailable: libibverbs in the probe sees no RDMA devices (" + why + "), although the "
                + "host has them: the probe pod needs /dev/infiniband mounted and the host's ib_uverbs module loaded "
                + "(`modprobe ib_uverbs`; `ls /dev/infiniband` should list uverbs0), and the image needs ibverbs-providers";
    }

    private static String describe(ProcLimits.Limit limit) {
        return limit.softUnlimited() ? "unlimited" : ByteQuantity.format(limit.soft());
    }

    private static String describe(DeviceTest test) {
        return test.failure()
                .map(f -> test.device() + ": " + f.step().call() + " failed, " + f.errnoName())
                .orElseGet(() -> test.device() + ": opened, " + String.join(", ", test.ports().stream()
                        .map(p -> "port " + p.port() + " " + p.stateName()).toList())
                        + ", registered " + ByteQuantity.format(test.registeredBytes()));
    }
}
