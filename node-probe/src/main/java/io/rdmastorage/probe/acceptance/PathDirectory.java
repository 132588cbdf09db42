package io.rdmastorage.probe.acceptance;

import io.rdmastorage.contract.spec.AcceptanceSpec;
import io.rdmastorage.probe.counters.CounterSnapshot;
import io.rdmastorage.probe.counters.CounterWindow;
import io.rdmastorage.probe.counters.StorageCounters;
import io.rdmastorage.probe.counters.TransportTraffic;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The {@code path} target, a file-system directory: its one file laid out
 * ({@link AcceptanceFile}), fio's three read-only workloads on it ({@link FioWorkloads}), the
 * node's storage counters around them (the storage NICs' RDMA ports, {@code storageNics}) naming the transport that carried the reads
 * ({@link PathTransportProof}), and the file removed, whatever happened. One row: a file system
 * such as GPFS cannot switch its transport without restarting its daemon, so the comparison with
 * the other transport is a second run, which the operator puts beside this one.
 */
public final class PathDirectory implements AcceptanceTarget {

    static final long MEBIBYTE = 1024L * 1024;

    private final TargetTools tools;
    private final AcceptanceSpec spec;

    /** @param tools the host's {@code ss} and {@code mmdiag} among them, for the counters */
    PathDirectory(TargetTools tools, AcceptanceSpec spec) {
        this.tools = tools;
        this.spec = spec;
    }

    @Override
    public Result measure() {
        AcceptanceSpec.Path path = spec.path();
        // the directory as named, under the host root, never through a link: the file is created relative to it held open
        try (AcceptanceFile file = new AcceptanceFile(tools.host().root(), path.directory(), path.fileName(), path.file(),
                tools.journal())) {
            // no file is laid out for a run whose transport no counter could prove
            Optional<StorageCounters> scoped = tools.counters(spec.storageNics(), StorageCounters.protocols(null).keySet(), true);
            String layout = AcceptanceDirectory.refusal(tools.host(), path.directory(), path.fileSizeMiB() * MEBIBYTE)
                    .or(() -> scoped.isEmpty() ? Optional.of(TargetTools.noStorageNic(spec.storageNics())) : Optional.empty())
                    .orElseGet(() -> file.layOut(path.fileSizeMiB() * MEBIBYTE));
            AcceptanceReport.TransportRun row;
            String fioVersion = "";
            if (!layout.isEmpty()) {
                row = new AcceptanceReport.TransportRun(PathTransportProof.UNPROVEN, "", path.file(), false, Map.of(), layout, "");
            } else {
                StorageCounters counters = scoped.get();
                List<String> ports = counters.ports().stream().map(Object::toString).toList();
                CounterSnapshot before = counters.read();
                FioWorkloads.Measured measured = FioWorkloads.run(tools.host(), tools.ownTools(), spec, file.file().toString());
                fioVersion = measured.fioVersion();
                PathTransportProof proof = PathTransportProof.of(
                        TransportTraffic.of(new CounterWindow(before, counters.read()), ports), measured.bytes(), measured.ios());
                row = new AcceptanceReport.TransportRun(proof.transport(), "", path.file(), false, measured.numbers(),
                        measured.problem().isEmpty() ? proof.problem() : measured.problem(),
                        measured.problem().isEmpty() ? proof.summary() : "");
            }
            file.close();
            return new Result(List.of(row), List.of(), file.problems(), fioVersion);
        }
    }
}
