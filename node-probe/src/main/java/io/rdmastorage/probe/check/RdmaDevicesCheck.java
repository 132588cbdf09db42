package io.rdmastorage.probe.check;

import static io.rdmastorage.contract.checks.RdmaDevices.*;

import io.rdmastorage.contract.CheckType;
import io.rdmastorage.contract.Status;
import io.rdmastorage.contract.spec.ByteQuantity;
import io.rdmastorage.contract.spec.DevicePort;
import io.rdmastorage.contract.spec.ProbeSpec;
import io.rdmastorage.probe.host.HostRoot;
import io.rdmastorage.probe.parse.ProcLimits;
import io.rdmastorage.probe.parse.SysfsIbPort;
import io.rdmastorage.probe.verbs.Errno;
import io.rdmastorage.probe.verbs.UserspaceVerbs;
import io.rdmastorage.probe.verbs.VerbsReport.DeviceTest;
import io.rdmastorage.probe.verbs.VerbsReport.Failure;
import io.rdmastorage.probe.verbs.VerbsReport.PortAttributes;
import io.rdmastorage.probe.verbs.VerbsReport;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

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
public final class RdmaDevicesCheck implements Check {

    static final String SYSFS_CLASS = "/sys/class/infiniband";


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
    public CheckResult run(ProbeContext context) {
        HostRoot host = context.host();
        ProbeSpec.Rdma rdma = context.spec().rdma();
        List<String> devices = host.list(SYSFS_CLASS);
        CheckResult.Builder result = CheckResult.builder(type());
        if (devices.isEmpty()) {
            return result.verdict(Status.FALSE, NO_RDMA_DEVICES, "no RDMA devices under " + SYSFS_CLASS
                    + ": the HCA is missing or its driver is not loaded; check `lspci | grep -i -e mellanox -e infiniband`, "
                    + "`dmesg | grep -i mlx5`, then `modprobe mlx5_ib` and `ibv_devinfo`").build();
        }
        Map<String, SysfsIbPort> ports = readPorts(host, devices);
        result.detailList("ports", ports.values().stream().map(SysfsIbPort::summary).toList());
        List<DevicePort> expected = rdma == null ? List.of() : rdma.devicePorts();
        Verdict sysfs = expected.isEmpty() ? judgeAny(ports) : judgeExpected(expected, devices, ports);
        if (sysfs.status() != Status.TRUE || rdma == null || !rdma.userspaceVerbs()) {
            return result.verdict(sysfs.status(), sysfs.reason(), sysfs.message()).build();
        }
        Map<String, List<Integer>> wanted = new LinkedHashMap<>();
        for (SysfsIbPort port : sysfs.judged()) {
            wanted.computeIfAbsent(port.device(), d -> new ArrayList<>()).add(port.port());
        }
        return userspaceVerbs(result, sysfs, wanted);
    }

    /** What the sysfs part found; {@code judged} are the working ports the verdict rests on. */
    private record Verdict(Status status, String reason, String message, List<SysfsIbPort> judged) {
    }

    /** One problem found; the worst comes first in the message, the others by their summary. */
    private record Finding(Status status, String reason, String summary, String message) {
    }

    private static Map<String, SysfsIbPort> readPorts(HostRoot host, List<String> devices) {
        Map<String, SysfsIbPort> ports = new LinkedHashMap<>();
        for (String device : devices) {
            String dir = SYSFS_CLASS + "/" + device + "/ports";
            List<Integer> numbers = host.list(dir).stream()
                    .filter(n -> !n.isEmpty() && n.length() <= 3 && n.chars().allMatch(Character::isDigit))
                    .map(Integer::parseInt).sorted().toList();
            for (int n : numbers) {
                String p = dir + "/" + n + "/";
                SysfsIbPort port = SysfsIbPort.of(device, n, attr(host, p + "state"), attr(host, p + "phys_state"),
                        attr(host, p + "rate"), attr(host, p + "link_layer"), attr(host, p + "sm_lid"));
                ports.put(port.name(), port);
            }
        }
        return ports;
    }

    private static String attr(HostRoot host, String path) {
        return host.readAttribute(path).orElse(null);
    }

    /** rdma.devices given: each must exist and work. */
    private static Verdict judgeExpected(List<DevicePort> expected, List<String> devices, Map<String, SysfsIbPort> ports) {
        List<Finding> findings = new ArrayList<>();
        List<SysfsIbPort> working = new ArrayList<>();
        for (DevicePort wanted : expected) {
            SysfsIbPort port = ports.get(wanted.toString());
            if (!devices.contains(wanted.device())) {
                findings.add(new Finding(Status.FALSE, DEVICE_MISSING, wanted + " missing",
                        "expected " + wanted + " but " + SYSFS_CLASS + " has no " + wanted.device() + " (found "
                        + String.join(", ", devices) + "): check the card (`lspci -d 15b3:`), its driver "
                        + "(`dmesg | grep -i mlx5`), and whether udev renamed it (`rdma link`)"));
            } else if (port == null) {
                findings.add(new Finding(Status.FALSE, DEVICE_MISSING, wanted + " missing",
                        wanted.device() + " has no port " + wanted.port() + " (its ports: " + portsOf(wanted.device(), ports)
                        + "); fix rdma.devices or check `ibstat " + wanted.device() + "`"));
            } else if (!port.readable()) {
                findings.add(unreadable(port));
            } else if (!port.healthy()) {
                findings.add(down(port));
            } else {
                working.add(port);
            }
        }
        if (findings.isEmpty()) {
            return new Verdict(Status.TRUE, PORTS_ACTIVE, listed(working) + " ACTIVE with the link up"
                    + rateSuffix(working), working);
        }
        return combine(findings, working);
    }

    /** No rdma.devices: report every port; one working port is enough, the others are named. */
    private static Verdict judgeAny(Map<String, SysfsIbPort> ports) {
        if (ports.isEmpty()) {
            return new Verdict(Status.UNKNOWN, PORT_STATE_UNREADABLE, "RDMA devices exist under " + SYSFS_CLASS
                    + " but none has ports listed: check the probe's /sys mount and `ibstat`", List.of());
        }
        List<SysfsIbPort> working = ports.values().stream().filter(SysfsIbPort::healthy).toList();
        List<SysfsIbPort> others = ports.values().stream().filter(p -> !p.healthy()).toList();
        if (!working.isEmpty()) {
            String message = listed(working) + " ACTIVE with the link up" + rateSuffix(working);
            if (!others.isEmpty()) {
                message += "; not working (no rdma.devices required them): " + String.join(", ",
                        others.stream().map(p -> p.name() + " " + p.states()).toList());
            }
            return new Verdict(Status.TRUE, PORTS_ACTIVE, message, working);
        }
        List<Finding> findings = others.stream()
                .map(p -> p.readable() ? down(p) : unreadable(p))
                .toList();
        return combine(findings, List.of());
    }

    private static Verdict combine(List<Finding> findings, List<SysfsIbPort> working) {
        List<Finding> sorted = new ArrayList<>(findings);
        sorted.sort(Comparator.comparingInt(RdmaDevicesCheck::severity));   // stable: spec order within a kind
        Finding first = sorted.get(0);
        StringBuilder message = new StringBuilder(first.message());
        if (sorted.size() > 1) {
            message.append("; also ").append(sorted.size() - 1).append(" more: ").append(String.join(", ",
                    sorted.subList(1, Math.min(sorted.size(), 4)).stream().map(Finding::summary).toList()));
        }
        return new Verdict(first.status(), first.reason(), message.toString(), working);
    }

    /** False before Unknown; among False, a missing device before a port that is down. */
    private static int severity(Finding f) {
        if (f.status() != Status.FALSE) {
            return 3;
        }
        return f.reason().equals(DEVICE_MISSING) ? 0 : 1;
    }

    private static Finding down(SysfsIbPort port) {
        return new Finding(Status.FALSE, PORT_DOWN, port.name() + " " + port.states(), notWorking(port));
    }

    private static Finding unreadable(SysfsIbPort port) {
        return new Finding(Status.UNKNOWN, PORT_STATE_UNREADABLE, port.name() + " unreadable",
                "cannot read the state of " + port.name() + " (" + port.states() + ") under " + SYSFS_CLASS
                        + ": check that the probe mounts the host's /sys, and `ibstat " + port.device() + " "
                        + port.port() + "`");
    }

    /** What is wrong with a port and what to do, in the words an InfiniBand administrator uses. */
    private static String notWorking(SysfsIbPort port) {
        String head = port.name() + " is " + port.states() + ": ";
        String state = port.state().map(SysfsIbPort.Coded::name).orElse("").toUpperCase(Locale.ROOT);
        if (port.linkUp() && port.infiniband() && (state.equals("INIT") || state.equals("ARMED"))) {
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
        if (!port.linkUp()) {
            String phys = port.physState().map(SysfsIbPort.Coded::name).orElse("");
            String cause = switch (phys.toLowerCase(Locale.ROOT)) {
                case "polling" -> "no physical link: check the cable, the transceiver and the switch port";
                case "disabled", "sleep" -> "the port is disabled: enable it on the switch"
                        + (port.infiniband() ? " or with `ibportstate`" : " and `ip link set <netdev> up`");
                default -> "the link is not up (training or error recovery): check the cable and `ibstat "
                        + port.device() + " " + port.port() + "` error counters";
            };
            return head + cause;
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

    private CheckResult userspaceVerbs(CheckResult.Builder result, Verdict sysfs, Map<String, List<Integer>> wanted) {
        VerbsReport report;
        try {
            report = verbs.probe(wanted);
        } catch (RuntimeException | LinkageError e) {
            return result.verdict(Status.UNKNOWN, VERBS_UNAVAILABLE, "user-space verbs could not be tried ("
                    + e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage())
                    + "); report this node-probe failure with the probe's stderr").build();
        }
        String memlock = report.memlock().map(RdmaDevicesCheck::describe).orElse("unknown");
        result.detail("memlock", memlock);
        if (report.loadProblem().isPresent()) {
            return result.verdict(Status.FALSE, VERBS_UNAVAILABLE, "user-space verbs unavailable: libibverbs cannot be "
                    + "loaded in the probe (" + report.loadProblem().get() + "); the probe image needs rdma-core's "
                    + "libibverbs1 and ibverbs-providers, and a writable /tmp for jnr-ffi's native stub").build();
        }
        if (report.listErrno().isPresent()) {
            return result.verdict(Status.FALSE, VERBS_UNAVAILABLE, noDevicesVisible("ibv_get_device_list failed: "
                    + Errno.name(report.listErrno().getAsInt()))).build();
        }
        result.detailList("verbsDevices", report.visible());
        if (report.visible().isEmpty()) {
            return result.verdict(Status.FALSE, VERBS_UNAVAILABLE, noDevicesVisible("ibv_get_device_list returned none"))
                    .build();
        }
        result.detailList("verbs", report.tests().stream().map(RdmaDevicesCheck::describe).toList());
        for (DeviceTest test : report.tests()) {
            Optional<Failure> failure = test.failure();
            if (failure.isPresent()) {
                return verbsFailure(result, report, test, failure.get(), memlock);
            }
            for (PortAttributes port : test.ports()) {
                if (!port.active()) {
                    return result.verdict(Status.FALSE, PORT_DOWN, "libibverbs in the probe reports " + test.device() + "/"
                            + port.port() + " " + port.stateName() + " although the host's sysfs says ACTIVE: the probe "
                            + "container may see another device (check the RDMA device plugin or VF assignment) or the "
                            + "port just changed; run `ibv_devinfo -d " + test.device() + "`").build();
                }
            }
        }
        return result.verdict(Status.TRUE, PORTS_ACTIVE, sysfs.message() + "; libibverbs opened "
                + String.join(", ", wanted.keySet()) + " and registered " + ByteQuantity.format(UserspaceVerbs.REGION_BYTES)
                + " on each (RLIMIT_MEMLOCK " + memlock + ")").build();
    }

    private static CheckResult verbsFailure(CheckResult.Builder result, VerbsReport report, DeviceTest test,
                                            Failure failure, String memlock) {
        String device = test.device();
        String call = failure.step().call() + "(" + device + ")";
        return switch (failure.step()) {
            case NOT_LISTED -> result.verdict(Status.FALSE, VERBS_UNAVAILABLE, "libibverbs in the probe lists "
                    + String.join(", ", report.visible()) + " but not " + device + ": mount its /dev/infiniband/uverbs* "
                    + "into the probe pod and check that a provider for it is installed (`ibv_devices` in the pod)").build();
            case OPEN_DEVICE -> result.verdict(Status.FALSE, VERBS_UNAVAILABLE, call + " failed with " + failure.errnoName()
                    + ": the probe cannot open /dev/infiniband/uverbs* (run `ls -l /dev/infiniband` in the pod; it needs "
                    + "the device mounted and read-write access)").build();
            case QUERY_PORT, ALLOC_PD -> result.verdict(Status.FALSE, VERBS_UNAVAILABLE, call + " failed with "
                    + failure.errnoName() + ": the device opens but does not work for verbs; check `dmesg` for "
                    + device + " errors and run `ibv_devinfo -d " + device + "`").build();
            case REG_MR -> registrationFailure(result, device, failure, memlock, report.memlock());
        };
    }

    /**
     * The kernel pins registered memory against RLIMIT_MEMLOCK: ENOMEM when the region would
     * exceed it, EPERM when the limit is 0 (ib_umem_get). With an unlimited limit, ENOMEM is a real
     * shortage instead.
     */
    private static CheckResult registrationFailure(CheckResult.Builder result, String device, Failure failure,
                                                   String memlock, Optional<ProcLimits.Limit> limit) {
        String what = "registering " + ByteQuantity.format(UserspaceVerbs.REGION_BYTES) + " with " + device
                + " failed (ibv_reg_mr: " + failure.errnoName() + ")";
        boolean limited = limit.map(l -> !l.softUnlimited()).orElse(true);
        if ((failure.errno() == Errno.ENOMEM || failure.errno() == Errno.EPERM) && limited) {
            return result.verdict(Status.FALSE, MEMLOCK_TOO_LOW, what + " and the probe's RLIMIT_MEMLOCK is " + memlock
                    + ": RDMA pins memory, so GPFS, NVMe-oF and GDS fail the same way; set the container runtime's "
                    + "memlock limit to unlimited (`LimitMEMLOCK=infinity` in containerd's or CRI-O's systemd unit, "
                    + "`ulimit -l unlimited`), then re-probe").build();
        }
        return result.verdict(Status.FALSE, MEMORY_REGISTRATION_FAILED, what + " with RLIMIT_MEMLOCK " + memlock
                + ": check `dmesg` for " + device + " errors and the node's free memory").build();
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
