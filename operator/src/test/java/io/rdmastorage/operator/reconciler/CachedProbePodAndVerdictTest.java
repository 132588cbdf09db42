package io.rdmastorage.operator.reconciler;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rdmastorage.operator.cluster.CachedVerdict;
import io.fabric8.kubernetes.api.model.ConditionBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.rdmastorage.operator.api.RdmaStorageNode;
import io.rdmastorage.operator.api.RdmaStorageNodeSpec;
import io.rdmastorage.operator.api.RdmaStorageNodeStatus;
import io.rdmastorage.operator.cluster.ClusterWrites;
import io.rdmastorage.operator.probe.ProbeOutcomeReader;
import io.rdmastorage.operator.probe.ProbePodFactory;
import io.rdmastorage.operator.verdict.VerdictDigest;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What the probe pod and RdmaStorageNode caches keep ({@link CachedProbePod}, {@link CachedVerdict}). */
class CachedProbePodAndVerdictTest {

    private static final Instant NOW = Instant.parse("2026-01-01T00:05:00Z");

    private static Pod endedProbePod(String reason) {
        return new PodBuilder()
                .withNewMetadata().withName("p-gpu-01-1").withNamespace("rso").withCreationTimestamp("2026-01-01T00:00:00Z")
                .addToLabels("rdmastorage.io/round", "1").addToAnnotations("rdmastorage.io/profile-generation", "3").endMetadata()
                .withNewSpec().withNodeName("gpu-01").withRestartPolicy("Never").addNewVolume().withName("host").withNewHostPath("/", null).endVolume()
                .addNewContainer().withName(ProbePodFactory.CONTAINER).withImage("node-probe:1").withArgs("--spec", "/spec/spec.json")
                .withNewResources().addToLimits("memory", new Quantity("256Mi")).endResources().endContainer()
                .endSpec()
                .withNewStatus().withPhase("Failed").withHostIP("10.0.0.1")
                .addNewCondition().withType("Ready").withStatus("False").endCondition()
                .addNewContainerStatus().withName(ProbePodFactory.CONTAINER).withImageID("sha256:0123").withNewState()
                .withNewTerminated().withExitCode(reason.equals("OOMKilled") ? 137 : 0).withReason(reason)
                .withMessage("{\"node\":\"gpu-01\"}").withFinishedAt("2026-01-01T00:00:30Z").endTerminated()
                .endState().endContainerStatus()
                .endStatus().build();
    }

    @Test
    void aProbePodKeepsWhatItsOutcomeIsReadFromAndDropsTheRest() {
        for (String reason : List.of("Completed", "OOMKilled")) {
            Pod pod = endedProbePod(reason);
            Pod kept = CachedProbePod.trim(endedProbePod(reason));

            assertThat(ProbeOutcomeReader.of(kept, NOW, Duration.ofMinutes(3)))
                    .isEqualTo(ProbeOutcomeReader.of(pod, NOW, Duration.ofMinutes(3)));
            assertThat(kept.getMetadata()).isEqualTo(pod.getMetadata());
            assertThat(kept.getSpec().getNodeName()).isEqualTo("gpu-01");
            assertThat(kept.getSpec().getVolumes()).isNullOrEmpty();
            assertThat(kept.getSpec().getContainers().get(0).getImage()).isNull();
            assertThat(kept.getStatus().getConditions()).isNullOrEmpty();
            assertThat(kept.getStatus().getHostIP()).isNull();
            assertThat(kept.getStatus().getContainerStatuses().get(0).getImageID()).isNull();
        }
        assertThat(ProbeOutcomeReader.of(CachedProbePod.trim(endedProbePod("OOMKilled")), NOW, Duration.ofMinutes(3)).toString())
                .contains("256Mi");
        // as a real kubelet reports it first: the container ended, the pod's phase not yet; the cache keeps
        // what says it has ended all the same (restartPolicy Never), so its delete removes it at once
        Pod containerEnded = new PodBuilder(endedProbePod("Completed")).editStatus().withPhase("Running").endStatus().build();
        assertThat(ClusterWrites.ended(CachedProbePod.trim(containerEnded))).isTrue();
    }

    @Test
    void aVerdictIsKeptWholeWithItsRepeatedTextsShared() throws Exception {
        RdmaStorageNode first = verdict("gpu-01");
        RdmaStorageNode second = verdict("gpu-02");
        RdmaStorageNode original = verdict("gpu-01");

        CachedVerdict.trim(first);
        CachedVerdict.trim(second);

        assertThat(Serialization.asJson(first)).isEqualTo(Serialization.asJson(original));
        assertThat(VerdictDigest.matches(first)).isTrue();
        String message = first.getStatus().getConditions().get(0).getMessage();
        assertThat(second.getStatus().getConditions().get(0).getMessage()).isSameAs(message);
        assertThat(second.getStatus().getDetails().get("GdsReady").get("iommu").textValue())
                .isSameAs(first.getStatus().getDetails().get("GdsReady").get("iommu").textValue());
        assertThat(second.getStatus().getInventory().get("kernel")).isSameAs(first.getStatus().getInventory().get("kernel"));
    }

    /** A verdict as the informer receives it: parsed from JSON, each text its own string. */
    private static RdmaStorageNode verdict(String node) throws Exception {
        RdmaStorageNode verdict = new RdmaStorageNode();
        verdict.setMetadata(new ObjectMetaBuilder().withName("scale." + node).addToLabels("rdmastorage.io/profile", "scale")
                .addNewOwnerReference().withKind("RdmaStorageProfile").withName("scale").withUid("u1").endOwnerReference().build());
        RdmaStorageNodeSpec spec = new RdmaStorageNodeSpec();
        spec.setProfile("scale");
        spec.setNodeName(node);
        verdict.setSpec(spec);
        RdmaStorageNodeStatus status = new RdmaStorageNodeStatus();
        status.setObservedGeneration(1L);
        status.setProbeRound(1L);
        status.setLastProbeTime("2026-01-01T00:00:30Z");
        status.setConditions(List.of(new ConditionBuilder().withType("GdsReady").withStatus("True").withReason("GdsReady")
                .withMessage("GDS is ready: nvidia_fs 2.27 loaded; IOMMU disabled").withObservedGeneration(1L)
                .withLastTransitionTime("2026-01-01T00:00:30Z").build()));
        JsonNode facts = new ObjectMapper().readTree("{\"iommu\":\"disabled\",\"nvfsModules\":[\"nvme\",\"nvme_rdma\"]}");
        status.setDetails(new java.util.LinkedHashMap<>(Map.of("GdsReady", facts)));
        status.setInventory(new java.util.LinkedHashMap<>(Map.of("kernel", "6.8.0-49-generic")));
        verdict.setStatus(VerdictDigest.stamp(verdict.getMetadata().getName(), status));
        return Serialization.unmarshal(Serialization.asJson(verdict), RdmaStorageNode.class);
    }
}
