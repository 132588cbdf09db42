package io.rdmastorage.testing;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.ServiceAccountBuilder;
import io.fabric8.kubernetes.api.model.authentication.TokenRequest;
import io.fabric8.kubernetes.api.model.authentication.TokenRequestBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A real Kubernetes control plane on loopback: etcd plus kube-apiserver with RBAC authorization,
 * in a temporary directory, on free ports. Not a mock: CRD validation, server-side apply, watch
 * semantics and RBAC are the API server's own.
 *
 * <p>There is no scheduler, controller-manager or kubelet: pods must be bound ({@code spec.nodeName})
 * and are run by a {@link SimulatedCluster}; owner-reference garbage collection does not happen;
 * the ServiceAccount admission plugin is off (nothing creates the {@code default} service account).
 *
 * <p>The admin identity is a static bearer token in group {@code system:masters}; other identities
 * are service accounts with tokens from the TokenRequest API ({@link #clientFor}).
 */
public final class LocalControlPlane implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(LocalControlPlane.class);
    private static final Duration STARTUP_TIMEOUT = Duration.ofSeconds(120);
    private static final String SERVICE_ACCOUNT_ISSUER = "https://kubernetes.default.svc.cluster.local";

    private static LocalControlPlane shared;

    private final ControlPlaneBinaries binaries;
    private final Path workDir;
    private final String adminToken;
    private final List<String> nodeNames;
    private final String nodeToken;
    private final List<KubernetesClient> clients = new ArrayList<>();
    private ServerProcess etcd;
    private String etcdUrl;
    private ServerProcess apiServer;
    private int port;
    private Path caBundle;
    private Kubeconfigs kubeconfigs;
    private Path kubeconfig;
    private KubernetesClient adminClient;
    private ControllerProcesses controllers;

    private LocalControlPlane(ControlPlaneBinaries binaries, Path workDir, List<String> nodeNames) {
        this.binaries = binaries;
        this.workDir = workDir;
        this.nodeNames = List.copyOf(nodeNames);
        this.adminToken = randomToken();
        this.nodeToken = randomToken();
    }

    private static String randomToken() {
        byte[] random = new byte[24];
        new SecureRandom().nextBytes(random);
        return HexFormat.of().formatHex(random);
    }

    /** Starts a new control plane (building the binaries first if this machine has none). */
    public static LocalControlPlane start(String... extraApiServerFlags) {
        return start(List.of(), List.of(extraApiServerFlags));
    }

    /**
     * A control plane for {@link RealNode}s named {@code nodeNames}: the Node authorizer beside RBAC
     * (each kubelet acts as {@code system:node:<name>}), the ServiceAccount admission plugin (pods get
     * their projected token), and kube-controller-manager and kube-scheduler (Deployments,
     * ReplicaSets, service accounts, the root CA ConfigMap, garbage collection, scheduling).
     */
    public static LocalControlPlane startWithControllers(String... nodeNames) {
        return startWithControllers(List.of(nodeNames));
    }

    /** {@link #startWithControllers(String...)} with more kube-apiserver flags (an audit policy, say). */
    public static LocalControlPlane startWithControllers(List<String> nodeNames, String... extraApiServerFlags) {
        if (nodeNames.isEmpty()) {
            throw new IllegalArgumentException("name at least one node");
        }
        return start(nodeNames, List.of(extraApiServerFlags));
    }

    /**
     * A control plane where DRA device taints work (KEP-5055): the API server serves
     * DeviceTaintRules, kube-scheduler honours device taints when it allocates ResourceClaims, and
     * kube-controller-manager runs the device-taint eviction controller (NoExecute) and nothing else.
     * Nodes are the test's own (a {@link SimulatedCluster}'s): no Node authorizer, no kubelet.
     * {@code binaries} picks the Kubernetes version; the gates each needs are set here.
     */
    public static LocalControlPlane startWithDeviceTaints(ControlPlaneBinaries binaries, String... extraApiServerFlags) {
        List<String> gates = deviceTaintGates(binaries.minor());
        List<String> apiServer = new ArrayList<>(gates);
        if (binaries.minor() < 36) {
            apiServer.add("--runtime-config=resource.k8s.io/v1alpha3=true");
        } else if (binaries.minor() == 36) {
            apiServer.add("--runtime-config=resource.k8s.io/v1beta2=true");
        }
        apiServer.addAll(List.of(extraApiServerFlags));
        LocalControlPlane plane = start(binaries, List.of(), apiServer);
        try {
            plane.controllers.startScheduling(gates);
            return plane;
        } catch (RuntimeException e) {
            plane.close();
            throw e;
        }
    }

    /** The feature gates of device taints: alpha before 1.36, the rules' API beta but off in 1.36, GA after. */
    static List<String> deviceTaintGates(int minor) {
        if (minor < 35) {
            return List.of("--feature-gates=DRADeviceTaints=true");
        }
        if (minor < 37) {
            return List.of("--feature-gates=DRADeviceTaints=true,DRADeviceTaintRules=true");
        }
        return List.of();
    }

    private static LocalControlPlane start(List<String> nodeNames, List<String> extraApiServerFlags) {
        return start(ControlPlaneBinaries.ensure(), nodeNames, extraApiServerFlags);
    }

    private static LocalControlPlane start(ControlPlaneBinaries binaries, List<String> nodeNames,
                                           List<String> extraApiServerFlags) {
        Path workDir;
        try {
            workDir = Files.createTempDirectory("rso-control-plane-");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        LocalControlPlane plane = new LocalControlPlane(binaries, workDir, nodeNames);
        try {
            plane.boot(extraApiServerFlags);
            if (!nodeNames.isEmpty()) {
                plane.controllers.startAll(workDir.resolve("pki"), plane.startupWait(), plane.adminClient);
            }
            return plane;
        } catch (RuntimeException e) {
            plane.close();
            throw e;
        }
    }

    /**
     * One control plane for the whole JVM (a test run), started on first use and stopped at exit.
     * Starting one costs several seconds; tests that share it use their own namespaces and names.
     */
    public static synchronized LocalControlPlane shared() {
        if (shared == null) {
            LocalControlPlane plane = start();
            Runtime.getRuntime().addShutdownHook(new Thread(plane::close, "control-plane-shutdown"));
            shared = plane;
        }
        return shared;
    }

    private void boot(List<String> extraApiServerFlags) {
        long started = System.nanoTime();
        try {
            Path pki = Files.createDirectories(workDir.resolve("pki"));
            ServiceAccountKeys serviceAccountKeys = ServiceAccountKeys.create(pki);
            Path tokens = workDir.resolve("tokens.csv");
            StringBuilder tokenLines = new StringBuilder(adminToken + ",admin,admin-uid,\"system:masters\"\n");
            for (String node : nodeNames) {
                // one token for every node keeps the file simple; the user name tells them apart
                tokenLines.append(nodeToken(node)).append(",system:node:").append(node).append(",node-").append(node)
                        .append(",\"system:nodes\"\n");
            }
            Files.writeString(tokens, tokenLines);

            int etcdPort = LoopbackPorts.free();
            int peerPort = LoopbackPorts.free();
            etcdUrl = "http://127.0.0.1:" + etcdPort;
            String peerUrl = "http://127.0.0.1:" + peerPort;
            etcd = ServerProcess.start("etcd", List.of(binaries.etcd().toString(),
                    "--name=default",
                    "--data-dir=" + workDir.resolve("etcd"),
                    "--listen-client-urls=" + etcdUrl,
                    "--advertise-client-urls=" + etcdUrl,
                    "--listen-peer-urls=" + peerUrl,
                    "--initial-advertise-peer-urls=" + peerUrl,
                    "--initial-cluster=default=" + peerUrl,
                    // throw-away data: skipping fsync keeps writes fast on slow CI disks
                    "--unsafe-no-fsync",
                    "--log-level=warn"), workDir.resolve("etcd.log"));

            port = LoopbackPorts.free();
            List<String> command = new ArrayList<>(List.of(binaries.kubeApiServer().toString(),
                    "--etcd-servers=" + etcdUrl,
                    "--bind-address=127.0.0.1",
                    "--advertise-address=127.0.0.1",
                    "--secure-port=" + port,
                    // the server writes a self-signed serving certificate and its CA here
                    "--cert-dir=" + pki,
                    "--token-auth-file=" + tokens,
                    "--authorization-mode=" + (nodeNames.isEmpty() ? "RBAC" : "Node,RBAC"),
                    "--service-account-issuer=" + SERVICE_ACCOUNT_ISSUER,
                    "--service-account-signing-key-file=" + serviceAccountKeys.signingKey(),
                    "--service-account-key-file=" + serviceAccountKeys.verifyKey(),
                    "--service-cluster-ip-range=10.0.0.0/24",
                    "--allow-privileged=true",
                    // without a controller-manager nothing creates the default service account that this plugin demands
                    nodeNames.isEmpty() ? "--disable-admission-plugins=ServiceAccount" : "--enable-admission-plugins=ServiceAccount",
                    // the 'kubernetes' service endpoint cannot be a loopback address
                    "--endpoint-reconciler-type=none",
                    "--profiling=false"));
            command.addAll(extraApiServerFlags);
            apiServer = ServerProcess.start("kube-apiserver", command, workDir.resolve("kube-apiserver.log"));

            caBundle = pki.resolve("apiserver.crt");
            kubeconfigs = new Kubeconfigs(caBundle);
            awaitReady();
            kubeconfig = kubeconfigs.write(workDir.resolve("kubeconfig"), url(), "admin", adminToken);
            adminClient = newClient(adminToken);
            controllers = new ControllerProcesses(binaries, workDir, kubeconfig);
            startupWait().until("the default namespace",
                    () -> adminClient.namespaces().withName("default").get() != null);
            LOG.info("control plane {} ready at {} in {} ms (work dir {})", binaries.kubernetesVersion(), url(),
                    (System.nanoTime() - started) / 1_000_000, workDir);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * SIGKILLs kube-apiserver, keeps it down for {@code down}, starts it again on the same port with
     * the same certificates and keys, and waits until it is ready: clients must reconnect and relist.
     */
    public synchronized void restartApiServer(Duration down) {
        apiServer.kill();
        sleep(down);
        apiServer = apiServer.restart();
        awaitReady();
    }

    /**
     * SIGKILLs etcd, keeps it down for {@code down} (kube-apiserver answers errors meanwhile), starts
     * it again on its data and waits until kube-apiserver is ready again.
     */
    public synchronized void restartEtcd(Duration down) {
        etcd.kill();
        sleep(down);
        etcd = etcd.restart();
        awaitReady();
    }

    private void awaitReady() {
        startupWait().untilReady(url(), adminToken, caBundle);
    }

    private StartupWait startupWait() {
        return new StartupWait(etcd, apiServer, STARTUP_TIMEOUT);
    }

    private static void sleep(Duration d) {
        try {
            Thread.sleep(d.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    /** etcd's client URL (plain HTTP on loopback), where it also serves its /metrics. */
    public String etcdUrl() {
        return etcdUrl;
    }

    public String url() {
        return "https://127.0.0.1:" + port;
    }

    /** The API server's port on 127.0.0.1. */
    public int port() {
        return port;
    }

    private String nodeToken(String node) {
        return nodeToken + "-" + node;
    }

    /**
     * A kubeconfig for the kubelet of node {@code node} (one of {@link #startWithControllers}'s),
     * reaching the API server at {@code server} (its certificate must name that address).
     */
    public Path writeNodeKubeconfig(String node, Path file, String server) {
        if (!nodeNames.contains(node)) {
            throw new IllegalArgumentException("no token for node " + node + ": start the control plane with it");
        }
        // the CA inline: a kubelet in a VM reads the file where the CA's path means nothing
        return kubeconfigs.writeSelfContained(file, server, "system:node:" + node, nodeToken(node));
    }

    /**
     * The admin kubeconfig with the CA inline, for a process whose file system is not this machine's
     * (one started in an image's root file system).
     */
    public Path writeSelfContainedKubeconfig(Path file) {
        return kubeconfigs.writeSelfContained(file, url(), "admin", adminToken);
    }

    /** Whether the Node {@code name} exists with condition Ready True. */
    public boolean isNodeReady(String name) {
        var node = adminClient.nodes().withName(name).get();
        return node != null && node.getStatus() != null && node.getStatus().getConditions() != null
                && node.getStatus().getConditions().stream()
                        .anyMatch(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus()));
    }

    /** A kubeconfig file for the admin identity (for kubectl, Helm, or {@code KUBECONFIG=}). */
    public Path kubeconfig() {
        return kubeconfig;
    }

    public String kubernetesVersion() {
        return binaries.kubernetesVersion();
    }

    /** Client configuration for the admin identity, for tests that build their own clients. */
    public Config adminConfig() {
        return config(adminToken);
    }

    /** A shared client with cluster-admin rights (closed with the control plane). */
    public KubernetesClient adminClient() {
        return adminClient;
    }

    /** kubectl acting as admin. */
    public Kubectl kubectl() {
        return new Kubectl(binaries.kubectl(), kubeconfig);
    }

    /**
     * A client authenticated as the service account {@code namespace/name} (both created when
     * absent), with whatever RBAC grants it: a token from the TokenRequest API, valid for an hour.
     */
    public KubernetesClient clientFor(String namespace, String serviceAccount) {
        return newClient(serviceAccountToken(namespace, serviceAccount));
    }

    /** kubectl acting as the service account {@code namespace/name}. */
    public Kubectl kubectlFor(String namespace, String serviceAccount) {
        return new Kubectl(binaries.kubectl(), kubeconfigFor(namespace, serviceAccount));
    }

    /**
     * A kubeconfig file for the service account {@code namespace/name} (both created when absent),
     * with a fresh token valid for an hour: for a process that must act as that identity, such as
     * {@code java -jar operator.jar} with {@code KUBECONFIG=}.
     */
    public Path kubeconfigFor(String namespace, String serviceAccount) {
        String token = serviceAccountToken(namespace, serviceAccount);
        Path file = workDir.resolve("kubeconfig-" + namespace + "-" + serviceAccount);
        return kubeconfigs.write(file, url(), namespace + "-" + serviceAccount, token);
    }

    private String serviceAccountToken(String namespace, String name) {
        adminClient.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(namespace).endMetadata().build())
                .serverSideApply();
        adminClient.serviceAccounts().inNamespace(namespace)
                .resource(new ServiceAccountBuilder().withNewMetadata().withName(name).endMetadata().build())
                .serverSideApply();
        TokenRequest request = new TokenRequestBuilder().withNewSpec().withExpirationSeconds(3600L).endSpec().build();
        return adminClient.serviceAccounts().inNamespace(namespace).withName(name).tokenRequest(request)
                .getStatus().getToken();
    }

    private Config config(String token) {
        // Config.empty(): never pick up ~/.kube/config or the environment of the machine.
        return new ConfigBuilder(Config.empty())
                .withMasterUrl(url())
                .withCaCertFile(caBundle.toString())
                .withOauthToken(token)
                .withNamespace("default")
                .withRequestTimeout(30_000)
                .withMaxConcurrentRequests(256)
                .withMaxConcurrentRequestsPerHost(256)
                .build();
    }

    private synchronized KubernetesClient newClient(String token) {
        KubernetesClient client = new KubernetesClientBuilder().withConfig(config(token)).build();
        clients.add(client);
        return client;
    }

    /** Stops the controllers, kube-apiserver and etcd and deletes the work directory (all data). */
    @Override
    public synchronized void close() {
        clients.forEach(KubernetesClient::close);
        clients.clear();
        if (controllers != null) {
            controllers.close();
        }
        if (apiServer != null) {
            apiServer.close();
        }
        if (etcd != null) {
            etcd.close();
        }
        if (Boolean.getBoolean("rdmastorage.controlplane.keep")) {
            LOG.info("keeping control plane work dir {}", workDir);
            return;
        }
        TempDirs.delete(workDir);
    }
}
