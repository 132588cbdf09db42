package io.rdmastorage.probe.counters;

import io.rdmastorage.contract.checks.RdmaPortErrors.Counter;
import io.rdmastorage.contract.spec.DevicePort;
import io.rdmastorage.probe.counters.CounterKey.Source;
import io.rdmastorage.probe.host.HostRoot;
import io.rdmastorage.probe.host.ToolRunner;
import io.rdmastorage.probe.parse.SysfsCounter;
import io.rdmastorage.probe.ports.PortView;
import io.rdmastorage.probe.ports.RdmaPort;
import java.util.Collections;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The error counters of RDMA ports under their {@link Counter} names, read once: the files of each
 * port's {@code counters/} and {@code hw_counters/} as {@link StorageCounters} reads them (with the
 * legacy registers' maxima), and the {@code carrier_changes} of the Ethernet ports under a RoCE
 * port's netdev (a bond's slaves summed, a VLAN's parent).
 */
public final class PortErrorCounters {

    /**
     * Where each counter is, first match wins: the IB PMA's {@code counters/} (mlx5, InfiniBand and
     * RoCE), then the driver's {@code hw_counters/} (mlx5's {@code rnr_nak_retry_err} and
     * {@code local_ack_timeout_err}; soft-RoCE's {@code link_downed} and {@code retry_rnr_exceeded_err},
     * its name for RNR retries exhausted).
     */
    static final Map<Counter, List<String>> FILES = files();

    /**
     * One port's reading: each counter it has, or why nothing could be read ({@code unreadable}).
     */
    public record Port(Map<Counter, CounterReading> counters, String unreadable) {
        public Port {
            counters = Collections.unmodifiableMap(counters.isEmpty() ? new EnumMap<>(Counter.class) : new EnumMap<>(counters));
        }
    }

    private PortErrorCounters() {
    }

    /** The error counters of {@code ports}, in their order. */
    public static Map<String, Port> read(HostRoot host, ToolRunner tools, PortView view, List<DevicePort> ports) {
        // the port files only: no netdev, no socket, no GPFS is read
        CounterSnapshot snapshot = new StorageCounters(host, tools, new StorageCounters.Scope(ports, List.of(), Set.of(),
                false)).read();
        Map<String, Port> read = new LinkedHashMap<>();
        for (DevicePort p : ports) {
            String subject = p.toString();
            Map<Counter, CounterReading> counters = new EnumMap<>(Counter.class);
            for (Map.Entry<Counter, List<String>> e : FILES.entrySet()) {
                e.getValue().stream().map(name -> snapshot.get(new CounterKey(Source.RDMA_PORT, subject, name)))
                        .filter(r -> r != null).findFirst().ifPresent(r -> counters.put(e.getKey(), r));
            }
            carrierChanges(host, view.port(p)).ifPresent(r -> counters.put(Counter.CARRIER_CHANGES, r));
            String unreadable = snapshot.unreadable().get(subject);
            read.put(subject, new Port(counters, unreadable == null ? "" : unreadable));
        }
        return read;
    }

    /** The sum of the carrier changes of the Ethernet ports under the port's netdev; empty when one is unreadable. */
    private static Optional<CounterReading> carrierChanges(HostRoot host, Optional<RdmaPort> port) {
        List<String> under = port.filter(RdmaPort::ethernet).map(RdmaPort::ethernetPorts).orElse(List.of());
        long sum = 0;
        for (String netdev : under) {
            var value = host.readAttribute("/sys/class/net/" + netdev + "/carrier_changes").map(SysfsCounter::parse);
            if (value.isEmpty() || value.get().isEmpty()) {
                return Optional.empty();
            }
            sum += value.get().getAsLong();
        }
        return under.isEmpty() ? Optional.empty() : Optional.of(CounterReading.of(sum));
    }

    private static Map<Counter, List<String>> files() {
        Map<Counter, List<String>> files = new EnumMap<>(Counter.class);
        files.put(Counter.LINK_DOWNED, List.of("link_downed", "hw_counters/link_downed"));
        files.put(Counter.EXCESSIVE_BUFFER_OVERRUN_ERRORS, List.of("excessive_buffer_overrun_errors"));
        files.put(Counter.LOCAL_LINK_INTEGRITY_ERRORS, List.of("local_link_integrity_errors"));
        files.put(Counter.SYMBOL_ERROR, List.of("symbol_error"));
        files.put(Counter.RNR_NAK_RETRY_ERR, List.of("hw_counters/rnr_nak_retry_err", "hw_counters/retry_rnr_exceeded_err"));
        files.put(Counter.LINK_ERROR_RECOVERY, List.of("link_error_recovery"));
        files.put(Counter.PORT_RCV_ERRORS, List.of("port_rcv_errors"));
        files.put(Counter.LOCAL_ACK_TIMEOUT_ERR, List.of("hw_counters/local_ack_timeout_err"));
        files.put(Counter.PORT_XMIT_DISCARDS, List.of("port_xmit_discards"));
        return Collections.unmodifiableMap(files);
    }
}
