package io.rdmastorage.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

/**
 * Where the kube-apiserver, kubectl and etcd binaries are (and kubelet, kube-scheduler and
 * kube-controller-manager, for {@link RealNode}). They are built from Go modules by
 * {@code build-binaries.sh} (shipped in this jar) into {@code ~/.cache/rdma-storage-operator/},
 * keyed by version; when they are missing the script is run here, so a test needs no extra step.
 */
public record ControlPlaneBinaries(Path kubeApiServer, Path kubectl, Path etcd, Path kubelet, Path kubeScheduler,
                                   Path kubeControllerManager, String kubernetesVersion) {

    private static final String RESOURCES = "/io/rdmastorage/testing/";

    /** Finds the binaries, building them first (minutes, once per machine) when absent. */
    public static ControlPlaneBinaries ensure() {
        Properties versions = versions();
        String k8s = versions.getProperty("k8s.version");
        String etcd = versions.getProperty("etcd.version");
        Path cache = cacheRoot();
        Path kubernetes = cache.resolve("k8s").resolve(k8s);
        ControlPlaneBinaries binaries = new ControlPlaneBinaries(
                kubernetes.resolve("kube-apiserver"),
                kubernetes.resolve("kubectl"),
                cache.resolve("etcd").resolve(etcd).resolve("etcd"),
                kubernetes.resolve("kubelet"),
                kubernetes.resolve("kube-scheduler"),
                kubernetes.resolve("kube-controller-manager"),
                k8s);
        if (!binaries.present()) {
            runBuildScript();
            if (!binaries.present()) {
                throw new IllegalStateException("build-binaries.sh finished but binaries are missing: " + binaries);
            }
        }
        return binaries;
    }

    /**
     * The control plane of the newest Kubernetes the tests run ({@code k8s.newest.version}):
     * kube-apiserver, kube-scheduler and kube-controller-manager of that version, built first when
     * absent (about 10 minutes on 2 cores, once per machine; the Maven build starts that build in the
     * background once the default version is built, and this waits for it); etcd and kubectl of the default's.
     */
    public static ControlPlaneBinaries newest() {
        ControlPlaneBinaries base = ensure();
        String newest = versions().getProperty("k8s.newest.version");
        Path kubernetes = cacheRoot().resolve("k8s").resolve(newest);
        ControlPlaneBinaries binaries = new ControlPlaneBinaries(kubernetes.resolve("kube-apiserver"), base.kubectl(),
                base.etcd(), base.kubelet(), kubernetes.resolve("kube-scheduler"),
                kubernetes.resolve("kube-controller-manager"), newest);
        if (!binaries.present()) {
            runBuildScript("newest");
            if (!binaries.present()) {
                throw new IllegalStateException("build-binaries.sh finished but binaries are missing: " + binaries);
            }
        }
        return binaries;
    }

    /** The minor version, 34 for 1.34.4. */
    public int minor() {
        return Integer.parseInt(kubernetesVersion.split("\\.")[1]);
    }

    boolean present() {
        return Files.isExecutable(kubeApiServer) && Files.isExecutable(kubectl) && Files.isExecutable(etcd)
                && Files.isExecutable(kubelet) && Files.isExecutable(kubeScheduler) && Files.isExecutable(kubeControllerManager);
    }

    /**
     * Same rule as build-binaries.sh: $RSO_BINARY_CACHE, else $XDG_CACHE_HOME or $HOME/.cache. The
     * JVM's user.home is the password database's home, not $HOME: where the two differ (a CI job's
     * or container's HOME) the tests would look where the script did not build.
     */
    static Path cacheRoot() {
        String explicit = System.getenv("RSO_BINARY_CACHE");
        if (explicit != null && !explicit.isBlank()) {
            return Path.of(explicit);
        }
        String xdg = System.getenv("XDG_CACHE_HOME");
        String home = System.getenv("HOME");
        Path base = xdg != null && !xdg.isBlank() ? Path.of(xdg)
                : Path.of(home != null && !home.isBlank() ? home : System.getProperty("user.home"), ".cache");
        return base.resolve("rdma-storage-operator");
    }

    static Properties versions() {
        try (InputStream in = ControlPlaneBinaries.class.getResourceAsStream(RESOURCES + "versions.properties")) {
            if (in == null) {
                throw new IllegalStateException("versions.properties missing from the classpath");
            }
            Properties properties = new Properties();
            properties.load(in);
            return properties;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void runBuildScript(String... arguments) {
        try {
            Path dir = Files.createTempDirectory("rso-build-binaries");
            for (String name : new String[] {"build-binaries.sh", "go-build-env.sh", "versions.properties"}) {
                try (InputStream in = ControlPlaneBinaries.class.getResourceAsStream(RESOURCES + name)) {
                    Files.copy(in, dir.resolve(name), StandardCopyOption.REPLACE_EXISTING);
                }
            }
            // The script prints its progress; inherit the output so a long first build is visible.
            List<String> command = new ArrayList<>(List.of("bash", dir.resolve("build-binaries.sh").toString()));
            command.addAll(List.of(arguments));
            ProcessBuilder builder = new ProcessBuilder(command)
                    .redirectOutput(ProcessBuilder.Redirect.INHERIT)
                    .redirectError(ProcessBuilder.Redirect.INHERIT);
            Process process = builder.start();
            int exit = process.waitFor();
            if (exit != 0) {
                throw new IllegalStateException("build-binaries.sh failed with exit code " + exit);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while building control-plane binaries", e);
        }
    }
}
