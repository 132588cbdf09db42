package io.rdmastorage.operator.it;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.rdmastorage.operator.RdmaStorageOperator;
import io.rdmastorage.operator.api.RdmaStorageNode;
import io.rdmastorage.operator.api.RdmaStorageProfile;
import io.rdmastorage.operator.api.StorageNodeName;
import io.rdmastorage.operator.config.AcceptanceBounds;
import io.rdmastorage.operator.config.OperatorConfig;
import io.rdmastorage.probe.testing.FixtureHost;
import io.rdmastorage.testing.ContendedEdits;
import io.rdmastorage.testing.LocalControlPlane;
import io.rdmastorage.testing.ProbeLauncher;
import io.rdmastorage.testing.OperatorRbac;
import io.rdmastorage.testing.SimulatedCluster;
import io.rdmastorage.testing.TempDirs;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;

/**
 * The operator as it runs in a cluster, in this JVM: the real API server with the CRDs from
 * {@code crds/}, a namespace labelled for privileged probe pods, the operator's service account
 * bound to exactly the RBAC rules the Helm chart ships, simulated kubelets that run the real
 * node-probe against fixture nodes, and the operator talking to the API server as that service account.
 */
final class OperatorEnvironment implements AutoCloseable {

    static final String SERVICE_ACCOUNT = "rdma-storage-operator";
    static final String PROBE_IMAGE = "registry.example/node-probe:test";
    /** The RBAC the Helm chart ships. */
    static final OperatorRbac SHIPPED_RBAC = OperatorRbac.shipped(Path.of(".."));

    final LocalControlPlane plane;
    final KubernetesClient admin;
    final String namespace;
    final SimulatedCluster cluster;
    final KubernetesClient operatorClient;
    private final Path hostRoots;
    /** Nodes whose probe container writes garbage instead of its report. */
    final Set<String> garbageReportNodes = ConcurrentHashMap.newKeySet();
    private RdmaStorageOperator operator;

    private OperatorEnvironment(LocalControlPlane plane, String name, OperatorRbac rbac, ProbeLauncher launcher)
            throws IOException {
        this.plane = plane;
        this.admin = plane.adminClient();
        this.namespace = "rso-" + name;
        plane.kubectl().apply(Path.of("../crds")).orThrow("kubectl apply crds");
        // on a fresh control plane the CRDs take a moment to be served: an operator started before
        // that lists nothing and a profile applied then may never reach it
        plane.kubectl().awaitEstablished(Duration.ofSeconds(60), "crd/rdmastorageprofiles.rdmastorage.io",
                "crd/rdmastoragenodes.rdmastorage.io", "crd/rdmastorageacceptances.rdmastorage.io");
        admin.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(namespace)
                .addToLabels("pod-security.kubernetes.io/enforce", "privileged").endMetadata().build()).serverSideApply();
        grant(rbac);
        this.operatorClient = plane.clientFor(namespace, SERVICE_ACCOUNT);
        this.cluster = SimulatedCluster.builder(admin)
                .probeLauncher(launcher != null ? launcher : new GarbageReportLauncher(garbageReportNodes)).start();
        this.hostRoots = Files.createTempDirectory("rso-nodes-");
    }

    /** An environment whose operator runs under the rules the Helm chart ships. */
    static OperatorEnvironment start(String name) {
        return start(LocalControlPlane.shared(), name, SHIPPED_RBAC);
    }

    /** The same, with probe containers run by {@code launcher} (e.g. in the VM node) instead of on fixture roots. */
    static OperatorEnvironment start(String name, ProbeLauncher launcher) {
        return start(LocalControlPlane.shared(), name, SHIPPED_RBAC, launcher);
    }

    static OperatorEnvironment start(LocalControlPlane plane, String name, OperatorRbac rbac) {
        return start(plane, name, rbac, null);
    }

    private static OperatorEnvironment start(LocalControlPlane plane, String name, OperatorRbac rbac,
                                             ProbeLauncher launcher) {
        try {
            return new OperatorEnvironment(plane, name, rbac, launcher);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Grants the operator's service account {@code rbac} instead of what it had, as the chart binds it. */
    void grant(OperatorRbac rbac) {
        rbac.grant(admin, namespace, SERVICE_ACCOUNT, namespace);
    }

    /** Where acceptance runs may act, as the chart's acceptance values would set it; the chart's defaults unless a test says. */
    AcceptanceBounds acceptance = AcceptanceBounds.DEFAULT;

    OperatorConfig operatorConfig(boolean leaderElection) {
        return new OperatorConfig(namespace, PROBE_IMAGE, "IfNotPresent", leaderElection, 0, acceptance);
    }

    void startOperator() {
        startOperator(false);
    }

    void startOperator(boolean leaderElection) {
        operator = RdmaStorageOperator.start(operatorClient, operatorConfig(leaderElection), false);
    }

    void stopOperator() {
        if (operator != null) {
            operator.close();
            operator = null;
        }
    }

    /** A directory of this environment's own (under the nodes' host roots), removed with it. */
    Path scratchDir(String name) {
        try {
            return Files.createDirectories(hostRoots.resolve(name));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The running operator's metrics, as its /metrics endpoint serves them (Prometheus text format). */
    String scrape() {
        if (operator == null) {
            throw new IllegalStateException("the operator is not running");
        }
        return operator.registry().scrape();
    }

    /** Registers a simulated node whose host is the healthy fixture node, or that node with one failure mode. */
    FixtureHost addNode(String name, String failure) {
        FixtureHost host = FixtureHost.at(hostRoots.resolve(name));
        cluster.addNode(GpuPool.node(name, host, failure));
        return host;
    }

    /** Registers a simulated node whose fixture host {@code setup} builds. */
    FixtureHost addFixtureNode(String name, UnaryOperator<FixtureHost> setup) {
        FixtureHost host = setup.apply(FixtureHost.at(hostRoots.resolve(name)));
        cluster.addNode(GpuPool.node(name, host.root()));
        return host;
    }

    /** Applies a profile that selects this environment's gpu pool; {@code checks} is YAML for the check sections. */
    RdmaStorageProfile applyProfile(String name, String settings, String checks) {
        plane.kubectl().applyYaml(GpuPool.profileYaml(name, cluster.id(), settings, checks))
                .orThrow("kubectl apply profile " + name);
        return admin.resources(RdmaStorageProfile.class).withName(name).get();
    }

    RdmaStorageProfile profile(String name) {
        return admin.resources(RdmaStorageProfile.class).withName(name).get();
    }

    /** A profile's condition of {@code type} as the API server has it; an empty Condition while there is none. */
    io.fabric8.kubernetes.api.model.Condition profileCondition(String name, String type) {
        RdmaStorageProfile p = profile(name);
        return p == null || p.getStatus() == null || p.getStatus().getConditions() == null
                ? new io.fabric8.kubernetes.api.model.Condition()
                : p.getStatus().getConditions().stream().filter(c -> type.equals(c.getType())).findFirst()
                        .orElse(new io.fabric8.kubernetes.api.model.Condition());
    }

    /** A node's verdict as type → "status/reason", in the order the operator wrote them. */
    Map<String, String> conditions(String profile, String node) {
        RdmaStorageNode v = verdict(profile, node);
        if (v == null || v.getStatus() == null) {
            throw new AssertionError("no RdmaStorageNode status for " + node + " in " + profile);
        }
        Map<String, String> byType = new java.util.LinkedHashMap<>();
        for (io.fabric8.kubernetes.api.model.Condition c : v.getStatus().getConditions()) {
            byType.put(c.getType(), c.getStatus() + "/" + c.getReason());
        }
        return byType;
    }

    RdmaStorageNode verdict(String profile, String node) {
        return admin.resources(RdmaStorageNode.class).withName(StorageNodeName.of(profile, node)).get();
    }

    List<RdmaStorageNode> verdicts(String profile) {
        return admin.resources(RdmaStorageNode.class).withLabel(RdmaStorageNode.PROFILE_LABEL, profile).list().getItems();
    }

    /** Deletes a profile and waits until the operator's cleanup let it go. */
    void deleteProfile(String name) {
        admin.resources(RdmaStorageProfile.class).withName(name).delete();
        await("profile " + name + " deleted", Duration.ofSeconds(60), () -> profile(name) == null);
    }

    static void await(String what, Duration timeout, Supplier<Boolean> condition) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            Boolean done;
            try {
                done = condition.get();
            } catch (RuntimeException | AssertionError e) {
                done = false;
                if (System.nanoTime() > deadline) {
                    throw new AssertionError("timed out waiting for " + what, e);
                }
            }
            if (Boolean.TRUE.equals(done)) {
                return;
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out after " + timeout.toSeconds() + "s waiting for " + what);
            }
            try {
                Thread.sleep(200);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted waiting for " + what, e);
            }
        }
    }

    /** Labels of a node as the API server has them. */
    Map<String, String> nodeLabels(String node) {
        return admin.nodes().withName(node).get().getMetadata().getLabels();
    }

    @Override
    public void close() {
        for (RdmaStorageProfile p : admin.resources(RdmaStorageProfile.class).list().getItems()) {
            if (p.getSpec() != null && p.getSpec().getNodeSelector() != null
                    && p.getSpec().getNodeSelector().getMatchLabels() != null
                    && cluster.id().equals(p.getSpec().getNodeSelector().getMatchLabels().get(SimulatedCluster.CLUSTER_LABEL))) {
                if (operator == null) {
                    // no operator to clean up (the test stopped it): drop its finalizer at once, not after a wait
                    dropFinalizers(p.getMetadata().getName());
                    admin.resources(RdmaStorageProfile.class).withName(p.getMetadata().getName()).delete();
                    continue;
                }
                try {
                    deleteProfile(p.getMetadata().getName());
                } catch (AssertionError e) {
                    // the operator could not clean up: drop its finalizer so later tests start clean
                    dropFinalizers(p.getMetadata().getName());
                }
            }
        }
        stopOperator();
        cluster.close();
        TempDirs.delete(hostRoots);
    }

    private void dropFinalizers(String profile) {
        editProfile(profile, x -> x.getMetadata().setFinalizers(List.of()));
    }

    /**
     * Edits the profile {@code name} as a user would (read, change, write back with its
     * resourceVersion), again on a 409 Conflict: the operator writes the same object (its status,
     * its finalizer) and may do so between the read and the write.
     */
    public void editProfile(String name, java.util.function.Consumer<RdmaStorageProfile> edit) {
        ContendedEdits.edit(admin.resources(RdmaStorageProfile.class).withName(name), edit);
    }
}
