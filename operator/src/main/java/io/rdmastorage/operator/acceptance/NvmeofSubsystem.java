package io.rdmastorage.operator.acceptance;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.rdmastorage.contract.spec.AcceptanceSpec;
import io.rdmastorage.contract.spec.InvalidSpecException;
import io.rdmastorage.contract.spec.ProbeSpec;
import io.rdmastorage.contract.spec.SpecReader;
import io.rdmastorage.operator.api.AcceptanceCleanupController;
import io.rdmastorage.operator.api.AcceptanceNvmeofTarget;
import io.rdmastorage.operator.api.AcceptancePendingCleanup;
import io.rdmastorage.operator.api.AcceptanceTransportResult;
import io.rdmastorage.operator.api.RdmaStorageAcceptance;
import io.rdmastorage.operator.api.RdmaStorageAcceptanceSpec;
import io.rdmastorage.operator.config.OperatorConfig;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The {@code nvmeof} target: one NVMe-oF subsystem, connected over each transport in turn on the run's node. */
record NvmeofSubsystem(AcceptanceNvmeofTarget section) implements AcceptanceTarget {

    public static final String NAME = "nvmeof";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String column() {
        return section.getNqn();
    }

    /** Every workload on every transport, each transport with its overhead. */
    @Override
    public AcceptanceSpecDocument document(RdmaStorageAcceptanceSpec spec, String runName) throws InvalidSpecException {
        AcceptanceSpec contract = AcceptanceSpecDocument.derive(spec, AcceptanceSpec.class, Map.of(), SpecReader::readAcceptance);
        AcceptanceSpec.Nvmeof nvmeof = contract.nvmeof();
        Duration estimate = AcceptanceSpecDocument.workloads(contract).plus(AcceptanceSpecDocument.PER_TRANSPORT_OVERHEAD)
                .multipliedBy(nvmeof.transports().size()).plus(AcceptanceSpecDocument.START_OVERHEAD);
        return AcceptanceSpecDocument.of(this, contract, spec, estimate,
                String.join(" then ", nvmeof.transports()) + " of " + nvmeof.target());
    }

    @Override
    public boolean connectsToProfileTargets() {
        return Boolean.TRUE.equals(section.getConnect());
    }

    /** With {@code connect: true}, a controller per transport, to the target of the spec. */
    @Override
    public Optional<AcceptancePendingCleanup> changes(AcceptanceSpecDocument document) {
        AcceptanceSpec.Nvmeof nvmeof = document.spec().nvmeof();
        if (!nvmeof.connect()) {
            return Optional.empty();
        }
        ProbeSpec.Target target = nvmeof.target();
        AcceptancePendingCleanup changes = new AcceptancePendingCleanup();
        changes.setControllers(new ArrayList<>(nvmeof.transports().stream()
                .map(t -> new AcceptanceCleanupController(t, target.nqn(), target.address(), target.port())).toList()));
        return Optional.of(changes);
    }

    @Override
    public Optional<String> outside(AcceptanceSpec.Bounds bounds, AcceptanceSpecDocument document) {
        return bounds.refusal(document.spec());
    }

    /** The host's network only to connect: nvme-tcp's sockets live in the connecting process's namespace. */
    @Override
    public List<Pod> pods(RdmaStorageAcceptance run, AcceptanceSpecDocument document, Map<String, Node> nodes,
                          OperatorConfig config) {
        return List.of(AcceptancePods.pod(run, document, document.spec().nvmeof().connect(), config));
    }

    /** RDMA against TCP, both measured in this run. */
    @Override
    public Table judge(AcceptanceSnapshot snapshot, List<AcceptanceTransportResult> reported, double minLatencyRatio) {
        return new Table(reported, RdmaEffectiveness.judge(reported, minLatencyRatio));
    }

    @Override
    public String markdown(RdmaStorageAcceptance run, AcceptanceSpecDocument document, AcceptanceResult result,
                           RdmaEffectiveness.Ruling ruling) {
        return AcceptanceMarkdown.fio(run, document, result, ruling, document.spec().nvmeof().target().toString(),
                AcceptanceMarkdown.controllers(result.transports()), "DEVICE", "the controller's namespace");
    }
}
