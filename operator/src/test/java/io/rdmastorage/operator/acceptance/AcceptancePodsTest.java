package io.rdmastorage.operator.acceptance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.rdmastorage.contract.spec.InvalidSpecException;
import io.rdmastorage.operator.api.AcceptanceNvmeofTarget;
import io.rdmastorage.operator.api.AcceptanceTransport;
import io.rdmastorage.operator.api.AcceptanceWorkloadSpec;
import io.rdmastorage.operator.api.RdmaStorageAcceptance;
import io.rdmastorage.operator.api.RdmaStorageAcceptanceSpec;
import io.rdmastorage.operator.api.StorageNicsSpec;
import io.rdmastorage.operator.config.OperatorConfig;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The run's pod and spec document: the probe pods' posture, and what differs for a run of minutes. */
class AcceptancePodsTest {

    private static final OperatorConfig CONFIG = new OperatorConfig("rso", "registry.example/node-probe:1", "IfNotPresent", false, 0);

    private static RdmaStorageAcceptance run(boolean connect, Integer iopsJobs) {
        AcceptanceNvmeofTarget target = new AcceptanceNvmeofTarget();
        target.setNqn("nqn.2024-01.dev.wutz:target1");
        target.setAddress("10.68.20.10");
        target.setConnect(connect);
        target.setTransports(List.of(AcceptanceTransport.RDMA, AcceptanceTransport.TCP));
        RdmaStorageAcceptanceSpec spec = new RdmaStorageAcceptanceSpec();
        spec.setNodeName("gpu-07");
        spec.setNvmeof(target);
        AcceptanceWorkloadSpec iops = new AcceptanceWorkloadSpec();
        iops.setJobs(iopsJobs);
        spec.setIops(iops);
        RdmaStorageAcceptance run = new RdmaStorageAcceptance();
        run.setMetadata(new ObjectMetaBuilder().withName("gpu-07-nvmeof").withUid("6c1f0d3e-2b7a-4c55-9d1e-0f3a7b2c9e11").build());
        run.setSpec(spec);
        return run;
    }

    private static Pod pod(RdmaStorageAcceptance run) throws InvalidSpecException {
        AcceptanceSpecDocument document = AcceptanceSpecDocument.of(run.getSpec());
        return document.target().pods(run, document, Map.of(), CONFIG).get(0);
    }

    @Test
    void theProbePodsPostureWithTheRunsDeadlineCpuAndGrace() throws InvalidSpecException {
        Pod pod = pod(run(false, null));
        Container c = pod.getSpec().getContainers().get(0);

        assertThat(pod.getSpec().getAutomountServiceAccountToken()).isFalse();
        assertThat(pod.getSpec().getNodeName()).isEqualTo("gpu-07");
        assertThat(pod.getSpec().getHostNetwork()).as("connect: false needs no host network").isFalse();
        assertThat(c.getSecurityContext().getPrivileged()).isTrue();
        assertThat(c.getSecurityContext().getReadOnlyRootFilesystem()).isTrue();
        assertThat(c.getArgs()).startsWith("acceptance").contains("--spec", "/etc/rdmastorage/spec.json", "--output",
                "/dev/termination-log");
        // defaults: 30 s x 3 workloads x 2 transports, 60 s each transport, 120 s to start
        assertThat(pod.getSpec().getActiveDeadlineSeconds()).isEqualTo(2 * (90 + 60) + 120L);
        assertThat(pod.getSpec().getTerminationGracePeriodSeconds()).isEqualTo(30L);
        assertThat(c.getResources().getLimits().get("cpu").toString()).isEqualTo("16");
        assertThat(pod.getMetadata().getLabels()).containsEntry("app.kubernetes.io/component", "acceptance")
                .containsEntry(RdmaStorageAcceptance.RUN_LABEL, "gpu-07-nvmeof");
        assertThat(pod.getMetadata().getOwnerReferences()).singleElement()
                .satisfies(o -> assertThat(o.getKind()).isEqualTo("RdmaStorageAcceptance"));
        assertThat(pod.getSpec().getVolumes()).anySatisfy(v -> assertThat(v.getConfigMap() == null ? null
                : v.getConfigMap().getName()).isEqualTo("rsa-gpu-07-nvmeof-spec"));
    }

    @Test
    void connectingUsesTheHostNetworkAndFewJobsStillGetTwoCpus() throws InvalidSpecException {
        Pod pod = pod(run(true, 1));

        assertThat(pod.getSpec().getHostNetwork()).isTrue();
        assertThat(pod.getSpec().getContainers().get(0).getResources().getLimits().get("cpu").toString()).isEqualTo("2");
    }

    @Test
    void theSpecDocumentIsTheContractsAndRefusesWhatTheSchemaShouldHave() throws InvalidSpecException {
        AcceptanceSpecDocument document = AcceptanceSpecDocument.of(run(true, 4).getSpec());
        assertThat(document.json()).contains("\"transports\":[\"rdma\",\"tcp\"]", "\"connect\":true", "\"jobs\":4");
        assertThat(document.deadline()).isEqualTo(Duration.ofSeconds(420));

        RdmaStorageAcceptance bad = run(false, null);
        bad.getSpec().getNvmeof().setAddress("10.0.0.1; reboot");
        assertThatThrownBy(() -> AcceptanceSpecDocument.of(bad.getSpec())).isInstanceOf(InvalidSpecException.class)
                .hasMessageContaining("nvmeof.address");
        RdmaStorageAcceptance deep = run(false, null);
        AcceptanceWorkloadSpec latency = new AcceptanceWorkloadSpec();
        latency.setIodepth(32);
        deep.getSpec().setLatency(latency);
        assertThatThrownBy(() -> AcceptanceSpecDocument.of(deep.getSpec())).hasMessageContaining("latency");
    }

    @Test
    void theStorageRailsReachTheDocumentAndABadSelectorIsRefusedThere() throws InvalidSpecException {
        RdmaStorageAcceptance rails = run(false, null);
        StorageNicsSpec nics = new StorageNicsSpec();
        nics.setPciAddresses(List.of("0006:03:00.*", "0016:03:00.*"));
        rails.getSpec().setStorageNics(nics);
        AcceptanceSpecDocument document = AcceptanceSpecDocument.of(rails.getSpec());
        assertThat(document.json()).contains("\"storageNics\":{", "\"pciAddresses\":[\"0006:03:00.*\",\"0016:03:00.*\"]}");
        assertThat(document.spec().storageNics().selects("mlx5_6", List.of(), "0016:03:00.0")).isTrue();

        nics.setPciAddresses(List.of("03:00.0 -x"));
        assertThatThrownBy(() -> AcceptanceSpecDocument.of(rails.getSpec())).isInstanceOf(InvalidSpecException.class)
                .hasMessageContaining("storageNics.pciAddresses");
    }
}
