package io.rdmastorage.probe.acceptance;

import io.rdmastorage.contract.spec.DevicePort;
import io.rdmastorage.contract.spec.StorageNics;
import io.rdmastorage.probe.counters.StorageCounters;
import io.rdmastorage.probe.host.HostRoot;
import io.rdmastorage.probe.host.ToolRunner;
import io.rdmastorage.probe.ports.PortView;
import io.rdmastorage.probe.ports.RdmaPort;
import io.rdmastorage.probe.ports.StorageNicSelection;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * What every {@link AcceptanceTarget} is measured with: the host, read through its root; the host's
 * own tools ({@code nvme}, {@code ss}, {@code mmdiag}: chroot into the host root in the pod); and the
 * probe image's tools (fio, perftest, which a host need not have), with a timeout per run; and the
 * run's {@link AcceptanceJournal}, where each change to the node is announced before it is made.
 */
public record TargetTools(HostRoot host, ToolRunner hostTools, Function<Duration, ToolRunner> ownTools,
                          AcceptanceJournal journal) {

    /** Without a journal: a run whose changes only its own hooks undo. */
    public TargetTools(HostRoot host, ToolRunner hostTools, Function<Duration, ToolRunner> ownTools) {
        this(host, hostTools, ownTools, AcceptanceJournal.NONE);
    }

    /** The node's storage counters within {@code scope} (a verbs run's one port), read through the host and its tools. */
    StorageCounters counters(StorageCounters.Scope scope) {
        return new StorageCounters(host, hostTools, scope);
    }

    /**
     * The node's storage counters around a run, read through the host and its tools: the RDMA ports
     * of the storage NICs {@code storageNics} selects (on a GB200 tray the BlueField-3 rails, so that
     * a training job's traffic on the compute rails proves nothing about storage), every port when
     * it is null; the sockets to {@code tcpPorts}; GPFS's connections with {@code gpfs}. Empty when
     * the selectors match no RDMA device of the node ({@link #noStorageNic}).
     */
    Optional<StorageCounters> counters(StorageNics storageNics, Set<Integer> tcpPorts, boolean gpfs) {
        List<DevicePort> ports = List.of();   // every port, listed again at each reading
        if (storageNics != null) {
            ports = StorageNicSelection.of(PortView.read(host), storageNics).storage().ports().stream()
                    .map(RdmaPort::devicePort).toList();
            if (ports.isEmpty()) {
                return Optional.empty();
            }
        }
        return Optional.of(counters(new StorageCounters.Scope(ports, List.of(), tcpPorts, gpfs)));
    }

    /** Why {@link #counters} is empty: a run's problem, which leaves it Incomplete. */
    static String noStorageNic(StorageNics storageNics) {
        return "no RDMA port of the node belongs to a device storageNics selects (" + storageNics.describe()
                + "), so no counter can show which transport carried the reads; name the node's storage NICs "
                + "(ibdev2netdev, rdma link show)";
    }
}
