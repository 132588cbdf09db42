package io.rdmastorage.probe.acceptance;

import io.rdmastorage.contract.spec.AcceptanceSpec;
import io.rdmastorage.contract.spec.ProbeSpec;
import io.rdmastorage.probe.counters.CounterSnapshot;
import io.rdmastorage.probe.counters.CounterWindow;
import io.rdmastorage.probe.counters.StorageCounters;
import io.rdmastorage.probe.counters.TransportTraffic;
import io.rdmastorage.probe.host.NvmeControllers;
import io.rdmastorage.probe.parse.NvmeController;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The {@code nvmeof} target, one NVMe-oF subsystem: for each transport of the spec, in order, the controller of the target over
 * that transport (an existing live one, or, with {@code connect: true}, one this run connects and
 * disconnects right after that transport's workloads), its namespace's block device, then fio's
 * three read-only workloads on it ({@link FioWorkloads}),
 * and the node's storage counters (the storage NICs' RDMA ports, {@code storageNics}) just before the
 * first and just after the last ({@link TransportProof}: a run whose bytes moved on the other transport is not this transport's).
 *
 * <p>A transport whose device is also reached by another controller (NVMe multipath with paths
 * over both transports) is not measured: the head would send part of the I/O over the other
 * path, and the comparison would compare nothing.
 */
public final class NvmeofSubsystem implements AcceptanceTarget {

    /** The kernel scans a new controller's namespaces after {@code nvme connect} returns. */
    static final Duration NAMESPACE_WAIT = Duration.ofSeconds(10);

    private final TargetTools tools;
    private final AcceptanceSpec spec;
    private String fioVersion = "";

    /** @param tools the host's {@code nvme} among them */
    NvmeofSubsystem(TargetTools tools, AcceptanceSpec spec) {
        this.tools = tools;
        this.spec = spec;
    }

    @Override
    public Result measure() {
        List<AcceptanceReport.TransportRun> runs = new ArrayList<>();
        // nothing is connected for a run whose transport no counter could prove
        Optional<StorageCounters> counters = tools.counters(spec.storageNics(), Set.of(spec.nvmeof().port()), false);
        try (NvmeConnections connections = new NvmeConnections(tools.host(), tools.hostTools(), tools.journal())) {
            for (String transport : spec.nvmeof().transports()) {
                runs.add(counters.isPresent() ? measure(transport, connections, counters.get())
                        : failed(transport, "", TargetTools.noStorageNic(spec.storageNics())));
            }
            connections.close();
            return new Result(runs, connections.disconnected(), connections.problems(), fioVersion);
        }
    }

    private AcceptanceReport.TransportRun measure(String transport, NvmeConnections connections, StorageCounters counters) {
        ProbeSpec.Target target = spec.nvmeof().target();
        List<NvmeController> controllers = NvmeControllers.list(tools.host());
        Optional<NvmeController> existing = controllers.stream()
                .filter(c -> c.connects(transport, target.nqn(), target.address(), target.port()) && c.isLive())
                .findFirst();
        if (existing.isPresent()) {
            return measureOn(transport, existing.get(), false, counters);
        }
        if (!spec.nvmeof().connect()) {
            return failed(transport, "", "no live " + transport + " controller for " + target + "; connect it (nvme connect -t "
                    + transport + " -a " + target.address() + " -s " + target.port() + " -n " + target.nqn()
                    + ") or set nvmeof.connect: true to let the run connect and disconnect it");
        }
        NvmeConnections.Attempt connected = connections.connect(target, transport);
        if (connected.connected().isEmpty()) {
            return failed(transport, "", "could not connect over " + transport + ": " + connected.problem());
        }
        NvmeController controller = connected.connected().get().controller();
        try {
            return measureOn(transport, controller, true, counters);
        } finally {
            connections.disconnect(controller.name());
        }
    }

    private AcceptanceReport.TransportRun measureOn(String transport, NvmeController controller, boolean ours,
                                                    StorageCounters counters) {
        Optional<NamespaceDevice> device = awaitNamespace(controller);
        if (device.isEmpty()) {
            return new AcceptanceReport.TransportRun(transport, controller.name(), "", ours, Map.of(),
                    controller.name() + " has no namespace under " + NvmeControllers.NVME_CLASS + "/" + controller.name()
                            + " after " + NAMESPACE_WAIT.toSeconds() + "s; check that the subsystem exports one (nvme list-subsys)", "");
        }
        String dev = device.get().device();
        if (!device.get().sharedWith().isEmpty()) {
            return new AcceptanceReport.TransportRun(transport, controller.name(), dev, ours, Map.of(),
                    dev + " is an NVMe multipath head that " + String.join(", ", device.get().sharedWith())
                            + " also reaches, so its I/O would not all go over " + transport + "; measure with one transport "
                            + "connected at a time (connect: true connects each only for its own run)", "");
        }
        List<String> ports = counters.ports().stream().map(Object::toString).toList();
        CounterSnapshot trafficBefore = counters.read();
        // fio opens the host's device node under the host root: a privileged container's own /dev is a
        // copy its runtime made when it started, without the namespace `nvme connect` has just created
        FioWorkloads.Measured measured = FioWorkloads.run(tools.host(), tools.ownTools(), spec, tools.host().resolve(dev).toString());
        if (!measured.fioVersion().isEmpty()) {
            fioVersion = measured.fioVersion();
        }
        if (!measured.problem().isEmpty()) {
            return new AcceptanceReport.TransportRun(transport, controller.name(), dev, ours, measured.numbers(),
                    measured.problem(), "");
        }
        TransportProof proof = TransportProof.of(transport,
                TransportTraffic.of(new CounterWindow(trafficBefore, counters.read()), ports),
                spec.nvmeof().target(), measured.bytes(), measured.ios());
        return new AcceptanceReport.TransportRun(transport, controller.name(), dev, ours, measured.numbers(), proof.problem(),
                proof.summary());
    }

    private Optional<NamespaceDevice> awaitNamespace(NvmeController controller) {
        long deadline = System.nanoTime() + NAMESPACE_WAIT.toNanos();
        while (true) {
            List<NvmeController> all = NvmeControllers.list(tools.host());
            Map<String, List<String>> entries = new LinkedHashMap<>();
            all.forEach(c -> entries.put(c.name(), tools.host().list(NvmeControllers.NVME_CLASS + "/" + c.name())));
            Optional<NamespaceDevice> device = NamespaceDevice.of(controller, entries, all);
            if (device.isPresent() || System.nanoTime() > deadline) {
                return device;
            }
            try {
                Thread.sleep(200);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return Optional.empty();
            }
        }
    }

    private static AcceptanceReport.TransportRun failed(String transport, String controller, String problem) {
        return new AcceptanceReport.TransportRun(transport, controller, "", false, Map.of(), problem, "");
    }
}
