package io.rdmastorage.testing;

import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Probe pods shaped like the operator's (spec from a ConfigMap, report to the termination log), and host roots. */
final class ProbePods {

    static final String SPEC_DIR = "/etc/rdmastorage";

    private ProbePods() {
    }

    static void specConfigMap(KubernetesClient client, String namespace, String name, String specJson) {
        client.configMaps().inNamespace(namespace).resource(new ConfigMapBuilder().withNewMetadata().withName(name)
                .endMetadata().addToData("spec.json", specJson).build()).serverSideApply();
    }

    static Pod probePod(String name, String node, String specConfigMap, String specFile) {
        return new PodBuilder()
                .withNewMetadata().withName(name).withLabels(java.util.Map.of("app", "node-probe")).endMetadata()
                .withNewSpec()
                .withNodeName(node)
                .withRestartPolicy("Never")
                .withHostNetwork(true)
                .withAutomountServiceAccountToken(false)
                .addNewContainer()
                .withName("probe")
                .withImage("ghcr.io/rdma-storage-operator/node-probe:test")
                .withArgs("--host-root", "/host", "--node", "$(NODE_NAME)", "--spec", SPEC_DIR + "/" + specFile,
                        "--output", "/dev/termination-log")
                .addNewEnv().withName("NODE_NAME").withNewValueFrom().withNewFieldRef().withFieldPath("spec.nodeName")
                .endFieldRef().endValueFrom().endEnv()
                .withTerminationMessagePolicy("FallbackToLogsOnError")
                .addNewVolumeMount().withName("host").withMountPath("/host").withReadOnly(true).endVolumeMount()
                .addNewVolumeMount().withName("spec").withMountPath(SPEC_DIR).withReadOnly(true).endVolumeMount()
                .endContainer()
                .addNewVolume().withName("host").withNewHostPath().withPath("/").endHostPath().endVolume()
                .addNewVolume().withName("spec").withNewConfigMap().withName(specConfigMap).endConfigMap().endVolume()
                .endSpec()
                .build();
    }

    /** A host whose only storage configuration is a Ceph cluster on the experimental RDMA messenger. */
    static Path cephRdmaHostRoot(Path parent, String node) {
        try {
            Path root = Files.createDirectories(parent.resolve(node));
            Files.createDirectories(root.resolve("sys/class"));
            Files.createDirectories(root.resolve("etc/ceph"));
            Files.writeString(root.resolve("etc/ceph/ceph.conf"), "[global]\nms_type = async+rdma\n");
            return root;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
