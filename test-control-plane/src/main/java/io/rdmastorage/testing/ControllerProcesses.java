package io.rdmastorage.testing;

import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The kube-controller-manager and kube-scheduler of a {@link LocalControlPlane}: both on the admin
 * kubeconfig, without leader election, serving on loopback only; their logs in the plane's work
 * directory.
 */
final class ControllerProcesses implements AutoCloseable {

    private final ControlPlaneBinaries binaries;
    private final Path workDir;
    private final Path adminKubeconfig;
    private final List<ServerProcess> running = new ArrayList<>();

    ControllerProcesses(ControlPlaneBinaries binaries, Path workDir, Path adminKubeconfig) {
        this.binaries = binaries;
        this.workDir = workDir;
        this.adminKubeconfig = adminKubeconfig;
    }

    /**
     * Everything a cluster with real kubelets needs (Deployments, ReplicaSets, service accounts, the
     * root CA ConfigMap, garbage collection, scheduling), started once the default service account
     * exists: the service-account controller is working. {@code pki}: the API server's
     * certificates and the service-account signing key.
     */
    void startAll(Path pki, StartupWait wait, KubernetesClient admin) {
        List<String> controllerManager = command(binaries.kubeControllerManager(), "controller-manager");
        controllerManager.addAll(List.of(
                // no cloud and no pod CIDRs to allocate; the node lifecycle controller stays: it lifts the
                // not-ready taint a kubelet registers with, so that Deployments' pods can be scheduled
                "--controllers=*,-nodeipam,-route,-cloud-node-lifecycle,-service-lb-controller",
                // published as the kube-root-ca.crt ConfigMap that every pod's token volume carries
                "--root-ca-file=" + pki.resolve("apiserver.crt"),
                "--service-account-private-key-file=" + pki.resolve("sa.key"),
                "--flex-volume-plugin-dir=" + workDir.resolve("flexvolume")));
        start("kube-controller-manager", controllerManager);
        start("kube-scheduler", command(binaries.kubeScheduler(), "scheduler"));
        wait.until("kube-controller-manager to create the default service account",
                () -> admin.serviceAccounts().inNamespace("default").withName("default").get() != null,
                running.toArray(ServerProcess[]::new));
    }

    /** kube-scheduler, and kube-controller-manager with the device-taint eviction controller only. */
    void startScheduling(List<String> gates) {
        List<String> scheduler = command(binaries.kubeScheduler(), "scheduler");
        scheduler.addAll(gates);
        List<String> controllerManager = command(binaries.kubeControllerManager(), "controller-manager");
        controllerManager.addAll(gates);
        controllerManager.add("--controllers=device-taint-eviction-controller");
        start("kube-scheduler", scheduler);
        start("kube-controller-manager", controllerManager);
    }

    private List<String> command(Path binary, String name) {
        String admin = adminKubeconfig.toString();
        return new ArrayList<>(List.of(binary.toString(),
                "--kubeconfig=" + admin,
                "--authentication-kubeconfig=" + admin,
                "--authorization-kubeconfig=" + admin,
                "--leader-elect=false",
                "--bind-address=127.0.0.1",
                "--secure-port=" + LoopbackPorts.free(),
                "--cert-dir=" + workDir.resolve(name + "-pki"),
                "--v=1"));
    }

    private void start(String name, List<String> command) {
        running.add(ServerProcess.start(name, command, workDir.resolve(name + ".log")));
    }

    @Override
    public void close() {
        running.forEach(ServerProcess::close);
        running.clear();
    }
}
