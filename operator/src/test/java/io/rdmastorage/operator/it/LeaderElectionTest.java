package io.rdmastorage.operator.it;

import static io.rdmastorage.operator.it.OperatorEnvironment.await;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.rdmastorage.operator.RdmaStorageOperator;
import io.rdmastorage.operator.config.OperatorConfig;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * Two replicas with leader election: only the leader probes (each probe pod is created once), and
 * when the leader goes away the other one takes over and keeps reconciling.
 */
class LeaderElectionTest {

    @Test
    void onlyTheLeaderProbesAndTheStandbyTakesOver() {
        try (OperatorEnvironment env = OperatorEnvironment.start("leader")) {
            env.addNode("le-1", null);
            env.addNode("le-2", null);
            List<String> created = new CopyOnWriteArrayList<>();
            Watch watch = env.admin.pods().inNamespace(env.namespace).watch(new Watcher<>() {
                @Override
                public void eventReceived(Action action, Pod pod) {
                    if (action == Action.ADDED) {
                        created.add(pod.getMetadata().getName());
                    }
                }

                @Override
                public void onClose(WatcherException cause) {
                }
            });
            RdmaStorageOperator first = RdmaStorageOperator.start(env.operatorClient, withHealthPort(env), false);
            await("first replica leads", Duration.ofSeconds(30), () -> holder(env) != null);
            String firstLeader = holder(env);
            RdmaStorageOperator second = RdmaStorageOperator.start(env.operatorClient, withHealthPort(env), false);
            try {
                // the standby is ready too: it is healthy, only waiting (rollouts need that)
                await("both replicas ready", Duration.ofSeconds(30),
                        () -> readyz(first) == 200 && readyz(second) == 200);
                env.applyProfile("leader", "interval: 1m\nprobeTimeout: 30s", "rdma:\n  devices: [\"mlx5_0/1\"]");
                await("both nodes judged", Duration.ofSeconds(60), () -> env.verdicts("leader").size() == 2
                        && env.verdicts("leader").stream().allMatch(v -> v.getStatus() != null
                        && v.getStatus().getLastProbeTime() != null));
                assertThat(created).as("one probe pod per node and round").hasSize(2).doesNotHaveDuplicates();
                assertThat(holder(env)).isEqualTo(firstLeader);

                first.close();
                await("the standby takes over", Duration.ofSeconds(60),
                        () -> holder(env) != null && !holder(env).equals(firstLeader));
                env.addNode("le-3", null);
                await("the new leader probes a node that joined", Duration.ofSeconds(60),
                        () -> env.verdict("leader", "le-3") != null);
                env.deleteProfile("leader");
            } finally {
                watch.close();
                first.close();
                second.close();
            }
        }
    }

    private static OperatorConfig withHealthPort(OperatorEnvironment env) {
        OperatorConfig c = env.operatorConfig(true);
        return new OperatorConfig(c.namespace(), c.probeImage(), c.probeImagePullPolicy(), true, freePort());
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static int readyz(RdmaStorageOperator operator) {
        try {
            return HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                    URI.create("http://127.0.0.1:" + operator.healthPort().orElseThrow() + "/readyz")).build(),
                    HttpResponse.BodyHandlers.discarding()).statusCode();
        } catch (IOException e) {
            return -1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return -1;
        }
    }

    private static String holder(OperatorEnvironment env) {
        Lease lease = env.admin.leases().inNamespace(env.namespace).withName(RdmaStorageOperator.LEASE_NAME).get();
        return lease == null || lease.getSpec() == null ? null : lease.getSpec().getHolderIdentity();
    }
}
