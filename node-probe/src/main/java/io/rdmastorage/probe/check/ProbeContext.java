package io.rdmastorage.probe.check;

import io.rdmastorage.contract.spec.ProbeSpec;
import io.rdmastorage.probe.host.HostRoot;
import io.rdmastorage.probe.host.ToolRunner;
import io.rdmastorage.probe.ports.PortView;
import io.rdmastorage.probe.ports.StorageNicSelection;
import java.time.Instant;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Everything a check may look at.
 *
 * @param spec      the validated spec; {@link ProbeSpec#discover()} when none was given
 * @param discovery true when no spec was given: report what the node has
 * @param now       the probe's start time, for "recent" log lines
 * @param counterBaseline the previous round's error counters as the operator handed them
 *                        ({@code --counter-baseline}, a {@link io.rdmastorage.contract.spec.CounterBaseline}
 *                        document, unread); empty on a first round or by hand
 * @param portView  the host's RDMA ports split into storage and compute NICs, read and split at most
 *                  once per run ({@link #ports()}, {@link #allPorts()}, {@link #storageNics()})
 */
public record ProbeContext(HostRoot host, ToolRunner tools, ProbeSpec spec, boolean discovery, String node, Instant now,
                           Optional<String> counterBaseline, Supplier<StorageNicSelection> portView) {

    /** With the host's RDMA ports read from {@code host} the first time a check asks. */
    public ProbeContext(HostRoot host, ToolRunner tools, ProbeSpec spec, boolean discovery, String node, Instant now,
                        Optional<String> counterBaseline) {
        this(host, tools, spec, discovery, node, now, counterBaseline,
                once(() -> StorageNicSelection.of(PortView.read(host), spec)));
    }

    /** Without a counter baseline (a first round). */
    public ProbeContext(HostRoot host, ToolRunner tools, ProbeSpec spec, boolean discovery, String node, Instant now) {
        this(host, tools, spec, discovery, node, now, Optional.empty());
    }

    /**
     * The host's RDMA ports that carry storage: every port, or with {@code rdma.storageNics} only the
     * storage NICs' (compute NICs left out). Every check of a run sees the same reading.
     */
    public PortView ports() {
        return portView.get().storage();
    }

    /** Every RDMA port of the host, compute NICs included: for what a storage client's own configuration names. */
    public PortView allPorts() {
        return portView.get().all();
    }

    /** The host's RDMA devices split into storage NICs and compute NICs by {@code rdma.storageNics}. */
    public StorageNicSelection storageNics() {
        return portView.get();
    }

    private static Supplier<StorageNicSelection> once(Supplier<StorageNicSelection> reader) {
        return new Supplier<>() {
            private StorageNicSelection view;

            @Override
            public synchronized StorageNicSelection get() {
                if (view == null) {
                    view = reader.get();
                }
                return view;
            }
        };
    }
}
