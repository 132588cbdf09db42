package io.rdmastorage.operator.acceptance;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.rdmastorage.contract.acceptance.Workload;
import io.rdmastorage.contract.spec.InvalidSpecException;
import io.rdmastorage.operator.api.AcceptanceTransportResult;
import io.rdmastorage.operator.api.RdmaStorageAcceptance;
import io.rdmastorage.operator.status.Conditions;
import io.rdmastorage.operator.status.Reasons;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A path run beside the earlier run it names in {@code path.compareWith}: a file system such as
 * GPFS carries all of its I/O over one transport and cannot switch without restarting its daemon,
 * so RDMA against TCP on a directory is two runs, one before and one after the switch. The earlier
 * run counts only when it measured the same thing: Succeeded, a path run on the same node and
 * directory, with the same file size and workloads. Its row is then put beside this run's (marked
 * with its name), and RdmaEffective is judged on the two as for an NVMe-oF run when one is rdma and
 * the other tcp; Unknown when both went over the same transport, or there is nothing to compare
 * with. Pure.
 */
public final class PathComparison {

    private static final ObjectMapper JSON = new ObjectMapper();

    private PathComparison() {
    }

    /** Why {@code earlier} cannot be compared with {@code run}; empty when it can. */
    public static Optional<String> refusal(RdmaStorageAcceptance run, Optional<RdmaStorageAcceptance> earlier) {
        String name = run.getSpec().getPath().getCompareWith();
        if (earlier.isEmpty()) {
            return Optional.of("path.compareWith names " + name + ", which does not exist (kubectl get rdmastorageacceptance)");
        }
        RdmaStorageAcceptance e = earlier.get();
        if (e.getMetadata().getName().equals(run.getMetadata().getName())) {
            return Optional.of("path.compareWith names this run itself; name the earlier run measured over the other transport");
        }
        if (e.getSpec() == null || e.getSpec().getPath() == null) {
            return Optional.of(name + " measured no directory (its target is not path), so its numbers are not this run's");
        }
        if (!run.getSpec().getNodeName().equals(e.getSpec().getNodeName())) {
            return Optional.of(name + " ran on node " + e.getSpec().getNodeName() + ", not " + run.getSpec().getNodeName()
                    + ": only the same hardware is compared");
        }
        if (!directory(run).equals(directory(e))) {
            return Optional.of(name + " measured " + e.getSpec().getPath().getDirectory() + ", not "
                    + run.getSpec().getPath().getDirectory() + ": only the same directory is compared");
        }
        if (!sameWorkloads(run, e)) {
            return Optional.of(name + " ran other workloads or another file size: the same command on both is compared, "
                    + "so give this run the same latency, iops, bandwidth and path.fileSizeMiB");
        }
        String phase = e.getStatus() == null ? null : e.getStatus().getPhase();
        if (!Reasons.Acceptance.SUCCEEDED.equals(phase)) {
            return Optional.of(name + " is " + (phase == null ? "not started" : phase) + "; only a Succeeded run's numbers are "
                    + "compared (create this run after it succeeded)");
        }
        if (own(e).isEmpty()) {
            return Optional.of(name + " has no row of its own to compare with");
        }
        return Optional.empty();
    }

    /** This run's row, then the earlier run's own row marked with its name. */
    public static List<AcceptanceTransportResult> rows(List<AcceptanceTransportResult> measured, RdmaStorageAcceptance earlier) {
        List<AcceptanceTransportResult> rows = new ArrayList<>(measured);
        own(earlier).ifPresent(row -> {
            AcceptanceTransportResult copy = copy(row);
            copy.setRun(earlier.getMetadata().getName());
            rows.add(copy);
        });
        return rows;
    }

    /**
     * RdmaEffective of a path run: {@code earlier} empty when the run names none (or it became
     * unusable since the run started: {@code refusal} says why).
     */
    public static RdmaEffectiveness.Ruling judge(List<AcceptanceTransportResult> rows, Optional<String> refusal,
                                                 boolean compareWithNamed, double minLatencyRatio) {
        AcceptanceTransportResult own = rows.get(0);
        if (!compareWithNamed) {
            return new RdmaEffectiveness.Ruling(Conditions.UNKNOWN, Reasons.Acceptance.NO_COMPARISON, "this run measured "
                    + own.getTransport() + " only: a file system such as GPFS cannot switch its transport without restarting "
                    + "its daemon, so switch it (GPFS: verbsRdma, then mmshutdown/mmstartup on the node) and create a second "
                    + "run with path.compareWith naming this one", Optional.empty());
        }
        if (refusal.isPresent()) {
            return new RdmaEffectiveness.Ruling(Conditions.UNKNOWN, Reasons.Acceptance.NO_COMPARISON, refusal.get(),
                    Optional.empty());
        }
        AcceptanceTransportResult other = rows.get(rows.size() - 1);
        if (Objects.equals(own.getTransport(), other.getTransport())) {
            return new RdmaEffectiveness.Ruling(Conditions.UNKNOWN, Reasons.Acceptance.SAME_TRANSPORT, "this run and "
                    + other.getRun() + " both went over " + own.getTransport() + " (the storage counters of each say so): "
                    + "switch the file system's transport between the two runs", Optional.empty());
        }
        return RdmaEffectiveness.judge(rows, minLatencyRatio);
    }

    private static Optional<AcceptanceTransportResult> own(RdmaStorageAcceptance run) {
        return run.getStatus() == null || run.getStatus().getTransports() == null ? Optional.empty()
                : run.getStatus().getTransports().stream().filter(t -> t.getRun() == null).findFirst();
    }

    private static String directory(RdmaStorageAcceptance run) {
        String d = run.getSpec().getPath().getDirectory();
        return d != null && d.length() > 1 && d.endsWith("/") ? d.substring(0, d.length() - 1) : String.valueOf(d);
    }

    private static boolean sameWorkloads(RdmaStorageAcceptance a, RdmaStorageAcceptance b) {
        try {
            AcceptanceSpecDocument da = AcceptanceSpecDocument.of(a.getSpec(), a.getMetadata().getName());
            AcceptanceSpecDocument db = AcceptanceSpecDocument.of(b.getSpec(), b.getMetadata().getName());
            for (Workload w : Workload.values()) {
                if (!da.spec().run(w).equals(db.spec().run(w))) {
                    return false;
                }
            }
            return da.spec().path().fileSizeMiB().equals(db.spec().path().fileSizeMiB());
        } catch (InvalidSpecException e) {
            return false;
        }
    }

    private static AcceptanceTransportResult copy(AcceptanceTransportResult r) {
        return JSON.convertValue(r, AcceptanceTransportResult.class);
    }
}
