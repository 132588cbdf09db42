package io.rdmastorage.probe.check;

import static io.rdmastorage.contract.checks.RoceLossless.*;

import io.rdmastorage.contract.CheckType;
import io.rdmastorage.contract.InventoryFact;
import io.rdmastorage.contract.Reasons;
import io.rdmastorage.contract.Status;
import io.rdmastorage.contract.spec.DevicePort;
import io.rdmastorage.contract.spec.ProbeSpec;
import io.rdmastorage.probe.host.HostRoot;
import io.rdmastorage.probe.host.ToolResult;
import io.rdmastorage.probe.host.ToolRunner;
import io.rdmastorage.probe.parse.DcbAppDscp;
import io.rdmastorage.probe.parse.DcbAppTrust;
import io.rdmastorage.probe.parse.DcbPfc;
import io.rdmastorage.probe.parse.MlnxQos;
import io.rdmastorage.probe.parse.RoceTos;
import io.rdmastorage.probe.parse.SysfsFlag;
import io.rdmastorage.probe.ports.PortView;
import io.rdmastorage.probe.ports.RdmaDevice;
import io.rdmastorage.probe.ports.RdmaPort;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * The storage traffic class is lossless on the host, on every RDMA port whose link layer is
 * Ethernet: the NIC trusts DSCP, the storage DSCP maps to the lossless priority, PFC is on exactly
 * there (and on the spec's {@code pfcPriorities}), ECN's notification and reaction points are on
 * for it, and the ToS kernel clients inherit (nvme-rdma, GPFS with verbsRdmaCm, NFS over RDMA
 * cannot set one per connection) carries the storage DSCP.
 *
 * <p>Sources, each read by its own parser: sysfs (mlx5's {@code /sys/class/net/<if>/ecn/}, MLNX_OFED's
 * {@code tc/<p>/traffic_class}) and configfs ({@code rdma_cm/<dev>/ports/<p>/default_roce_tos}), iproute2's
 * {@code dcb} ({@code pfc show}, {@code app show ... dscp-prio}, {@code apptrust show}) and MLNX_OFED's
 * {@code mlnx_qos -i}. The tools run in the host's network namespace, where the netdevs are (the
 * probe pod has its own).
 * A source that is absent is no failure; a setting no source shows is Unknown
 * LosslessConfigUnreadable saying what to install or mount; two sources that disagree on a setting
 * are Unknown SourcesDisagree naming both (DESIGN.md, "When is it Unknown").
 *
 * <p>dcb's APP table shows explicit entries only: a DSCP without one uses the NIC's default table,
 * which dcb does not show, so a missing entry is no evidence. DSCP entries in it mean trust dscp
 * (mlx5 and ice switch to DSCP trust while the table has any); an empty table says nothing on trust.
 * Where the driver has the kernel's apptrust operations, {@code dcb apptrust}'s selector order is the
 * trust itself and outranks that inference: dscp ahead of pcp is trust dscp.
 *
 * <p>No RoCE port at all: where RDMA devices exist (InfiniBand only, or the listed ports absent), a
 * profile that declares RoCE storage shows a wrong setup: False NoRocePort. Where there is no RDMA
 * device at all, RdmaDevices says why; this check has nothing to judge: Unknown NoRocePort.
 */
public final class RoceLosslessCheck extends FactsCheck<RoceLosslessCheck.Facts> {

    static final String IB_CLASS = PortView.IB_CLASS;
    static final String CONFIGFS_RDMA_CM = "/sys/kernel/config/rdma_cm";
    /** A Linux interface name as sysfs lists it: passed to tools as one argv item, never as an option. */
    private static final String UNREADABLE_LINK_LAYER = "unreadable link_layer";
    private static final String UNREADABLE_PORTS = "without a ports directory";
    static final String INSTALL_QOS_TOOL = "install MLNX_OFED's mlnx_qos (mlnx-tools) or iproute2's dcb on the host";
    private static final List<String> REASON_ORDER = List.of(NO_ROCE_PORT, TRUST_NOT_DSCP, DSCP_NOT_MAPPED_TO_LOSSLESS,
            PFC_NOT_ON_STORAGE_PRIORITY, ECN_DISABLED, DEFAULT_TOS_MISMATCH, Reasons.SOURCES_DISAGREE, LOSSLESS_CONFIG_UNREADABLE);

    /**
     * What the host shows.
     *
     * @param devices   the entries of /sys/class/infiniband
     * @param nonRoce   ports whose link layer is not Ethernet, as {@code dev/port link_layer}
     * @param ports     every Ethernet RDMA port, with what each source says about it
     */
    public record Facts(String hostRoot, boolean sysfsVisible, List<String> devices, List<String> nonRoce, List<RocePort> ports) {
    }

    /**
     * One RoCE port and its sources; a source's value is empty when it is absent or did not answer.
     *
     * @param dcbAppTrust the trusted APP selectors in precedence order ({@code dcb apptrust show})
     * @param ecnNp  priority → roce_np enable, for the files that exist
     * @param ecnRp  priority → roce_rp enable
     * @param trafficClassUnset MLNX_OFED's traffic_class file is there and empty (no global class)
     */
    public record RocePort(String device, int port, Optional<String> netdev, Source<MlnxQos> mlnxQos,
                           Source<Set<Integer>> dcbPfc, Source<Map<Integer, Set<Integer>>> dcbApp, Source<List<String>> dcbAppTrust,
                           Map<Integer, Boolean> ecnNp, Map<Integer, Boolean> ecnRp, Optional<Integer> cnpDscp,
                           Optional<Integer> configfsTos, Optional<Integer> trafficClassTos, boolean trafficClassUnset) {

        public RocePort {
            ecnNp = Map.copyOf(ecnNp);
            ecnRp = Map.copyOf(ecnRp);
        }

        String name() {
            return device + "/" + port + netdev.map(n -> " (" + n + ")").orElse("");
        }
    }

    /**
     * What one tool said: its parsed answer, or why there is none ({@code mlnx_qos not found}, the
     * exit status, "printed no PFC table").
     */
    public record Source<T>(String command, Optional<T> value, String problem) {

        public static <T> Source<T> of(String command, T value) {
            return new Source<>(command, Optional.of(value), "");
        }

        public static <T> Source<T> absent(String command, String problem) {
            return new Source<>(command, Optional.empty(), problem);
        }

        /** The tool is not on the host, as opposed to one that ran and could not answer. */
        boolean toolMissing() {
            return value.isEmpty() && problem.endsWith(ToolResult.NOT_FOUND_PROBLEM);
        }

        static <T> Source<T> from(ToolResult result, Function<String, Optional<T>> parser, String expected) {
            if (!result.succeeded()) {
                return absent(result.command(), result.problem());
            }
            Optional<T> value = parser.apply(result.stdout());
            return value.isPresent() ? of(result.command(), value.get())
                    : absent(result.command(), "'" + result.command() + "' printed no " + expected);
        }
    }

    @Override
    public CheckType type() {
        return CheckType.ROCE_LOSSLESS;
    }

    /** Only where the profile declares the RoCE lossless class: without it there is no DSCP or priority to expect. */
    @Override
    public boolean applies(ProbeContext context) {
        return context.spec().roce() != null;
    }

    @Override
    protected Facts gather(ProbeContext context) {
        PortView view = context.ports();
        List<String> nonRoce = new ArrayList<>();
        List<RocePort> ports = new ArrayList<>();
        for (RdmaDevice device : view.devices()) {
            if (!device.portsDirectory()) {
                nonRoce.add(device.name() + " " + UNREADABLE_PORTS);
                continue;
            }
            for (RdmaPort port : device.ports()) {
                if (port.ethernet()) {
                    // DCB settings live on the Ethernet ports at the bottom: a bond's slaves, a VLAN's parent
                    List<Optional<String>> netdevs = port.netdev().isEmpty() ? List.of(Optional.empty())
                            : port.ethernetPorts().stream().map(Optional::of).toList();
                    for (Optional<String> netdev : netdevs) {
                        ports.add(port(context, device.name(), port.port(), netdev));
                    }
                } else {
                    nonRoce.add(port.name() + " " + port.linkLayer().filter(l -> !l.isEmpty()).orElse(UNREADABLE_LINK_LAYER));
                }
            }
        }
        return new Facts(context.host().root().toString(), view.sysfsVisible(), view.deviceNames(), nonRoce, ports);
    }

    private static RocePort port(ProbeContext context, String device, int port, Optional<String> netdev) {
        HostRoot host = context.host();
        Source<MlnxQos> mlnxQos = Source.absent("mlnx_qos", "no netdev");
        Source<Set<Integer>> dcbPfc = Source.absent("dcb", "no netdev");
        Source<Map<Integer, Set<Integer>>> dcbApp = Source.absent("dcb", "no netdev");
        Source<List<String>> dcbAppTrust = Source.absent("dcb", "no netdev");
        Map<Integer, Boolean> np = new TreeMap<>();
        Map<Integer, Boolean> rp = new TreeMap<>();
        Optional<Integer> cnp = Optional.empty();
        if (netdev.isPresent()) {
            String ifname = netdev.get();
            ToolRunner tools = context.tools();
            mlnxQos = Source.from(tools.runInHostNetwork("mlnx_qos", List.of("-i", ifname)), MlnxQos::parse,
                    "trust, dscp2prio or PFC settings");
            dcbPfc = Source.from(tools.runInHostNetwork("dcb", List.of("pfc", "show", "dev", ifname)), DcbPfc::enabled, "prio-pfc line");
            dcbApp = Source.from(tools.runInHostNetwork("dcb", List.of("-N", "app", "show", "dev", ifname, "dscp-prio")),
                    DcbAppDscp::parse, "dscp-prio table");
            dcbAppTrust = Source.from(tools.runInHostNetwork("dcb", List.of("apptrust", "show", "dev", ifname)),
                    DcbAppTrust::order, "order line");
            String ecn = "/sys/class/net/" + ifname + "/ecn/";
            for (int prio = 0; prio < MlnxQos.PRIORITIES; prio++) {
                final int p = prio;
                host.readAttribute(ecn + "roce_np/enable/" + p).flatMap(SysfsFlag::parse).ifPresent(v -> np.put(p, v));
                host.readAttribute(ecn + "roce_rp/enable/" + p).flatMap(SysfsFlag::parse).ifPresent(v -> rp.put(p, v));
            }
            cnp = host.readAttribute(ecn + "roce_np/cnp_dscp").flatMap(RoceTos::dscpAttribute);
        }
        Optional<Integer> configfs = host.readAttribute(CONFIGFS_RDMA_CM + "/" + device + "/ports/" + port + "/default_roce_tos")
                .flatMap(RoceTos::fromConfigfs);
        Optional<String> tc = host.read(IB_CLASS + "/" + device + "/tc/" + port + "/traffic_class");
        return new RocePort(device, port, netdev, mlnxQos, dcbPfc, dcbApp, dcbAppTrust, np, rp, cnp, configfs,
                tc.flatMap(RoceTos::fromTrafficClass), tc.map(RoceTos::trafficClassUnset).orElse(false));
    }

    private static boolean unreadable(String nonRoce) {
        return nonRoce.endsWith(UNREADABLE_LINK_LAYER) || nonRoce.endsWith(UNREADABLE_PORTS);
    }

    private static boolean unreadable(Facts facts, String port) {
        return facts.nonRoce().stream().anyMatch(n -> n.startsWith(port + " ") && unreadable(n));
    }

    @Override
    protected Judgement judge(Facts facts, ProbeSpec spec) {
        ProbeSpec.Roce roce = spec.roce();
        if (!facts.sysfsVisible()) {
            return Judgement.only(HostView.SYSFS.missing(facts.hostRoot()), new Details());
        }
        Details details = new Details().put("storageDscp", roce.dscp()).put("losslessPriority", roce.priority());
        List<Finding> findings = new ArrayList<>();
        List<RocePort> judged = facts.ports();
        if (!roce.devices().isEmpty()) {
            List<DevicePort> wanted = roce.devicePorts();
            judged = judged.stream().filter(p -> wanted.contains(new DevicePort(p.device(), p.port()))).toList();
            for (DevicePort w : wanted) {
                if (judged.stream().noneMatch(p -> p.device().equals(w.device()) && p.port() == w.port())) {
                    if (unreadable(facts, w.device() + "/" + w.port()) || unreadable(facts, w.device())) {
                        findings.add(Finding.of(Status.UNKNOWN, NO_ROCE_PORT, w + " (roce.devices): its link layer cannot be "
                                + "read under " + IB_CLASS + nonRoce(facts) + "; check the probe's /sys mount and `ibv_devinfo -d "
                                + w.device() + "`", w + " unreadable"));
                        continue;
                    }
                    findings.add(Finding.of(Status.FALSE, NO_ROCE_PORT, w + " (roce.devices) is not an RDMA port with link layer "
                            + "Ethernet on this node" + nonRoce(facts) + "; `rdma link` and `ibv_devinfo -d " + w.device()
                            + "` show its ports (expected link_layer Ethernet)", w + " not RoCE"));
                }
            }
        }
        if (judged.isEmpty() && findings.isEmpty()) {
            if (facts.devices().isEmpty()) {
                return Judgement.only(Finding.of(Status.UNKNOWN, NO_ROCE_PORT, "no RDMA device under " + IB_CLASS
                        + ": nothing to judge for the RoCE lossless class (RdmaDevices says why; `rdma link` lists the ports)"), details);
            }
            if (facts.nonRoce().stream().allMatch(RoceLosslessCheck::unreadable)) {
                // a link layer that cannot be read is not a link layer that is InfiniBand
                return Judgement.only(Finding.of(Status.UNKNOWN, NO_ROCE_PORT, "cannot tell whether any RDMA port is RoCE: "
                        + "the link layer of every port is unreadable" + nonRoce(facts) + "; check the probe's /sys mount "
                        + "and `rdma link`"), details);
            }
            return Judgement.only(Finding.of(Status.FALSE, NO_ROCE_PORT, "the profile declares RoCE storage (roce section) but no "
                    + "RDMA port has link layer Ethernet" + nonRoce(facts) + "; `rdma link` shows the ports: use a RoCE port or "
                    + "remove the roce section"), details);
        }
        List<Map<String, Object>> shown = new ArrayList<>();
        for (RocePort port : judged) {
            findings.addAll(new RoceLosslessPortRules(port, roce).findings());
            shown.add(summary(port, roce));
        }
        details.list("ports", shown);
        String passed = judged.size() == 1
                ? judged.get(0).name() + ": trust dscp, DSCP " + roce.dscp() + " on priority " + roce.priority()
                        + ", PFC on " + pfcText(expectedPfc(roce)) + ", ECN on, default ToS with DSCP " + roce.dscp()
                : "all " + judged.size() + " RoCE ports: trust dscp, DSCP " + roce.dscp() + " on lossless priority " + roce.priority()
                        + " (PFC and ECN on), default ToS with DSCP " + roce.dscp();
        return Judgement.of(findings, Finding.passed(LOSSLESS_CONFIGURED, passed), details);
    }

    /**
     * Per RoCE port, its lossless settings as one line ({@code trust dscp; pfc 3; ecn 3; tos 106}, ecn:
     * the priorities whose notification and reaction points are both on), the node's distinct lines.
     */
    @Override
    protected void inventory(Facts facts, Inventory into) {
        if (facts.sysfsVisible() && facts.ports().isEmpty()) {
            into.notInstalled(InventoryFact.ROCE_LOSSLESS);
            return;
        }
        List<String> lines = new ArrayList<>();
        for (RocePort port : facts.ports()) {
            List<String> parts = new ArrayList<>();
            trustOf(port).ifPresent(t -> parts.add("trust " + t.value()));
            port.mlnxQos().value().flatMap(MlnxQos::pfcEnabled).or(() -> port.dcbPfc().value())
                    .ifPresent(p -> parts.add("pfc " + (p.isEmpty() ? "none" : join(new TreeSet<>(p)))));
            Set<Integer> ecn = new TreeSet<>();
            port.ecnNp().forEach((prio, on) -> {
                if (on && Boolean.TRUE.equals(port.ecnRp().get(prio))) {
                    ecn.add(prio);
                }
            });
            if (!port.ecnNp().isEmpty()) {
                parts.add("ecn " + (ecn.isEmpty() ? "none" : join(ecn)));
            }
            port.configfsTos().or(port::trafficClassTos).ifPresent(t -> parts.add("tos " + t));
            if (!parts.isEmpty()) {
                lines.add(String.join("; ", parts));
            }
        }
        into.distinct(InventoryFact.ROCE_LOSSLESS, lines);
    }

    @Override
    protected Findings.Mention mention() {
        return Findings.Mention.COUNTED;
    }

    @Override
    protected List<String> precedence() {
        return REASON_ORDER;
    }

    private static String nonRoce(Facts facts) {
        return facts.nonRoce().isEmpty() ? "" : " (its RDMA ports: " + String.join(", ", facts.nonRoce().stream().limit(4).toList()) + ")";
    }

    static Set<Integer> expectedPfc(ProbeSpec.Roce roce) {
        Set<Integer> expected = new TreeSet<>(roce.pfcPriorities());
        expected.add(roce.priority());
        return expected;
    }

    static String pfcText(Set<Integer> priorities) {
        return priorities.isEmpty() ? "no priority" : "priority " + join(priorities);
    }

    /** The fleet facts of a port: what other nodes are compared with. */
    private static Map<String, Object> summary(RocePort port, ProbeSpec.Roce roce) {
        Map<String, Object> d = new LinkedHashMap<>();
        d.put("port", port.device() + "/" + port.port());
        port.netdev().ifPresent(n -> d.put("netdev", n));
        trustOf(port).ifPresent(t -> d.put("trust", t.value()));
        port.mlnxQos().value().flatMap(MlnxQos::pfcEnabled).or(() -> port.dcbPfc().value())
                .ifPresent(p -> d.put("pfc", p.stream().sorted().toList()));
        Optional.ofNullable(port.ecnNp().get(roce.priority())).ifPresent(v -> d.put("ecnNp", v));
        Optional.ofNullable(port.ecnRp().get(roce.priority())).ifPresent(v -> d.put("ecnRp", v));
        port.cnpDscp().ifPresent(v -> d.put("cnpDscp", v));
        port.configfsTos().or(port::trafficClassTos).ifPresent(v -> d.put("defaultTos", v));
        return d;
    }

    /** A value and the source that gave it, for messages. */
    record Answer<T>(T value, String source) {
    }

    /** mlnx_qos's trust state, else dcb apptrust's order, else DSCP entries in dcb's APP table (which mean dscp). */
    static Optional<Answer<String>> trustOf(RocePort port) {
        Optional<Answer<String>> mlnx = port.mlnxQos().value().flatMap(MlnxQos::trust).map(t -> new Answer<>(t, "mlnx_qos"));
        return mlnx.or(() -> appTrust(port))
                .or(() -> port.dcbApp().value().filter(t -> !t.isEmpty())
                        .map(t -> new Answer<>("dscp", "dcb app (the APP table has DSCP entries)")));
    }

    static Optional<Answer<String>> appTrust(RocePort port) {
        return port.dcbAppTrust().value().map(order -> new Answer<>(DcbAppTrust.trust(order),
                "dcb apptrust order: " + (order.isEmpty() ? "empty" : String.join(" ", order))));
    }

    /** In ascending order: the parsers' sets are unordered. */
    static String join(Set<Integer> values) {
        return String.join(",", values.stream().sorted().map(String::valueOf).toList());
    }
}
