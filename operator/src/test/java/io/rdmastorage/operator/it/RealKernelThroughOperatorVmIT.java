package io.rdmastorage.operator.it;

import static io.rdmastorage.operator.it.OperatorEnvironment.await;
import static org.assertj.core.api.Assertions.assertThat;

import io.rdmastorage.operator.api.RdmaStorageNode;
import io.rdmastorage.operator.api.RdmaStorageProfile;
import io.rdmastorage.operator.metrics.OperatorMetrics;
import io.rdmastorage.probe.vm.VmNode;
import io.rdmastorage.testing.SimulatedNode;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Verdicts from a real kernel through the operator: two simulated nodes whose kubelets run the
 * probe pod's command in the VM node (see {@link VmNodeProbeLauncher}) instead of on a fixture
 * root. vm-rdma has the NVMe-oF target connected over rdma, vm-tcp over tcp; soft-RoCE ports and
 * libibverbs are real on both, and each reads its namespace while it is probed, so RdmaTraffic
 * sees the bytes on rxe's counters (vm-rdma) or the NVMe/TCP sockets (vm-tcp). The operator runs
 * under the chart's RBAC on the real API server.
 */
class RealKernelThroughOperatorVmIT {

    private static final String CHECKS = """
            rdma:
              devices: ["rxe0/1", "rxe1/1"]
              userspaceVerbs: true
            nvmeof:
              targets:
              - nqn: nqn.2014-08.org.example:vm-target
                address: 192.0.2.1
                port: 4420
            traffic:
              window: 5s
            """;

    @Test
    void kubectlShowsTheRealKernelsVerdicts() throws Exception {
        Path repository = Path.of(System.getProperty("user.dir")).resolveSibling("");
        Path jar = repository.resolve("node-probe/target/node-probe.jar");
        try (VmNode vm = VmNode.bootWithProbe(repository, jar, Path.of("target").toAbsolutePath());
             OperatorEnvironment env = OperatorEnvironment.start("vm",
                     new VmNodeProbeLauncher(vm, Map.of("vm-rdma", "rdma", "vm-tcp", "tcp")))) {
            for (String node : new String[] {"vm-rdma", "vm-tcp"}) {
                env.cluster.addNode(SimulatedNode.named(node).withLabel(GpuPool.LABEL, GpuPool.VALUE));
            }
            env.startOperator();
            env.applyProfile("real-kernel", """
                    interval: 5m
                    probeTimeout: 2m
                    maxConcurrentProbes: 2
                    """, CHECKS);

            await("both nodes judged", Duration.ofMinutes(3), () -> {
                RdmaStorageProfile p = env.profile("real-kernel");
                return p.getStatus() != null && p.getStatus().getNodes() != null
                        && p.getStatus().getNodes().getMatched() == 2 && p.getStatus().getNodes().getUnknown() == 0;
            });

            assertThat(env.conditions("real-kernel", "vm-rdma")).containsEntry("Ready", "True/AllChecksPassed")
                    .containsEntry("RdmaDevices", "True/PortsActive").containsEntry("NvmeofRdma", "True/ConnectedOverRdma")
                    .containsEntry("RdmaTraffic", "True/DataOverRdma");
            assertThat(env.conditions("real-kernel", "vm-tcp")).containsEntry("Ready", "False/ChecksFailed")
                    .containsEntry("RdmaDevices", "True/PortsActive").containsEntry("NvmeofRdma", "False/TransportTcp")
                    .containsEntry("RdmaTraffic", "False/DataOnTcp");
            // the bytes behind the verdicts, as the traffic gauges sum them
            assertThat(OperatorMetrics.storageTraffic(env.verdicts("real-kernel").stream().map(RdmaStorageNode::getStatus).toList()))
                    .satisfies(t -> {
                        assertThat(t.nodes()).isEqualTo(2);
                        assertThat(t.rdmaPacketsPerSecond()).isGreaterThan(100);
                        assertThat(t.tcpBytesPerSecond()).isGreaterThan(1024 * 1024);
                    });
            String table = env.plane.kubectl().run("get", "rdmastorage").orThrow("kubectl get rdmastorage");
            System.err.println(table);
            assertThat(table).contains("real-kernel.vm-rdma").contains("real-kernel.vm-tcp");
        }
    }
}
