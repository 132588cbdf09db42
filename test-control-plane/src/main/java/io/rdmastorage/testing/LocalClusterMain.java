package io.rdmastorage.testing;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;

/**
 * Runs a local control plane with simulated nodes until interrupted, for demos and manual poking:
 * {@code LocalClusterMain [--nodes N] [--host-root DIR] [--crds DIR] [--kubeconfig FILE]}.
 * Nodes are named {@code node-000...}; each uses DIR (default: an empty folder) as its host root.
 */
public final class LocalClusterMain {

    private LocalClusterMain() {
    }

    public static void main(String[] args) throws Exception {
        int count = 3;
        Path hostRoot = null;
        Path crds = null;
        Path kubeconfigCopy = null;
        for (int i = 0; i < args.length; i++) {
            String value = i + 1 < args.length ? args[i + 1] : null;
            switch (args[i]) {
                case "--nodes" -> count = Integer.parseInt(require(args[i], value));
                case "--host-root" -> hostRoot = Path.of(require(args[i], value));
                case "--crds" -> crds = Path.of(require(args[i], value));
                case "--kubeconfig" -> kubeconfigCopy = Path.of(require(args[i], value));
                default -> throw new IllegalArgumentException("unknown option " + args[i]
                        + "; usage: [--nodes N] [--host-root DIR] [--crds DIR] [--kubeconfig FILE]");
            }
            i++;
        }
        if (hostRoot == null) {
            hostRoot = Files.createTempDirectory("rso-host-root-");
        }
        LocalControlPlane plane = LocalControlPlane.start();
        SimulatedCluster cluster = SimulatedCluster.builder(plane.adminClient()).start();
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            cluster.close();
            plane.close();
            stopped.countDown();
        }, "local-cluster-shutdown"));

        if (crds != null) {
            plane.kubectl().apply(crds).orThrow("kubectl apply -f " + crds);
        }
        List<SimulatedNode> nodes = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            nodes.add(SimulatedNode.named("node-%03d".formatted(i)).withHostRoot(hostRoot));
        }
        cluster.addNodes(nodes);
        Path kubeconfig = plane.kubeconfig();
        if (kubeconfigCopy != null) {
            Files.copy(kubeconfig, kubeconfigCopy, StandardCopyOption.REPLACE_EXISTING);
            kubeconfig = kubeconfigCopy;
        }
        System.out.printf("Kubernetes %s at %s with %d simulated nodes.%n  export KUBECONFIG=%s%n  %s get nodes%n"
                        + "Ctrl-C stops it and deletes all its data.%n",
                plane.kubernetesVersion(), plane.url(), count, kubeconfig, ControlPlaneBinaries.ensure().kubectl());
        stopped.await();
    }

    private static String require(String option, String value) {
        if (value == null) {
            throw new IllegalArgumentException(option + " needs a value");
        }
        return value;
    }
}
