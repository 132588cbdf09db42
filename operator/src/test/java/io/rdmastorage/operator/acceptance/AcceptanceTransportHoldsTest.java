package io.rdmastorage.operator.acceptance;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.rdmastorage.contract.spec.InvalidSpecException;
import io.rdmastorage.operator.api.AcceptanceNvmeofTarget;
import io.rdmastorage.operator.api.AcceptanceTransport;
import io.rdmastorage.operator.api.RdmaStorageAcceptance;
import io.rdmastorage.operator.api.RdmaStorageAcceptanceSpec;
import io.rdmastorage.operator.api.RdmaStorageAcceptanceStatus;
import io.rdmastorage.operator.status.Conditions;
import io.rdmastorage.operator.status.Reasons;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Which nodes acceptance runs hold from profiles' probes, by what the runs' statuses record. */
public class AcceptanceTransportHoldsTest {

    private static final Instant NOW = Instant.parse("2026-12-01T16:00:00Z");

    @Test
    void aConnectingRunHoldsItsNodeFromItsPodsCreationUntilItsChangesAreUndone() {
        RdmaStorageAcceptance run = holding("gpu-07", true);
        assertThat(AcceptanceTransportHolds.heldNode(run)).contains("gpu-07");
        assertThat(AcceptanceTransportHolds.heldNodes(List.of(run, holding("gpu-08", false)))).containsExactly("gpu-07");

        run.getStatus().setPendingCleanup(null);
        AcceptanceDigest.stamp(run, run.getStatus());
        assertThat(AcceptanceTransportHolds.heldNode(run)).as("undone").isEmpty();
    }

    @Test
    void aRunThatConnectsNothingHoldsNothing() {
        assertThat(AcceptanceTransportHolds.heldNode(holding("gpu-07", false))).isEmpty();
        RdmaStorageAcceptance pending = holding("gpu-07", true);
        pending.setStatus(null);
        assertThat(AcceptanceTransportHolds.heldNode(pending)).as("not started").isEmpty();
    }

    @Test
    void aStatusSomeoneElseWroteHoldsNothing() {
        RdmaStorageAcceptance forged = holding("gpu-07", true);
        forged.getStatus().getPendingCleanup().setNodeName("gpu-01");
        assertThat(AcceptanceTransportHolds.heldNode(forged)).as("would blind every profile to gpu-01").isEmpty();
    }

    @Test
    void aCleanupThatFailedForGoodHoldsNothing() {
        RdmaStorageAcceptance run = holding("gpu-07", true);
        run.getStatus().setPhase(Reasons.Acceptance.FAILED);
        run.getStatus().setConditions(List.of(Conditions.of(Reasons.Acceptance.CLEANED_UP, Conditions.FALSE,
                Reasons.Acceptance.CLEANUP_FAILED, "the cleanup pod exited 1", 1, NOW)));
        AcceptanceDigest.stamp(run, run.getStatus());
        assertThat(AcceptanceTransportHolds.heldNode(run)).as("what is left is the node's state now").isEmpty();
    }

    /**
     * An nvmeof run on {@code node}, Running, with what it may change recorded and stamped as the
     * operator writes it; {@code connect}: whether it may connect transports (else it changes nothing).
     */
    public static RdmaStorageAcceptance holding(String node, boolean connect) {
        AcceptanceNvmeofTarget target = new AcceptanceNvmeofTarget();
        target.setNqn("nqn.2024-01.dev.wutz:target1");
        target.setAddress("10.68.20.10");
        target.setTransports(List.of(AcceptanceTransport.RDMA, AcceptanceTransport.TCP));
        target.setConnect(connect);
        RdmaStorageAcceptanceSpec spec = new RdmaStorageAcceptanceSpec();
        spec.setNodeName(node);
        spec.setNvmeof(target);
        RdmaStorageAcceptance run = new RdmaStorageAcceptance();
        String name = node + "-accept";
        run.setMetadata(new ObjectMetaBuilder().withName(name).withUid("u-" + name).withGeneration(1L)
                .withCreationTimestamp("2026-12-01T15:00:00Z").build());
        run.setSpec(spec);
        RdmaStorageAcceptanceStatus status = new RdmaStorageAcceptanceStatus();
        status.setPhase(Reasons.Acceptance.PHASE_RUNNING);
        status.setPodName(AcceptancePods.podName(run));
        try {
            status.setPendingCleanup(AcceptanceCleanupPlanner.intended(run, AcceptanceSpecDocument.of(spec, name)));
        } catch (InvalidSpecException e) {
            throw new AssertionError(e);
        }
        run.setStatus(AcceptanceDigest.stamp(run, status));
        return run;
    }
}
