package io.rdmastorage.operator.acceptance;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.rdmastorage.operator.api.AcceptancePathTarget;
import io.rdmastorage.operator.api.AcceptanceTransportResult;
import io.rdmastorage.operator.api.AcceptanceWorkloadSpec;
import io.rdmastorage.operator.api.RdmaStorageAcceptance;
import io.rdmastorage.operator.api.RdmaStorageAcceptanceSpec;
import io.rdmastorage.operator.api.RdmaStorageAcceptanceStatus;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** A path run beside the run its compareWith names: which earlier runs count, the rows, and RdmaEffective. */
class PathComparisonTest {

    private static RdmaStorageAcceptance run(String name, String node, String directory, String compareWith, String phase,
                                             AcceptanceTransportResult... rows) {
        RdmaStorageAcceptance run = new RdmaStorageAcceptance();
        run.setMetadata(new ObjectMetaBuilder().withName(name).build());
        RdmaStorageAcceptanceSpec spec = new RdmaStorageAcceptanceSpec();
        spec.setNodeName(node);
        AcceptancePathTarget path = new AcceptancePathTarget();
        path.setDirectory(directory);
        path.setCompareWith(compareWith);
        spec.setPath(path);
        run.setSpec(spec);
        if (phase != null) {
            RdmaStorageAcceptanceStatus status = new RdmaStorageAcceptanceStatus();
            status.setPhase(phase);
            status.setTransports(new ArrayList<>(List.of(rows)));
            run.setStatus(status);
        }
        return run;
    }

    private static AcceptanceTransportResult row(String transport, double p50, double cpuMicrosPerIo) {
        AcceptanceTransportResult r = new AcceptanceTransportResult();
        r.setTransport(transport);
        r.setDevice("/gpfs/fs0/acceptance/rdmastorage-acceptance-x.fio");
        r.setLatencyP50Micros(p50);
        r.setCpuMicrosPerIo(cpuMicrosPerIo);
        return r;
    }

    private static final RdmaStorageAcceptance SECOND = run("gpfs-01-rdma", "gpfs-01", "/gpfs/fs0/acceptance/", "gpfs-01-tcp", null);

    @Test
    void aSucceededPathRunOnTheSameNodeDirectoryAndWorkloadsCounts() {
        RdmaStorageAcceptance first = run("gpfs-01-tcp", "gpfs-01", "/gpfs/fs0/acceptance", null, "Succeeded", row("tcp", 90, 8.4));

        assertThat(PathComparison.refusal(SECOND, Optional.of(first))).as("a trailing slash is the same directory").isEmpty();

        List<AcceptanceTransportResult> rows = PathComparison.rows(List.of(row("rdma", 25, 1.2)), first);
        assertThat(rows).extracting(AcceptanceTransportResult::getTransport).containsExactly("rdma", "tcp");
        assertThat(rows).extracting(AcceptanceTransportResult::getRun).containsExactly(null, "gpfs-01-tcp");
        assertThat(first.getStatus().getTransports().get(0).getRun()).as("the earlier run's own row is not changed").isNull();
        RdmaEffectiveness.Ruling j = PathComparison.judge(rows, Optional.empty(), true, 2.0);
        assertThat(j.status()).isEqualTo("True");
        assertThat(j.ratios()).hasValueSatisfying(r -> assertThat(r.getLatency()).isEqualTo(3.6));
    }

    @Test
    void everyOtherEarlierRunIsRefusedWithWhatIsWrong() {
        AcceptanceTransportResult tcp = row("tcp", 90, 8.4);
        assertThat(PathComparison.refusal(SECOND, Optional.empty())).hasValue(
                "path.compareWith names gpfs-01-tcp, which does not exist (kubectl get rdmastorageacceptance)");
        assertThat(PathComparison.refusal(SECOND, Optional.of(run("gpfs-01-tcp", "gpfs-02", "/gpfs/fs0/acceptance", null,
                "Succeeded", tcp)))).hasValueSatisfying(m -> assertThat(m).contains("ran on node gpfs-02, not gpfs-01"));
        assertThat(PathComparison.refusal(SECOND, Optional.of(run("gpfs-01-tcp", "gpfs-01", "/gpfs/fs1/acceptance", null,
                "Succeeded", tcp)))).hasValueSatisfying(m -> assertThat(m).contains("only the same directory is compared"));
        assertThat(PathComparison.refusal(SECOND, Optional.of(run("gpfs-01-tcp", "gpfs-01", "/gpfs/fs0/acceptance", null,
                "Failed", tcp)))).hasValueSatisfying(m -> assertThat(m).contains("gpfs-01-tcp is Failed"));
        assertThat(PathComparison.refusal(SECOND, Optional.of(SECOND))).hasValueSatisfying(m -> assertThat(m).contains("this run itself"));

        RdmaStorageAcceptance otherWorkload = run("gpfs-01-tcp", "gpfs-01", "/gpfs/fs0/acceptance", null, "Succeeded", tcp);
        AcceptanceWorkloadSpec iops = new AcceptanceWorkloadSpec();
        iops.setJobs(4);
        otherWorkload.getSpec().setIops(iops);
        assertThat(PathComparison.refusal(SECOND, Optional.of(otherWorkload)))
                .hasValueSatisfying(m -> assertThat(m).contains("other workloads or another file size"));

        RdmaStorageAcceptance nvmeof = run("gpfs-01-tcp", "gpfs-01", "/gpfs/fs0/acceptance", null, "Succeeded", tcp);
        nvmeof.getSpec().setPath(null);
        assertThat(PathComparison.refusal(SECOND, Optional.of(nvmeof))).hasValueSatisfying(m -> assertThat(m).contains("measured no directory"));
    }

    @Test
    void theSameTransportTwiceOrNothingToCompareWithIsUnknown() {
        RdmaEffectiveness.Ruling same = PathComparison.judge(List.of(row("rdma", 25, 1.2), withRun(row("rdma", 26, 1.3), "gpfs-01-a")),
                Optional.empty(), true, 2.0);
        assertThat(same.status()).isEqualTo("Unknown");
        assertThat(same.reason()).isEqualTo("SameTransport");
        assertThat(same.message()).contains("this run and gpfs-01-a both went over rdma");
        assertThat(same.ratios()).isEmpty();

        RdmaEffectiveness.Ruling alone = PathComparison.judge(List.of(row("tcp", 90, 8.4)), Optional.empty(), false, 2.0);
        assertThat(alone.reason()).isEqualTo("NoComparison");
        assertThat(alone.message()).startsWith("this run measured tcp only").contains("path.compareWith naming this one");

        RdmaEffectiveness.Ruling gone = PathComparison.judge(List.of(row("tcp", 90, 8.4)),
                Optional.of("path.compareWith names x, which does not exist"), true, 2.0);
        assertThat(gone.status()).isEqualTo("Unknown");
        assertThat(gone.message()).contains("which does not exist");

        AcceptanceTransportResult unproven = row("unknown", 90, 8.4);
        unproven.setProblem("which transport carried the reads is not proven");
        assertThat(PathComparison.judge(List.of(unproven, withRun(row("rdma", 25, 1.2), "a")), Optional.empty(), true, 2.0).status())
                .as("an unproven row is no evidence").isEqualTo("Unknown");
    }

    private static AcceptanceTransportResult withRun(AcceptanceTransportResult row, String run) {
        row.setRun(run);
        return row;
    }
}
