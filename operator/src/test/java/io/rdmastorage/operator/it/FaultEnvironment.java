package io.rdmastorage.operator.it;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.rdmastorage.operator.RdmaStorageOperator;
import io.rdmastorage.operator.api.RdmaStorageNode;
import io.rdmastorage.operator.api.RdmaStorageProfile;
import io.rdmastorage.operator.api.StorageNodeName;
import io.rdmastorage.operator.config.OperatorConfig;
import io.rdmastorage.probe.testing.FixtureHost;
import io.rdmastorage.probe.testing.NodeScenarios;
import io.rdmastorage.testing.InProcessProbeLauncher;
import io.rdmastorage.testing.SimulatedCluster;
import io.rdmastorage.testing.TempDirs;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

/**
 * The operator and simulated kubelets on a {@link FaultyApiServer}: the same operator, probe pods
 * and real node-probe as on the real control plane, with the API server's answers scripted.
 */
final class FaultEnvironment implements AutoCloseable {

    static final String NAMESPACE = "rso-faults";
    /** Short, so that an answer held back past it fails the request quickly. */
    static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(2);

    final FaultyApiServer server = new FaultyApiServer();
    final KubernetesClient admin = server.client(Duration.ofSeconds(30));
    final KubernetesClient operatorClient = server.client(REQUEST_TIMEOUT);
    final SimulatedCluster cluster;
    private final Path hostRoots;
    private RdmaStorageOperator operator;

    FaultEnvironment() {
        admin.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(NAMESPACE).endMetadata().build())
                .create();
        cluster = SimulatedCluster.builder(admin).probeLauncher(new InProcessProbeLauncher()).start();
        try {
            hostRoots = Files.createTempDirectory("rso-fault-nodes-");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    void addNode(String name, String failure) {
        cluster.addNode(GpuPool.node(name, FixtureHost.at(hostRoots.resolve(name)), failure));
    }

    void startOperator() {
        operator = RdmaStorageOperator.start(operatorClient,
                new OperatorConfig(NAMESPACE, "registry.example/node-probe:test", "IfNotPresent", false, 0), false);
    }

    void stopOperator() {
        if (operator != null) {
            operator.close();
            operator = null;
        }
    }

    /** Creates a profile of the healthy checks selecting this environment's gpu pool (as created: generation 1). */
    RdmaStorageProfile applyProfile(String name, String settings) {
        RdmaStorageProfile profile = Serialization.unmarshal(GpuPool.profileYaml(name, cluster.id(), settings,
                NodeScenarios.healthyProfileChecks()), RdmaStorageProfile.class);
        profile.getMetadata().setGeneration(1L);
        return admin.resources(RdmaStorageProfile.class).resource(profile).create();
    }

    RdmaStorageNode verdict(String profile, String node) {
        return admin.resources(RdmaStorageNode.class).withName(StorageNodeName.of(profile, node)).get();
    }

    @Override
    public void close() {
        stopOperator();
        cluster.close();
        operatorClient.close();
        admin.close();
        server.close();
        TempDirs.delete(hostRoots);
    }
}
