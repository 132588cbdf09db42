package io.rdmastorage.benchmark;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.rdmastorage.operator.api.Labels;
import io.rdmastorage.probe.testing.RdmaFixtures;
import io.rdmastorage.testing.AuditLog;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * The scale benchmark's DRA part ({@code --device-taints}): every node publishes its two HCAs as
 * dranet publishes PCI NICs (one ResourceSlice per node, pool = node), the failing nodes' mlx5_1
 * port is down (the fixture scenario {@code rdma-port-down}), and the profile asks for device
 * taints; what the operator then writes for them comes from the audit log.
 */
final class DeviceTaintScale {

    static final String FAILING_SCENARIO = "rdma-port-down";
    private static final String[][] NICS = {{"mlx5_0", RdmaFixtures.MLX5_0_PCI}, {"mlx5_1", RdmaFixtures.MLX5_1_PCI}};

    private DeviceTaintScale() {
    }

    /** One ResourceSlice per node, created 8 at a time. */
    static void publish(KubernetesClient admin, List<String> nodes) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            List<Future<?>> created = new ArrayList<>();
            for (String node : nodes) {
                created.add(pool.submit(() -> admin.genericKubernetesResources("resource.k8s.io/v1", "ResourceSlice")
                        .resource(slice(node)).create()));
            }
            for (Future<?> f : created) {
                f.get();
            }
        } finally {
            pool.shutdownNow();
        }
    }

    private static GenericKubernetesResource slice(String node) {
        List<Map<String, Object>> devices = new ArrayList<>();
        for (String[] nic : NICS) {
            String bdf = nic[1].substring(nic[1].lastIndexOf('/') + 1);
            Map<String, Object> attributes = new LinkedHashMap<>();
            attributes.put("dra.net/pciAddress", Map.of("string", bdf));
            attributes.put("dra.net/rdma", Map.of("bool", true));
            attributes.put("dra.net/rdmaDevice", Map.of("string", nic[0]));
            devices.add(Map.of("name", "pci-" + bdf.replaceAll("[:.]", "-"), "attributes", attributes));
        }
        GenericKubernetesResource slice = new GenericKubernetesResource();
        slice.setApiVersion("resource.k8s.io/v1");
        slice.setKind("ResourceSlice");
        slice.setMetadata(new ObjectMetaBuilder().withName(node + "-dra.net").build());
        slice.setAdditionalProperty("spec", Map.of("driver", "dra.net", "nodeName", node,
                "pool", Map.of("name", node, "generation", 1, "resourceSliceCount", 1), "devices", devices));
        return slice;
    }

    /** The operator's requests on DeviceTaintRules and ResourceSlices in a round, by verb. */
    static String requests(List<AuditLog.Request> requests) {
        Map<String, Long> byVerb = new java.util.TreeMap<>();
        for (AuditLog.Request r : requests) {
            if (r.resource().equals("devicetaintrules") || r.resource().equals("resourceslices")) {
                byVerb.merge(r.resource() + " " + r.verb(), 1L, Long::sum);
            }
        }
        return byVerb.isEmpty() ? "none" : byVerb.toString();
    }

    /** The DeviceTaintRules the profile has now. */
    static int rules(KubernetesClient admin, String profile) {
        return admin.genericKubernetesResources("resource.k8s.io/v1alpha3", "DeviceTaintRule")
                .withLabel(Labels.PROFILE, profile).list().getItems().size();
    }
}
