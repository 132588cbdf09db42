package io.rdmastorage.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The configuration files of a {@link RealNode}'s CNI network, containerd and kubelet, written into
 * the node's work directory.
 */
final class NodeConfigFiles {

    private static final String POD_SUBNET = "10.88.0.0/24";
    private static final String SANDBOX_IMAGE = "registry.k8s.io/pause:3.10";

    private final Path workDir;
    private final NodeRuntime runtime;
    private final String cgroupRoot;

    NodeConfigFiles(Path workDir, NodeRuntime runtime, String cgroupRoot) {
        this.workDir = workDir;
        this.runtime = runtime;
        this.cgroupRoot = cgroupRoot;
    }

    /** containerd's socket, which its configuration names and the kubelet and {@code ctr} dial. */
    static Path containerdSocket(Path workDir) {
        return workDir.resolve("containerd/containerd.sock");
    }

    /** The pods' network: {@value #POD_SUBNET} on a bridge whose gateway is the node. */
    void writeCni() throws IOException {
        Path dir = Files.createDirectories(workDir.resolve("cni/net.d"));
        // a bridge whose gateway is the node: pods reach the API server's service address through it;
        // no masquerading, no forwarding out of the node's namespace
        Files.writeString(dir.resolve("10-rso.conflist"), """
                {
                  "cniVersion": "0.4.0",
                  "name": "rso",
                  "plugins": [
                    {
                      "type": "bridge",
                      "bridge": "cni0",
                      "isGateway": true,
                      "ipMasq": false,
                      "ipam": {
                        "type": "host-local",
                        "ranges": [[{"subnet": "%s"}]],
                        "routes": [{"dst": "0.0.0.0/0"}],
                        "dataDir": "%s"
                      }
                    },
                    {"type": "loopback"}
                  ]
                }
                """.formatted(POD_SUBNET, workDir.resolve("cni/ipam")));
    }

    /** containerd's CRI with runc and the CNI plugins, everything under the node's work directory. */
    Path writeContainerd() throws IOException {
        Path containerd = Files.createDirectories(workDir.resolve("containerd"));
        String config = """
                version = 2
                root = "%1$s/root"
                state = "%1$s/state"
                [grpc]
                  address = "%1$s/containerd.sock"
                [plugins."io.containerd.grpc.v1.cri"]
                  sandbox_image = "%2$s"
                  disable_apparmor = true
                  netns_mounts_under_state_dir = true
                  # where the machine does not give root CAP_SYS_RESOURCE, runc cannot lower oom_score_adj
                  restrict_oom_score_adj = %3$s
                  [plugins."io.containerd.grpc.v1.cri".containerd]
                    snapshotter = "overlayfs"
                    [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc]
                      runtime_type = "io.containerd.runc.v2"
                      [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc.options]
                        BinaryName = "%4$s"
                        Root = "%1$s/runc"
                        SystemdCgroup = false
                  [plugins."io.containerd.grpc.v1.cri".cni]
                    bin_dir = "%5$s"
                    conf_dir = "%6$s"
                """.formatted(containerd, SANDBOX_IMAGE, !NodeRuntime.hasCapability(24), runtime.runc(), runtime.cniBin(),
                workDir.resolve("cni/net.d"));
        return Files.writeString(containerd.resolve("config.toml"), config);
    }

    /**
     * The kubelet's configuration: loopback only, no anonymous access, pod cgroups under the node's
     * cgroup root, status updates every 5 s.
     */
    Path writeKubelet() throws IOException {
        Path resolvConf = Files.writeString(workDir.resolve("resolv.conf"), "nameserver 127.0.0.1\n");
        String config = """
                apiVersion: kubelet.config.k8s.io/v1beta1
                kind: KubeletConfiguration
                address: 127.0.0.1
                port: %1$d
                readOnlyPort: 0
                healthzBindAddress: 127.0.0.1
                healthzPort: %2$d
                containerRuntimeEndpoint: unix://%3$s
                cgroupDriver: cgroupfs
                cgroupRoot: %4$s
                failSwapOn: false
                failCgroupV1: false
                protectKernelDefaults: true
                makeIPTablesUtilChains: false
                podLogsDir: %5$s
                volumePluginDir: %6$s
                resolvConf: %7$s
                staticPodPath: ""
                authentication:
                  anonymous: {enabled: false}
                  webhook: {enabled: false}
                authorization: {mode: AlwaysAllow}
                evictionHard: {memory.available: 50Mi, nodefs.available: 1%%, imagefs.available: 1%%}
                imageGCHighThresholdPercent: 100
                imageGCLowThresholdPercent: 99
                syncFrequency: 10s
                nodeStatusUpdateFrequency: 5s
                """.formatted(LoopbackPorts.free(), LoopbackPorts.free(), containerdSocket(workDir), cgroupRoot, workDir.resolve("pod-logs"),
                workDir.resolve("volume-plugins"), resolvConf);
        return Files.writeString(workDir.resolve("kubelet.yaml"), config);
    }
}
