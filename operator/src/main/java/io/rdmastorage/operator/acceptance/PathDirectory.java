package io.rdmastorage.operator.acceptance;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.rdmastorage.contract.spec.AcceptanceSpec;
import io.rdmastorage.contract.spec.InvalidSpecException;
import io.rdmastorage.contract.spec.SpecReader;
import io.rdmastorage.operator.api.AcceptancePathTarget;
import io.rdmastorage.operator.api.AcceptancePendingCleanup;
import io.rdmastorage.operator.api.AcceptanceTransportResult;
import io.rdmastorage.operator.api.RdmaStorageAcceptance;
import io.rdmastorage.operator.api.RdmaStorageAcceptanceSpec;
import io.rdmastorage.operator.config.OperatorConfig;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The {@code path} target: a directory, measured over the transport its file system uses; RDMA
 * against TCP is this run beside the earlier one it names in {@code compareWith} ({@link PathComparison}).
 */
record PathDirectory(AcceptancePathTarget section) implements AcceptanceTarget {

    public static final String NAME = "path";
    /** The slowest write rate a path run's deadline allows for laying out its file. */
    static final int LAYOUT_MIB_PER_SECOND = 50;

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String column() {
        return "path " + section.getDirectory();
    }

    /** The run's file is named by the run ({@link AcceptanceSpec.Path#fileNameFor}); its deadline allows laying it out. */
    @Override
    public AcceptanceSpecDocument document(RdmaStorageAcceptanceSpec spec, String runName) throws InvalidSpecException {
        if (runName == null) {
            throw new InvalidSpecException("path", "needs the run's name, which names its file");
        }
        AcceptanceSpec contract = AcceptanceSpecDocument.derive(spec, AcceptanceSpec.class,
                Map.of("path.fileName", AcceptanceSpec.Path.fileNameFor(runName)), SpecReader::readAcceptance);
        AcceptanceSpec.Path path = contract.path();
        Duration estimate = AcceptanceSpecDocument.workloads(contract).plus(AcceptanceSpecDocument.PER_TRANSPORT_OVERHEAD)
                .plus(layout(path)).plus(AcceptanceSpecDocument.START_OVERHEAD);
        return AcceptanceSpecDocument.of(this, contract, spec, estimate, path.directory()
                + " (over the transport its file system uses; one file of " + path.fileSizeMiB() + " MiB, "
                + path.fileName() + ", written there and removed afterwards)");
    }

    /** Writing a path run's file, at no less than {@value #LAYOUT_MIB_PER_SECOND} MiB/s. */
    static Duration layout(AcceptanceSpec.Path path) {
        return Duration.ofSeconds((path.fileSizeMiB() + LAYOUT_MIB_PER_SECOND - 1) / LAYOUT_MIB_PER_SECOND);
    }

    /** Refused before anything runs on the node: a compareWith that cannot be used would compare nothing. */
    @Override
    public Optional<String> refusal(AcceptanceSnapshot snapshot) {
        return section.getCompareWith() == null ? Optional.empty()
                : PathComparison.refusal(snapshot.run(), snapshot.run(section.getCompareWith()));
    }

    /** Its one file, in the directory. */
    @Override
    public Optional<AcceptancePendingCleanup> changes(AcceptanceSpecDocument document) {
        AcceptancePendingCleanup changes = new AcceptancePendingCleanup();
        changes.setFile(document.spec().path().file());
        return Optional.of(changes);
    }

    /** The directory, and nothing else of the host: the run writes its one file there, its cleanup removes it. */
    @Override
    public Optional<String> writableDirectory(AcceptanceSpecDocument document) {
        return Optional.of(document.spec().path().directory());
    }

    @Override
    public Optional<String> outside(AcceptanceSpec.Bounds bounds, AcceptanceSpecDocument document) {
        return bounds.refusal(document.spec());
    }

    @Override
    public List<Pod> pods(RdmaStorageAcceptance run, AcceptanceSpecDocument document, Map<String, Node> nodes,
                          OperatorConfig config) {
        return List.of(AcceptancePods.pod(run, document, false, config));
    }

    /** This run's row beside the earlier run's, looked at again: it may have been deleted while this one measured. */
    @Override
    public Table judge(AcceptanceSnapshot snapshot, List<AcceptanceTransportResult> reported, double minLatencyRatio) {
        String compareWith = section.getCompareWith();
        Optional<RdmaStorageAcceptance> earlier = compareWith == null ? Optional.empty() : snapshot.run(compareWith);
        Optional<String> refusal = compareWith == null ? Optional.empty() : PathComparison.refusal(snapshot.run(), earlier);
        List<AcceptanceTransportResult> rows = earlier.isPresent() && refusal.isEmpty()
                ? PathComparison.rows(reported, earlier.get()) : reported;
        return new Table(rows, PathComparison.judge(rows, refusal, compareWith != null, minLatencyRatio));
    }

    /** The transport its counters showed, and the file it wrote and removed. */
    @Override
    public String measured(AcceptanceResult result) {
        AcceptanceTransportResult own = result.transports().get(0);
        return "measured over " + own.getTransport() + " (the storage counters: " + own.getTraffic() + "); " + own.getDevice()
                + " was written for the run and removed after it";
    }

    @Override
    public String markdown(RdmaStorageAcceptance run, AcceptanceSpecDocument document, AcceptanceResult result,
                           RdmaEffectiveness.Ruling ruling) {
        return AcceptanceMarkdown.fio(run, document, result, ruling, "directory " + document.spec().path().directory(),
                AcceptanceMarkdown.pathRuns(run, document.spec().path(), result.transports()), "FILE", "the run's file");
    }
}
