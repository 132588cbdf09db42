package io.rdmastorage.operator;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.rdmastorage.operator.config.OperatorConfig;
import java.util.concurrent.CountDownLatch;

/**
 * {@code java -jar operator.jar}: runs against the current kubeconfig (or the in-cluster service
 * account), configured by environment variables (see {@link OperatorConfig}), until stopped.
 */
public final class OperatorMain {

    private OperatorMain() {
    }

    public static void main(String[] args) throws InterruptedException {
        OperatorConfig config = OperatorConfig.fromEnvironment(System.getenv());
        KubernetesClient client = new KubernetesClientBuilder().build();
        RdmaStorageOperator operator = RdmaStorageOperator.start(client, config, true);
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            operator.close();
            client.close();
            stopped.countDown();
        }, "shutdown"));
        stopped.await();
    }
}
