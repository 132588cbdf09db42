package io.rdmastorage.probe.check;

import static io.rdmastorage.contract.checks.RdmaTraffic.*;

import io.rdmastorage.contract.CheckType;
import io.rdmastorage.contract.spec.DevicePort;
import io.rdmastorage.contract.spec.ProbeSpec;
import io.rdmastorage.probe.counters.CounterSampler;
import io.rdmastorage.probe.counters.CounterWindow;
import io.rdmastorage.probe.counters.StorageCounters;
import io.rdmastorage.probe.host.HostRoot;
import io.rdmastorage.probe.ports.PortView;
import io.rdmastorage.probe.ports.RdmaPort;
import io.rdmastorage.probe.rails.StorageRail;
import io.rdmastorage.probe.rails.StorageRails;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * Which transport really carried the storage bytes: the node's storage counters
 * ({@link StorageCounters}) read twice, {@code traffic.window} apart, and judged on what moved.
 *
 * <ul>
 * <li>RDMA: per port, packets per second (IB {@code counters/port_*_packets}, else soft-RoCE's
 * {@code hw_counters/sent_pkts}/{@code rcvd_pkts}) against {@code minRdmaPacketsPerSecond}, bytes from
 * {@code port_*_data} × 4 where the port has them;</li>
 * <li>TCP: per storage peer, the bytes of its sockets (NVMe/TCP, NFS, GPFS ports, from {@code ss -tin}
 * in the host's network namespace) or GPFS's per-node MB ({@code mmdiag --network}) against
 * {@code maxTcpBytesPerSecond}: above it is False DataOnTcp, whatever RDMA did (part of the I/O
 * fell back);</li>
 * <li>the lossless priority ({@code priority}): a RoCE port's bytes must show in that priority's
 * {@code ethtool -S} bytes (at least half of them: the priority also carries other traffic, never
 * less than RDMA alone);</li>
 * <li>fabric errors: error counters may grow by {@code maxErrorCount}, congestion signals (ECN
 * marks, CNPs, pause frames) reach {@code maxCongestionPerSecond}.</li>
 * </ul>
 * Each storage client's rails (its own configuration's RDMA ports) must each carry their share
 * ({@link RailShares}). A counter at its maximum or going backwards gives no delta: that part is Unknown NoCounterDelta,
 * never a computed number. Nothing moving is Unknown NoStorageTraffic: an idle node proves nothing.
 */
public final class RdmaTrafficCheck extends FactsCheck<RdmaTrafficCheck.Facts> {

    /** Error counters: any growth is a fault (IB PMA registers, mlx5 and soft-RoCE transport errors). */
    static final List<String> ERROR_COUNTERS = List.of("symbol_error", "link_downed", "port_rcv_errors",
            "excessive_buffer_overrun_errors", "hw_counters/out_of_sequence", "hw_counters/packet_seq_err",
            "hw_counters/local_ack_timeout_err", "hw_counters/rnr_nak_retry_err", "hw_counters/out_of_buffer",
            "hw_counters/retry_exceeded_err", "hw_counters/retry_rnr_exceeded_err", "hw_counters/link_downed");
    /** Congestion signals: normal in moderation, a storm past the threshold. */
    static final List<String> CONGESTION_COUNTERS = List.of("hw_counters/np_cnp_sent", "hw_counters/rp_cnp_handled",
            "hw_counters/np_ecn_marked_roce_packets");
    private static final List<String> REASON_ORDER = List.of(DATA_ON_TCP, DATA_ON_LOSSY_PRIORITY, FABRIC_ERRORS, RAIL_IDLE,
            NO_COUNTER_DELTA, NO_STORAGE_TRAFFIC);
    static final String LOAD = "run storage I/O during the window (the acceptance run, or e.g. `dd if=/dev/nvme0n1 "
            + "of=/dev/null bs=1M iflag=direct` on an NVMe-oF namespace) and probe again";

    /**
     * What the host showed.
     *
     * @param ports  the sampled RDMA ports, with their link layer and netdev
     * @param window the two readings of the node's storage counters
     * @param rails  the storage clients' rails, from their own configuration
     * @param inactive the rails' ports that are not ACTIVE ({@code dev/port})
     */
    public record Facts(String hostRoot, boolean sysfsVisible, boolean procfsVisible, List<Port> ports, CounterWindow window,
                        List<StorageRail> rails, Set<String> inactive) {
        public Facts {
            ports = List.copyOf(ports);
            rails = List.copyOf(rails);
            inactive = Set.copyOf(inactive);
        }

        /** Without storage rails. */
        public Facts(String hostRoot, boolean sysfsVisible, boolean procfsVisible, List<Port> ports, CounterWindow window) {
            this(hostRoot, sysfsVisible, procfsVisible, ports, window, List.of(), Set.of());
        }
    }

    /**
     * One sampled RDMA port: {@code linkLayer} as sysfs says (Ethernet = RoCE), its netdev where known,
     * and the Ethernet ports whose {@code ethtool -S} counts its bytes per priority: the netdev itself,
     * or a bond's slaves (a bond's own statistics have no per-priority counters).
     */
    public record Port(DevicePort port, String linkLayer, Optional<String> netdev, List<String> counted) {
        public Port {
            counted = List.copyOf(counted);
        }

        /** A port whose netdev counts its own priorities. */
        public Port(DevicePort port, String linkLayer, Optional<String> netdev) {
            this(port, linkLayer, netdev, netdev.stream().toList());
        }

        boolean roce() {
            return linkLayer.equals("Ethernet");
        }

        /** sysfs showed no link layer: neither RoCE nor InfiniBand can be assumed. */
        boolean linkLayerUnknown() {
            return linkLayer.isEmpty();
        }

        /** "eth2", or "bond0 (ens1f0, ens1f1)": where the per-priority counters were read. */
        String countedOn() {
            String own = netdev.orElse("");
            return counted.equals(List.of(own)) ? own : own + " (" + String.join(", ", counted) + ")";
        }
    }

    private final CounterSampler.Pause pause;

    public RdmaTrafficCheck() {
        this(CounterSampler.Pause.SLEEP);
    }

    /** With another way to wait the window (tests change the host's counters instead of sleeping). */
    public RdmaTrafficCheck(CounterSampler.Pause pause) {
        this.pause = pause;
    }

    @Override
    public CheckType type() {
        return CheckType.RDMA_TRAFFIC;
    }

    /** Only where the profile asks: sampling takes the window's time. */
    @Override
    public boolean applies(ProbeContext context) {
        return context.spec().traffic() != null;
    }

    @Override
    protected Facts gather(ProbeContext context) {
        HostRoot host = context.host();
        ProbeSpec spec = context.spec();
        ProbeSpec.Traffic traffic = spec.traffic();
        PortView view = context.ports();
        List<DevicePort> judged = traffic.devicePorts().isEmpty()
                ? view.ports().stream().map(RdmaPort::devicePort).toList() : traffic.devicePorts();
        List<Port> ports = new ArrayList<>();
        List<String> netdevs = new ArrayList<>();
        for (DevicePort p : judged) {
            Optional<RdmaPort> port = view.port(p);
            String linkLayer = port.flatMap(RdmaPort::linkLayer).orElse("");
            Optional<String> netdev = port.filter(RdmaPort::ethernet).flatMap(RdmaPort::netdev);
            // a bond counts no priorities itself: its slaves do
            List<String> counted = netdev.map(n -> port.get().bond() ? port.get().ethernetPorts() : List.of(n))
                    .orElse(List.of());
            counted.stream().filter(n -> !netdevs.contains(n)).forEach(netdevs::add);
            ports.add(new Port(p, linkLayer, netdev, counted));
        }
        Set<Integer> tcpPorts = new TreeSet<>(StorageCounters.protocols(spec).keySet());
        if (spec.nvmeof() != null) {
            spec.nvmeof().targets().forEach(t -> tcpPorts.add(t.port()));
        }
        StorageCounters counters = new StorageCounters(host, context.tools(), new StorageCounters.Scope(
                ports.stream().map(Port::port).toList(), netdevs, tcpPorts, true));
        boolean sysfs = view.sysfsVisible();
        boolean procfs = HostView.PROCFS.visible(host);
        List<StorageRail> rails = sysfs && procfs ? StorageRails.read(host, context.tools(), view, spec) : List.of();
        Set<String> inactive = new TreeSet<>();
        rails.forEach(r -> r.port().flatMap(view::port).filter(p -> !p.sysfs().active()).ifPresent(p -> inactive.add(p.name())));
        CounterWindow window = sysfs && procfs ? CounterSampler.sample(counters.reader(), traffic.windowDuration(), pause)
                : null;
        return new Facts(host.root().toString(), sysfs, procfs, ports, window, rails, inactive);
    }

    @Override
    protected Judgement judge(Facts facts, ProbeSpec spec) {
        if (!facts.sysfsVisible()) {
            return Judgement.only(HostView.SYSFS.missing(facts.hostRoot()), new Details());
        }
        if (!facts.procfsVisible()) {
            return Judgement.only(HostView.PROCFS.missing(facts.hostRoot()), new Details());
        }
        return new RdmaTrafficWindowRules(facts, spec).judge();
    }

    @Override
    protected Findings.Mention mention() {
        return Findings.Mention.COUNTED;
    }

    @Override
    protected List<String> precedence() {
        return REASON_ORDER;
    }

    /** Bytes per second for people, in decimal units as link speeds are written: 2.1 GB/s, 0.1 MB/s, 812 B/s. */
    static String bytes(double perSecond) {
        if (perSecond >= 1e9) {
            return String.format(Locale.ROOT, "%.1f GB/s", perSecond / 1e9);
        }
        if (perSecond >= 1e5) {
            return String.format(Locale.ROOT, "%.1f MB/s", perSecond / 1e6);
        }
        if (perSecond >= 1e3) {
            return String.format(Locale.ROOT, "%.1f kB/s", perSecond / 1e3);
        }
        return Math.round(perSecond) + " B/s";
    }
}
