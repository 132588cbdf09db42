package io.rdmastorage.testing;

import io.fabric8.kubernetes.api.model.ContainerImage;
import io.fabric8.kubernetes.api.model.ContainerImageBuilder;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeCondition;
import io.fabric8.kubernetes.api.model.NodeConditionBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a real GPU node carries besides what the simulation needs, so that a cache of Nodes costs
 * what it costs on a real cluster: the kubelet's pressure conditions, {@code status.images} (the
 * kubelet reports up to 50; here {@link #IMAGES}, each by tag and by digest), capacity and
 * allocatable with GPUs and RDMA devices, daemon endpoints, pod CIDR, provider ID, and the labels
 * and annotations that the cloud, kubeadm, a CNI, a CSI driver and GPU feature discovery add.
 * The operator never reads most of it; an informer that kept it would hold it for every node.
 */
final class RealisticNodes {

    /** Images the kubelet lists on a typical GPU node: system pods, CNI, CSI, the GPU operator's. */
    static final List<String> IMAGES = List.of(
            "nvcr.io/nvidia/driver:550.127.08-ubuntu22.04", "nvcr.io/nvidia/cuda:12.4.1-base-ubi8",
            "nvcr.io/nvidia/k8s/container-toolkit:v1.16.2-ubuntu20.04", "nvcr.io/nvidia/k8s-device-plugin:v0.16.2",
            "nvcr.io/nvidia/k8s/dcgm-exporter:3.3.8-3.6.0-ubuntu22.04", "nvcr.io/nvidia/gpu-feature-discovery:v0.8.2",
            "nvcr.io/nvidia/cloud-native/gpu-operator-validator:v24.9.0", "nvcr.io/nvidia/cloud-native/k8s-mig-manager:v0.10.0",
            "nvcr.io/nvidia/mellanox/doca-driver:24.07-0.6.1.0-0", "nvcr.io/nvidia/mellanox/k8s-rdma-shared-dev-plugin:v1.5.2",
            "registry.k8s.io/nfd/node-feature-discovery:v0.16.4", "registry.k8s.io/kube-proxy:v1.34.4",
            "registry.k8s.io/pause:3.10", "registry.k8s.io/coredns/coredns:v1.12.0",
            "registry.k8s.io/sig-storage/csi-node-driver-registrar:v2.12.0", "registry.k8s.io/sig-storage/livenessprobe:v2.14.0",
            "docker.io/calico/node:v3.29.1", "docker.io/calico/cni:v3.29.1", "docker.io/calico/pod2daemon-flexvol:v3.29.1",
            "docker.io/calico/csi:v3.29.1", "quay.io/prometheus/node-exporter:v1.8.2", "docker.io/fluent/fluent-bit:3.2.2",
            "quay.io/cephcsi/cephcsi:v3.12.2", "docker.io/library/busybox:1.37.0",
            "ghcr.io/rdma-storage-operator/node-probe:0.1.0");

    private RealisticNodes() {
    }

    /** Adds the real node's extras to {@code node} (built by the simulation), the {@code index}th registered. */
    static Node dress(Node node, int index) {
        String name = node.getMetadata().getName();
        Map<String, String> labels = new LinkedHashMap<>(node.getMetadata().getLabels());
        labels.put("beta.kubernetes.io/arch", "amd64");
        labels.put("beta.kubernetes.io/os", "linux");
        labels.put("beta.kubernetes.io/instance-type", "gpu-8x-h100-400g");
        labels.put("node.kubernetes.io/instance-type", "gpu-8x-h100-400g");
        labels.put("topology.kubernetes.io/region", "region-1");
        labels.put("topology.kubernetes.io/zone", "region-1" + (char) ('a' + index % 3));
        labels.put("nvidia.com/gpu.present", "true");
        labels.put("nvidia.com/gpu.product", "NVIDIA-H100-80GB-HBM3");
        labels.put("nvidia.com/gpu.count", "8");
        labels.put("nvidia.com/gpu.memory", "81559");
        labels.put("nvidia.com/cuda.driver.major", "550");
        labels.put("feature.node.kubernetes.io/pci-15b3.present", "true");
        labels.put("feature.node.kubernetes.io/kernel-version.full", "6.8.0-49-generic");
        labels.put("network.nvidia.com/operator.mofed.wait", "false");
        node.getMetadata().setLabels(labels);
        Map<String, String> annotations = new LinkedHashMap<>();
        annotations.put("node.alpha.kubernetes.io/ttl", "0");
        annotations.put("volumes.kubernetes.io/controller-managed-attach-detach", "true");
        annotations.put("kubeadm.alpha.kubernetes.io/cri-socket", "unix:///run/containerd/containerd.sock");
        annotations.put("csi.volume.kubernetes.io/nodeid", "{\"csi.tigera.io\":\"" + name + "\",\"rbd.csi.ceph.com\":\"" + name + "\"}");
        annotations.put("projectcalico.org/IPv4Address", "10.%d.%d.%d/16".formatted(index / 65536 % 256, index / 256 % 256, index % 256));
        annotations.put("projectcalico.org/IPv4VXLANTunnelAddr", "192.168.%d.%d".formatted(index / 256 % 256, index % 256));
        annotations.put("nvidia.com/gpu-driver-upgrade-enabled", "true");
        node.getMetadata().setAnnotations(annotations);

        node.getSpec().setPodCIDR("10.244.%d.0/24".formatted(index % 256));
        node.getSpec().setPodCIDRs(List.of(node.getSpec().getPodCIDR()));
        node.getSpec().setProviderID("cloud://region-1/instances/" + sha256(name).substring(0, 20));

        List<NodeCondition> conditions = new ArrayList<>(List.of(
                pressure("MemoryPressure", "KubeletHasSufficientMemory", "kubelet has sufficient memory available"),
                pressure("DiskPressure", "KubeletHasNoDiskPressure", "kubelet has no disk pressure"),
                pressure("PIDPressure", "KubeletHasSufficientPID", "kubelet has sufficient PID available")));
        conditions.addAll(node.getStatus().getConditions());
        node.getStatus().setConditions(conditions);
        Map<String, Quantity> capacity = new LinkedHashMap<>(node.getStatus().getCapacity());
        capacity.put("hugepages-1Gi", new Quantity("0"));
        capacity.put("hugepages-2Mi", new Quantity("0"));
        capacity.put("nvidia.com/gpu", new Quantity("8"));
        capacity.put("rdma/rdma_shared_device_a", new Quantity("63"));
        node.getStatus().setCapacity(capacity);
        node.getStatus().setAllocatable(new LinkedHashMap<>(capacity));
        node.getStatus().setDaemonEndpoints(new io.fabric8.kubernetes.api.model.NodeDaemonEndpointsBuilder()
                .withNewKubeletEndpoint().withPort(10250).endKubeletEndpoint().build());
        node.getStatus().getNodeInfo().setOsImage("Ubuntu 22.04.5 LTS");
        node.getStatus().getNodeInfo().setKernelVersion("6.8.0-49-generic");
        node.getStatus().getNodeInfo().setContainerRuntimeVersion("containerd://1.7.24");
        node.getStatus().setImages(IMAGES.stream().map(RealisticNodes::image).toList());
        return node;
    }

    private static NodeCondition pressure(String type, String reason, String message) {
        String at = PodStatuses.time(Instant.now());
        return new NodeConditionBuilder().withType(type).withStatus("False").withReason(reason).withMessage(message)
                .withLastHeartbeatTime(at).withLastTransitionTime(at).build();
    }

    /** One image as the kubelet lists it: by digest and by tag, with its size. */
    private static ContainerImage image(String reference) {
        String repository = reference.substring(0, reference.lastIndexOf(':'));
        return new ContainerImageBuilder()
                .withNames(repository + "@sha256:" + sha256(reference), reference)
                .withSizeBytes(20_000_000L + Math.abs(reference.hashCode() % 900_000_000L))
                .build();
    }

    private static String sha256(String text) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
