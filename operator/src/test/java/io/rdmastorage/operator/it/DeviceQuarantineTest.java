package io.rdmastorage.operator.it;

import static io.rdmastorage.operator.it.OperatorEnvironment.await;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Taint;
import io.rdmastorage.operator.api.RdmaStorageNode;
import io.rdmastorage.operator.api.RdmaStorageProfile;
import io.rdmastorage.operator.quarantine.QuarantineNotices;
import io.rdmastorage.probe.testing.FixtureHost;
import io.rdmastorage.probe.testing.Gb200Fixtures;
import io.rdmastorage.operator.tools.BackgroundBuilds;
import io.rdmastorage.testing.ContendedEdits;
import io.rdmastorage.testing.ControlPlaneBinaries;
import io.rdmastorage.testing.LocalControlPlane;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * One bad storage NIC fences that NIC, not the node (issue 39): the operator writes a DRA
 * DeviceTaintRule on the device as dranet publishes it, and the real kube-scheduler allocates the
 * healthy NIC to a job's ResourceClaim, leaves a job Pending while only the bad one is left, gives
 * it the NIC once a probe finds it healthy again and the rule is gone; with NoExecute the real
 * device-taint eviction controller evicts the pod that holds it. The nodes are GB200 trays
 * (samples/gb200) whose BlueField-3 storage NICs mlx5_2 and mlx5_6 are published as dranet
 * publishes PCI NICs (pool and slice per node, {@code pci-<address>} device names,
 * {@code dra.net/pciAddress}, {@code dra.net/ifName}, {@code dra.net/rdma}; no
 * {@code dra.net/rdmaDevice}, which dranet added in v1.1). On Kubernetes 1.34 (DeviceTaintRule
 * v1alpha3 behind DRADeviceTaints) and on the newest version the tests build (v1).
 */
@Tag(BackgroundBuilds.TAG)
class DeviceQuarantineTest {

    private static final String BAD = "pci-0016-03-00-0";   // mlx5_6
    private static final String GOOD = "pci-0006-03-00-0";  // mlx5_2
    private static final String CHECKS = "rdma: {storageNics: {devices: [mlx5_2, mlx5_6]}}";
    private static final String FOREIGN_RULE = "other-tool-quarantine";

    static Stream<ControlPlaneBinaries> versions() {
        return Stream.of(ControlPlaneBinaries.ensure(), ControlPlaneBinaries.newest());
    }

    @ParameterizedTest(name = "Kubernetes {0}")
    @MethodSource("versions")
    void aBadNicIsTaintedAsADeviceAndTheSchedulerGivesJobsTheHealthyOne(ControlPlaneBinaries binaries) {
        String name = "dq" + binaries.minor();
        try (LocalControlPlane plane = LocalControlPlane.startWithDeviceTaints(binaries);
             OperatorEnvironment env = OperatorEnvironment.start(plane, name, OperatorEnvironment.SHIPPED_RBAC)) {
            String ruleApi = servedRuleApi(plane);
            FixtureHost trayA = env.addFixtureNode("tray-a", h -> Gb200Fixtures.portDown(Gb200Fixtures.tray(h), "mlx5_6"));
            env.addFixtureNode("tray-b", Gb200Fixtures::tray);
            publishNics(plane, "tray-a");
            publishNics(plane, "tray-b");
            plane.kubectl().applyYaml(DEVICE_CLASS).orThrow("device class");
            // another tool's rule on tray-b's NIC, and its taint on tray-a: the operator never touches them
            plane.kubectl().applyYaml(foreignRule(ruleApi)).orThrow("foreign rule");
            ContendedEdits.editNode(env.admin, "tray-a", n -> {
                List<Taint> taints = new java.util.ArrayList<>(n.getSpec().getTaints() == null ? List.of() : n.getSpec().getTaints());
                taints.add(new Taint("NoSchedule", "other-tool/maintenance", null, "planned"));
                n.getSpec().setTaints(taints);
            });

            env.startOperator();
            env.applyProfile(name, "interval: 1m\nprobeTimeout: 30s\ntaintNotReady: true\ndeviceTaints: {}", CHECKS);
            String rule = name + ".tray-a." + BAD;
            await("the bad NIC's DeviceTaintRule", Duration.ofSeconds(90), () -> rules(plane, ruleApi).containsKey(rule));

            GenericKubernetesResource written = rules(plane, ruleApi).get(rule);
            assertThat(spec(written, "deviceSelector")).isEqualTo(Map.of("driver", "dra.net", "pool", "tray-a", "device", BAD));
            assertThat(spec(written, "taint")).containsEntry("key", "rdmastorage.io/" + name)
                    .containsEntry("value", "PortDown").containsEntry("effect", "NoSchedule");
            assertThat(rules(plane, ruleApi).keySet()).as("one rule: tray-b is healthy").containsExactlyInAnyOrder(rule, FOREIGN_RULE);
            assertThat(env.conditions(name, "tray-a")).containsEntry("RdmaDevices", "False/PortDown");
            try {
                await("the node itself untainted by the profile", Duration.ofSeconds(30),
                        () -> taintKeys(env, "tray-a").equals(List.of("other-tool/maintenance")));
            } catch (AssertionError e) {
                throw new AssertionError(e.getMessage() + ": taints " + taintKeys(env, "tray-a") + ", verdict "
                        + env.conditions(name, "tray-a") + " " + env.verdict(name, "tray-a").getStatus().getDetails(), e);
            }
            assertThat(events(env, env.verdict(name, "tray-a"))).anySatisfy(e -> {
                assertThat(e.getReason()).isEqualTo(QuarantineNotices.TAINTED);
                assertThat(e.getMessage()).contains(rule, "mlx5_6");
            });

            // the real scheduler: the healthy NIC for the first job, none for the second
            plane.kubectl().applyYaml(job("jobs-" + name, "job-1", "tray-a")).orThrow("job-1");
            await("job-1 bound to tray-a with the healthy NIC", Duration.ofSeconds(60),
                    () -> allocated(plane, "jobs-" + name, "job-1").equals(Optional.of(GOOD)));
            plane.kubectl().applyYaml(job("jobs-" + name, "job-2", "tray-a")).orThrow("job-2");
            await("job-2 unschedulable while only the tainted NIC is left", Duration.ofSeconds(60),
                    () -> unschedulable(env, "jobs-" + name, "job-2"));
            assertThat(allocated(plane, "jobs-" + name, "job-2")).isEmpty();

            // the NIC recovers: the next probe finds it healthy, the rule goes, job-2 gets it
            Gb200Fixtures.portUp(trayA, "mlx5_6");
            reprobe(env, name, p -> p.getSpec().setMaxConcurrentProbes(5));
            await("the rule deleted on fresh evidence", Duration.ofSeconds(90), () -> !rules(plane, ruleApi).containsKey(rule));
            await("job-2 gets the recovered NIC", Duration.ofSeconds(60),
                    () -> allocated(plane, "jobs-" + name, "job-2").equals(Optional.of(BAD)));

            // NoExecute: the NIC fails again and the pod that holds it is evicted; job-1's stays
            Gb200Fixtures.portDown(trayA, "mlx5_6");
            reprobe(env, name, p -> p.getSpec().getDeviceTaints().setEffect(io.rdmastorage.operator.api.DeviceTaintEffect.NoExecute));
            await("a NoExecute rule", Duration.ofSeconds(90), () -> rules(plane, ruleApi).containsKey(rule)
                    && "NoExecute".equals(spec(rules(plane, ruleApi).get(rule), "taint").get("effect")));
            await("job-2 evicted", Duration.ofSeconds(90), () -> pod(env, "jobs-" + name, "job-2") == null
                    || pod(env, "jobs-" + name, "job-2").getMetadata().getDeletionTimestamp() != null);
            assertThat(pod(env, "jobs-" + name, "job-1").getMetadata().getDeletionTimestamp()).isNull();

            // another tool cordons the node: the verdict cannot tell (Unknown), so the rule stays; nothing lifts the cordon
            ContendedEdits.cordon(env.admin, "tray-a");
            await("the cordoned node's verdict Unknown", Duration.ofSeconds(60),
                    () -> env.conditions(name, "tray-a").get("Ready").startsWith("Unknown/"));
            assertThat(rules(plane, ruleApi)).as("no fresh evidence of health").containsKey(rule);

            env.deleteProfile(name);
            assertThat(rules(plane, ruleApi).keySet()).as("the profile's rules went with it; the other tool's stayed")
                    .containsExactly(FOREIGN_RULE);
            assertThat(taintKeys(env, "tray-a")).containsExactly("other-tool/maintenance");
            assertThat(env.admin.nodes().withName("tray-a").get().getSpec().getUnschedulable()).as("the cordon").isTrue();
        }
    }

    /**
     * Without a DeviceTaintRule API (the shared control plane serves none) nothing fails: the node's
     * own marking applies, and an Event and a metric say why.
     */
    @Test
    void withoutTheApiTheNodeIsTaintedAndTheVerdictsEventsSayWhy() {
        String name = "dq-fallback";
        try (OperatorEnvironment env = OperatorEnvironment.start(name)) {
            env.addFixtureNode("tray-c", h -> Gb200Fixtures.portDown(Gb200Fixtures.tray(h), "mlx5_6"));
            env.startOperator();
            env.applyProfile(name, "interval: 1m\nprobeTimeout: 30s\ntaintNotReady: true\ndeviceTaints: {}", CHECKS);

            await("the node tainted instead", Duration.ofSeconds(90),
                    () -> taintKeys(env, "tray-c").contains("rdmastorage.io/" + name));
            await("the Event that says why", Duration.ofSeconds(30), () -> events(env, env.verdict(name, "tray-c")).stream()
                    .anyMatch(e -> QuarantineNotices.UNAVAILABLE.equals(e.getReason())
                            && e.getMessage().contains("mlx5_6") && e.getMessage().contains("no DeviceTaintRule API")));
            assertThat(env.scrape()).contains("rdmastorage_device_taint_unfenced_total{profile=\"" + name
                    + "\",reason=\"NoDeviceTaintApi\"}");
            assertThat(env.profileCondition(name, "Ready").getStatus()).isNotEqualTo("Unknown");
        }
    }

    // ---- the cluster around the operator ------------------------------------------------------

    private static final String DEVICE_CLASS = """
            apiVersion: resource.k8s.io/v1
            kind: DeviceClass
            metadata: {name: rdma-nic}
            spec:
              selectors:
              - cel: {expression: 'device.driver == "dra.net" && device.attributes["dra.net"].rdma'}
            """;

    /** The tray's two BlueField-3 storage functions as dranet publishes PCI NICs: one slice, pool = node. */
    private static void publishNics(LocalControlPlane plane, String node) {
        StringBuilder devices = new StringBuilder();
        for (String device : List.of("mlx5_2", "mlx5_6")) {
            Gb200Fixtures.Nic nic = Gb200Fixtures.nic(device);
            devices.append("""
                      - name: pci-%s
                        attributes:
                          dra.net/pciAddress: {string: "%s"}
                          dra.net/ifName: {string: %s}
                          dra.net/rdma: {bool: true}
                          resource.kubernetes.io/pcieRoot: {string: "pci%s:00"}
                    """.formatted(nic.bdf().replaceAll("[:.]", "-"), nic.bdf(), nic.netdev(), nic.bdf().substring(0, 4)));
        }
        plane.kubectl().applyYaml("""
                apiVersion: resource.k8s.io/v1
                kind: ResourceSlice
                metadata: {name: %s-dra.net}
                spec:
                  driver: dra.net
                  nodeName: %s
                  pool: {name: %s, generation: 1, resourceSliceCount: 1}
                  devices:
                %s""".formatted(node, node, node, devices)).orThrow("slice of " + node);
    }

    private static String foreignRule(String apiVersion) {
        return """
                apiVersion: %s
                kind: DeviceTaintRule
                metadata: {name: %s}
                spec:
                  deviceSelector: {driver: dra.net, pool: tray-b, device: %s}
                  taint: {key: other-tool/suspect, value: "yes", effect: NoSchedule}
                """.formatted(apiVersion, FOREIGN_RULE, GOOD);
    }

    /** A job whose pod asks, by its own ResourceClaim, for one RDMA NIC on {@code node}. */
    private static String job(String namespace, String name, String node) {
        return """
                apiVersion: v1
                kind: Namespace
                metadata: {name: %1$s}
                ---
                apiVersion: resource.k8s.io/v1
                kind: ResourceClaim
                metadata: {name: %2$s, namespace: %1$s}
                spec:
                  devices:
                    requests:
                    - name: nic
                      exactly: {deviceClassName: rdma-nic, allocationMode: ExactCount, count: 1}
                ---
                apiVersion: v1
                kind: Pod
                metadata: {name: %2$s, namespace: %1$s}
                spec:
                  nodeSelector: {kubernetes.io/hostname: %3$s}
                  tolerations:
                  - {key: other-tool/maintenance, operator: Exists, effect: NoSchedule}
                  - {key: node.kubernetes.io/not-ready, operator: Exists, effect: NoSchedule}
                  resourceClaims: [{name: nic, resourceClaimName: %2$s}]
                  containers:
                  - name: job
                    image: registry.example/storage-job:1
                    resources: {claims: [{name: nic}]}
                """.formatted(namespace, name, node);
    }

    /** The DeviceTaintRule API the control plane serves: v1alpha3 on 1.34, v1 from 1.37. */
    private static String servedRuleApi(LocalControlPlane plane) {
        for (String version : List.of("v1", "v1beta2", "v1alpha3")) {
            var resources = plane.adminClient().getApiResources("resource.k8s.io/" + version);
            if (resources != null && resources.getResources().stream().anyMatch(r -> r.getName().equals("devicetaintrules"))) {
                return "resource.k8s.io/" + version;
            }
        }
        throw new AssertionError("the control plane serves no DeviceTaintRule API");
    }

    private static Map<String, GenericKubernetesResource> rules(LocalControlPlane plane, String apiVersion) {
        Map<String, GenericKubernetesResource> byName = new java.util.TreeMap<>();
        plane.adminClient().genericKubernetesResources(apiVersion, "DeviceTaintRule").list().getItems()
                .forEach(r -> byName.put(r.getMetadata().getName(), r));
        return byName;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> spec(GenericKubernetesResource rule, String field) {
        return (Map<String, Object>) ((Map<String, Object>) rule.getAdditionalProperties().get("spec")).get(field);
    }

    /** The device the scheduler allocated to the claim, once it did. */
    @SuppressWarnings("unchecked")
    private static Optional<String> allocated(LocalControlPlane plane, String namespace, String claim) {
        GenericKubernetesResource c = plane.adminClient().genericKubernetesResources("resource.k8s.io/v1", "ResourceClaim")
                .inNamespace(namespace).withName(claim).get();
        Object status = c == null ? null : c.getAdditionalProperties().get("status");
        if (!(status instanceof Map<?, ?> s) || !(s.get("allocation") instanceof Map<?, ?> allocation)
                || !(allocation.get("devices") instanceof Map<?, ?> devices)
                || !(devices.get("results") instanceof List<?> results) || results.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of((String) ((Map<String, Object>) results.get(0)).get("device"));
    }

    private static boolean unschedulable(OperatorEnvironment env, String namespace, String name) {
        Pod p = pod(env, namespace, name);
        return p != null && p.getSpec().getNodeName() == null && p.getStatus() != null && p.getStatus().getConditions() != null
                && p.getStatus().getConditions().stream().anyMatch(c -> "PodScheduled".equals(c.getType())
                        && "False".equals(c.getStatus()) && "Unschedulable".equals(c.getReason()));
    }

    private static Pod pod(OperatorEnvironment env, String namespace, String name) {
        return env.admin.pods().inNamespace(namespace).withName(name).get();
    }

    /** Edits the profile; a new generation is probed at once, which is what this test waits for. */
    private static void reprobe(OperatorEnvironment env, String name, java.util.function.Consumer<RdmaStorageProfile> edit) {
        env.editProfile(name, edit);
    }

    /**
     * The node's taints but the one the API server's admission puts on every new Node (no node
     * lifecycle controller runs here to lift it; the jobs tolerate it).
     */
    private static List<String> taintKeys(OperatorEnvironment env, String node) {
        Node n = env.admin.nodes().withName(node).get();
        return n.getSpec().getTaints() == null ? List.of() : n.getSpec().getTaints().stream().map(Taint::getKey)
                .filter(k -> !k.equals("node.kubernetes.io/not-ready")).toList();
    }

    private static List<Event> events(OperatorEnvironment env, RdmaStorageNode verdict) {
        return verdict == null ? List.of() : env.admin.v1().events().inNamespace("default")
                .withField("involvedObject.uid", verdict.getMetadata().getUid()).list().getItems();
    }
}
