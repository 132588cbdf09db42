package io.rdmastorage.operator.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.rdmastorage.contract.CheckType;
import io.rdmastorage.contract.Status;
import io.rdmastorage.contract.checks.RdmaPortErrors;
import io.rdmastorage.contract.spec.CounterBaseline;
import io.rdmastorage.operator.api.PortErrorsCheckSpec;
import io.rdmastorage.operator.api.RdmaCheckSpec;
import io.rdmastorage.operator.api.RdmaStorageNode;
import io.rdmastorage.operator.api.RdmaStorageNodeStatus;
import io.rdmastorage.operator.api.RdmaStorageProfile;
import io.rdmastorage.operator.api.RdmaStorageProfileSpec;
import io.rdmastorage.operator.verdict.NodeVerdicts;
import io.rdmastorage.operator.verdict.NotProbed;
import io.rdmastorage.operator.verdict.ProbePod;
import io.rdmastorage.operator.probe.CounterBaselineHandover;
import io.rdmastorage.probe.check.CheckResult;
import io.rdmastorage.probe.report.Report;
import io.rdmastorage.probe.report.ReportJson;
import io.rdmastorage.testing.LocalControlPlane;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The verdict writes against the real API server: object once, then status by server-side apply. */
class ClusterWritesApiServerTest {

    @Test
    void verdictObjectThenStatusAndStatusReplacedWhole() {
        // regression: applying an empty details map over one we owned left null, which the schema refuses
        LocalControlPlane plane = LocalControlPlane.shared();
        plane.kubectl().apply(Path.of("../crds")).orThrow("apply crds");
        KubernetesClient admin = plane.adminClient();
        RdmaStorageProfile profile = new RdmaStorageProfile();
        profile.setMetadata(new ObjectMetaBuilder().withName("writes").build());
        RdmaStorageProfileSpec spec = new RdmaStorageProfileSpec();
        spec.setRdma(new RdmaCheckSpec());
        profile.setSpec(spec);
        profile = admin.resources(RdmaStorageProfile.class).resource(profile).serverSideApply();
        ClusterWrites writes = new ClusterWrites(admin);

        RdmaStorageNodeStatus first = NodeVerdicts.notProbed(spec, 1, "w-1", NotProbed.AWAITING_PROBE, Instant.now());
        first.getDetails().put("RdmaDevices", JsonNodeFactory.instance.objectNode().put("ports", "mlx5_0/1"));
        RdmaStorageNode written = writes.writeVerdict(profile, "w-1", null, first);
        // the profile lost its only check: no check's condition, so no details at all (not even an action)
        RdmaStorageNodeStatus second = NodeVerdicts.merge(written.getStatus(),
                NodeVerdicts.notProbed(new RdmaStorageProfileSpec(), 1, "w-1", NotProbed.NODE_NOT_READY, Instant.now()),
                Instant.now());
        RdmaStorageNode again = writes.writeVerdict(profile, "w-1", written, second);

        assertThat(again.getStatus().getConditions().get(0).getReason()).isEqualTo("NoChecksConfigured");
        assertThat(again.getSpec().getNodeName()).isEqualTo("w-1");
        assertThat(written.getStatus().getDetails()).containsKey("RdmaDevices");
        assertThat(again.getStatus().getDetails()).isNullOrEmpty();
        admin.resources(RdmaStorageProfile.class).withName("writes").delete();
        admin.resources(RdmaStorageNode.class).withName(again.getMetadata().getName()).delete();
    }

    @Test
    void thePreviousRoundsPortCountersSurviveTheApiServerAndReachTheNextProbeAsWritten() throws Exception {
        LocalControlPlane plane = LocalControlPlane.shared();
        plane.kubectl().apply(Path.of("../crds")).orThrow("apply crds");
        KubernetesClient admin = plane.adminClient();
        RdmaStorageProfile profile = new RdmaStorageProfile();
        profile.setMetadata(new ObjectMetaBuilder().withName("port-errors-writes").build());
        RdmaStorageProfileSpec spec = new RdmaStorageProfileSpec();
        spec.setPortErrors(new PortErrorsCheckSpec());
        profile.setSpec(spec);
        profile = admin.resources(RdmaStorageProfile.class).resource(profile).serverSideApply();
        // a 64-bit hw counter, an absent one (-1) and a saturated 16-bit register, as a round reads them
        CounterBaseline reading = new CounterBaseline("4c2a7e1d-0f3b-4d5e-9a8b-7c6d5e4f3a2b", Instant.parse("2026-05-01T10:00:00Z"),
                Map.of("mlx5_0/1", CounterBaseline.values(Map.of(RdmaPortErrors.Counter.RNR_NAK_RETRY_ERR, 9_007_199_254_740_993L,
                        RdmaPortErrors.Counter.SYMBOL_ERROR, 65_535L))));
        CheckResult round = CheckResult.builder(CheckType.RDMA_PORT_ERRORS).detail(RdmaPortErrors.BASELINE_DETAIL, reading.wire())
                .condition(Status.UNKNOWN, RdmaPortErrors.NO_COUNTER_BASELINE, "no baseline").build();
        String report = ReportJson.compact(Report.of("w-2", "test", "2026-05-01T10:00:00Z", 800, List.of(round)));
        RdmaStorageNodeStatus harvested = NodeVerdicts.fromTermination(spec, 1, new ProbePod("ns", "p", "w-2"), 1, "Completed",
                report, Instant.now());

        RdmaStorageNode written = new ClusterWrites(admin).writeVerdict(profile, "w-2", null, harvested);
        RdmaStorageNode stored = admin.resources(RdmaStorageNode.class).withName(written.getMetadata().getName()).get();

        assertThat(CounterBaselineHandover.of(spec, stored.getStatus())).hasValue(reading.json());
        admin.resources(RdmaStorageProfile.class).withName("port-errors-writes").delete();
        admin.resources(RdmaStorageNode.class).withName(stored.getMetadata().getName()).delete();
    }

    @Test
    void probePodCreatedOnceAndDeleted() {
        KubernetesClient admin = LocalControlPlane.shared().adminClient();
        String ns = "cluster-writes-test";
        io.fabric8.kubernetes.api.model.Pod pod = boundPod(admin, ns, "probe-w-1", "w-1");
        ClusterWrites writes = new ClusterWrites(admin);

        writes.createPod(pod);
        writes.createPod(pod);   // the same round again (a retried reconcile): AlreadyExists is fine
        assertThat(admin.pods().inNamespace(ns).withName("probe-w-1").get()).isNotNull();

        writes.deletePod(pod);
        writes.deletePod(pod);   // gone already: fine
        io.fabric8.kubernetes.api.model.Pod left = admin.pods().inNamespace(ns).withName("probe-w-1").get();
        // bound to a node, so the API server waits for its kubelet (none here) unless it was never started
        assertThat(left == null || left.getMetadata().getDeletionTimestamp() != null).isTrue();
        admin.pods().inNamespace(ns).withName("probe-w-1").withGracePeriod(0).delete();
    }

    @Test
    void deletingAPodThatIsGoneIsFine() {
        // regression (issue 14, defect 5): a 404 aborted the whole reconcile and waited for a retry
        KubernetesClient admin = LocalControlPlane.shared().adminClient();
        String ns = "cluster-writes-gone";
        io.fabric8.kubernetes.api.model.Pod pod = boundPod(admin, ns, "probe-w-3", "w-3");
        ClusterWrites writes = new ClusterWrites(admin);

        writes.deletePod(pod);   // never created (or removed by someone else): nothing to do

        assertThat(admin.pods().inNamespace(ns).withName("probe-w-3").get()).isNull();
    }

    @Test
    void aPodThatHasEndedIsGoneAtOnceWithoutWaitingForItsKubelet() {
        KubernetesClient admin = LocalControlPlane.shared().adminClient();
        String ns = "cluster-writes-ended";
        io.fabric8.kubernetes.api.model.Pod pod = boundPod(admin, ns, "probe-w-2", "w-2");
        ClusterWrites writes = new ClusterWrites(admin);
        writes.createPod(pod);
        io.fabric8.kubernetes.api.model.Pod ended = new io.fabric8.kubernetes.api.model.PodBuilder(
                admin.pods().inNamespace(ns).withName("probe-w-2").get())
                .withNewStatus().withPhase("Succeeded").endStatus().build();
        ended = admin.pods().inNamespace(ns).resource(ended).updateStatus();
        assertThat(ClusterWrites.ended(ended)).isTrue();

        writes.deletePod(ended);

        // bound to a node with no kubelet here: only a grace period of 0 removes it at once
        assertThat(admin.pods().inNamespace(ns).withName("probe-w-2").get()).isNull();
    }

    @Test
    void aPodWhoseContainerEndedGoesAtOnceAndOneBeingDeletedIsNotAskedAgain() {
        // as a real kubelet reports a probe's end: the container terminated a second before the pod's phase
        KubernetesClient admin = LocalControlPlane.shared().adminClient();
        String ns = "cluster-writes-container-ended";
        io.fabric8.kubernetes.api.model.Pod pod = new io.fabric8.kubernetes.api.model.PodBuilder(boundPod(admin, ns, "probe-w-4", "w-4"))
                .editSpec().withRestartPolicy("Never").endSpec().build();
        ClusterWrites writes = new ClusterWrites(admin);
        writes.createPod(pod);
        io.fabric8.kubernetes.api.model.Pod containerEnded = new io.fabric8.kubernetes.api.model.PodBuilder(
                admin.pods().inNamespace(ns).withName("probe-w-4").get())
                .withNewStatus().withPhase("Running").addNewContainerStatus().withName("node-probe").withNewState()
                .withNewTerminated().withExitCode(0).withReason("Completed").endTerminated().endState().endContainerStatus()
                .endStatus().build();
        containerEnded = admin.pods().inNamespace(ns).resource(containerEnded).updateStatus();

        writes.deletePod(containerEnded);

        assertThat(admin.pods().inNamespace(ns).withName("probe-w-4").get()).isNull();

        // a pod that may still run, being deleted already (its grace period running): no second request
        io.fabric8.kubernetes.api.model.Pod running = boundPod(admin, ns, "probe-w-5", "w-5");
        writes.createPod(running);
        writes.deletePod(running);
        io.fabric8.kubernetes.api.model.Pod deleting = admin.pods().inNamespace(ns).withName("probe-w-5").get();
        assertThat(deleting.getMetadata().getDeletionTimestamp()).isNotNull();
        assertThat(ClusterWrites.deleteOptions(deleting)).isEmpty();
        assertThat(ClusterWrites.deleteOptions(running)).hasValue("{}");
        assertThat(ClusterWrites.deleteOptions(containerEnded)).hasValue("{\"gracePeriodSeconds\":0}");
        admin.pods().inNamespace(ns).withName("probe-w-5").withGracePeriod(0).delete();
    }

    /** A probe pod bound to {@code node} (no kubelet runs here), in a namespace made for it. */
    private static io.fabric8.kubernetes.api.model.Pod boundPod(KubernetesClient admin, String ns, String name,
                                                                String node) {
        admin.namespaces().resource(new io.fabric8.kubernetes.api.model.NamespaceBuilder().withNewMetadata().withName(ns)
                .endMetadata().build()).serverSideApply();
        return new io.fabric8.kubernetes.api.model.PodBuilder()
                .withNewMetadata().withName(name).withNamespace(ns).endMetadata()
                .withNewSpec().withNodeName(node).addNewContainer().withName("node-probe").withImage("node-probe:test")
                .endContainer().endSpec().build();
    }
}
