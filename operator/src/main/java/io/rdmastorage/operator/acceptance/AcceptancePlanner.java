package io.rdmastorage.operator.acceptance;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.rdmastorage.contract.spec.InvalidSpecException;
import io.rdmastorage.operator.api.AcceptanceTransportResult;
import io.rdmastorage.operator.api.RdmaStorageAcceptance;
import io.rdmastorage.operator.api.RdmaStorageAcceptanceStatus;
import io.rdmastorage.operator.config.OperatorConfig;
import io.rdmastorage.operator.measurement.Lifecycle;
import io.rdmastorage.operator.probe.ProbeOutcome;
import io.rdmastorage.operator.probe.ProbeOutcomeReader;
import io.rdmastorage.operator.status.Conditions;
import io.rdmastorage.operator.status.Reasons;
import io.rdmastorage.operator.status.SafeText;
import io.rdmastorage.operator.status.Timestamps;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The plan step of an acceptance run, pure: from an {@link AcceptanceSnapshot}, the operator's
 * configuration and the clock, the one {@link AcceptancePlan} of this reconcile. It carries a run
 * through Pending → Running → Succeeded or Failed, like a Job:
 * <ul>
 * <li>at most one run per node at a time: of the unfinished runs on a node, the oldest (then by
 * name) measures and the others wait, Pending {@code WaitingForNode};</li>
 * <li>Running: the run's spec ConfigMap and pod exist ({@link AcceptancePods}); the pod reports
 * through its termination message;</li>
 * <li>the end: the report becomes the status table, the ratios and RdmaEffective
 * ({@link AcceptanceVerdict}), the Markdown record its ConfigMap ({@link AcceptanceMarkdown}); the
 * pod and spec are deleted. A pod that fails, is lost or passes the deadline ends the run Failed;
 * deleting the pod is what stops the probe, and the probe disconnects what it connected on its way
 * out.</li>
 * </ul>
 * The run is a measurement of one round ({@link AcceptanceRunKind}), by the {@link Lifecycle} every
 * kind shares: a finished run is harvested and never due again; its status is its record.
 */
final class AcceptancePlanner {

    /** A waiting run looks again this often (the run before it may end at any moment). */
    static final Duration WAIT_RETRY = Duration.ofSeconds(5);
    /** A pod that the cache does not show yet right after its creation is not lost. */
    static final Duration CACHE_LAG = Duration.ofSeconds(10);

    private static final Comparator<RdmaStorageAcceptance> ORDER = Comparator
            .comparing((RdmaStorageAcceptance r) -> Objects.requireNonNullElse(r.getMetadata().getCreationTimestamp(), ""))
            .thenComparing(r -> r.getMetadata().getName());

    private static final AcceptanceRunKind KIND = AcceptanceRunKind.KIND;

    private AcceptancePlanner() {
    }

    static AcceptancePlan plan(AcceptanceSnapshot snapshot, OperatorConfig config, Instant now) {
        RdmaStorageAcceptance run = snapshot.run();
        if (!Lifecycle.isDue(KIND.last(run.getStatus()), KIND.schedule(), now)) {
            // harvested: a run of one round is never due again, only its gauges come back
            return AcceptancePlan.status(null, AcceptancePlan.Step.FINISHED_BEFORE, null, null);
        }
        RdmaStorageAcceptanceStatus previous = run.getStatus() == null ? new RdmaStorageAcceptanceStatus() : run.getStatus();
        AcceptanceSpecDocument document;
        try {
            document = AcceptanceSpecDocument.of(run.getSpec(), run.getMetadata().getName());
        } catch (InvalidSpecException e) {
            // the CRD schema should have refused it; never let it reach a privileged pod
            return end(run, previous, Reasons.Acceptance.INVALID_SPEC, "invalid spec: " + e.getMessage(), now, List.of());
        }
        if (snapshot.endedMeanwhile()) {
            // this run's own end deleted its pods, and their events came before the cache saw the end
            return AcceptancePlan.NONE;
        }
        String podName = AcceptancePods.podName(run);
        Optional<Pod> pod = named(snapshot.pods(), podName);
        if (pod.isEmpty() && Reasons.Acceptance.PHASE_RUNNING.equals(previous.getPhase())) {
            // inside the cache's lag the pod may exist without being listed yet by either: not lost yet
            pod = snapshot.listedPod().or(() -> withinCacheLag(previous, now) ? Optional.of(stub(podName, null))
                    : Optional.empty());
            if (pod.isEmpty()) {
                return end(run, previous, Reasons.Acceptance.PROBE_FAILED, "the run's pod " + podName
                        + " is gone without a report (deleted, or its node was lost); create a new run", now, List.of());
            }
        }
        return pod.isPresent() ? observe(snapshot, previous, document, pod.get(), config, now)
                : start(snapshot, previous, document, config, now);
    }

    /** Deleting a run: its pods and ConfigMaps go (also where no garbage collector runs). */
    static AcceptancePlan cleanup(RdmaStorageAcceptance run, OperatorConfig config) {
        String name = run.getMetadata().getName();
        return new AcceptancePlan(null, runPods(run, config), List.of(AcceptancePods.specName(name), AcceptancePods.reportName(name)),
                List.of(), List.of(), AcceptancePlan.Step.DELETED, null, null);
    }

    /** Not started yet: wait for the node's earlier run, or create the spec and the pod. */
    private static AcceptancePlan start(AcceptanceSnapshot snapshot, RdmaStorageAcceptanceStatus previous,
                                        AcceptanceSpecDocument document, OperatorConfig config, Instant now) {
        RdmaStorageAcceptance run = snapshot.run();
        String node = run.getSpec().getNodeName();
        if (!snapshot.nodes().containsKey(node)) {
            return end(run, previous, Reasons.Acceptance.NODE_NOT_FOUND, "node " + node
                    + " does not exist; check spec.nodeName (kubectl get nodes)", now, List.of());
        }
        AcceptanceTarget target = document.target();
        Optional<String> missing = target.missingNode(snapshot.nodes());
        if (missing.isPresent()) {
            return end(run, previous, Reasons.Acceptance.NODE_NOT_FOUND, missing.get(), now, List.of());
        }
        Optional<String> outside = AdminBounds.refusal(run, document, snapshot.nodes(), snapshot.profileTargets(),
                config.acceptance());
        if (outside.isPresent()) {
            // the cluster admin's bounds, before the run waits or anything runs on the node
            return end(run, previous, Reasons.Acceptance.OUTSIDE_ADMIN_BOUNDS, outside.get(), now, List.of());
        }
        Set<String> nodes = nodes(run);
        Optional<RdmaStorageAcceptance> before = snapshot.runs().stream()
                .filter(other -> nodes(other).stream().anyMatch(nodes::contains))
                .filter(other -> !AcceptanceRunKind.finished(other.getStatus()))
                .filter(other -> other.getMetadata().getDeletionTimestamp() == null)
                .min(ORDER);
        if (before.isPresent() && !before.get().getMetadata().getName().equals(run.getMetadata().getName())) {
            RdmaStorageAcceptanceStatus status = base(run, previous, Reasons.Acceptance.PENDING);
            String waiting = "acceptance run " + before.get().getMetadata().getName() + " is measuring node "
                    + String.join(" or ", nodes(before.get()).stream().filter(nodes::contains).toList())
                    + "; this run starts when it ends (one run per node at a time)";
            status.setConditions(conditions(run, previous, Conditions.FALSE, Reasons.Acceptance.WAITING_FOR_NODE,
                    waiting, null, now));
            return AcceptancePlan.status(status, previous.getPhase() == null ? AcceptancePlan.Step.WAITING
                    : AcceptancePlan.Step.NONE, waiting, WAIT_RETRY);
        }
        Optional<String> refusal = target.refusal(snapshot);
        if (refusal.isPresent()) {
            // refused before anything runs on the node: the comparison would compare nothing
            return end(run, previous, Reasons.Acceptance.COMPARE_WITH_INVALID, refusal.get(), now, List.of());
        }
        List<Pod> creates = target.pods(run, document, snapshot.nodes(), config);
        RdmaStorageAcceptanceStatus status = base(run, previous, Reasons.Acceptance.PHASE_RUNNING);
        status.setStartTime(Timestamps.format(now));
        status.setPodName(AcceptancePods.podName(run));
        String running = "measuring " + target.measuring(run, document, snapshot.nodes()) + "; deadline " + Timestamps.format(now.plus(document.deadline()));
        status.setConditions(conditions(run, previous, Conditions.FALSE, Reasons.Acceptance.RUNNING, running, null, now));
        boolean first = !Reasons.Acceptance.PHASE_RUNNING.equals(previous.getPhase());
        return new AcceptancePlan(status, List.of(), List.of(), List.of(AcceptancePods.spec(run,
                        document.bounded(config.acceptance().forProbe(snapshot.profileTargets())), config)), creates,
                first ? AcceptancePlan.Step.STARTED : AcceptancePlan.Step.NONE,
                running + " (pod " + AcceptancePods.podName(run) + ")", document.deadline());
    }

    /** Running: harvest the pod once it ended, or end the run at its deadline. */
    private static AcceptancePlan observe(AcceptanceSnapshot snapshot, RdmaStorageAcceptanceStatus previous,
                                          AcceptanceSpecDocument document, Pod pod, OperatorConfig config, Instant now) {
        RdmaStorageAcceptance run = snapshot.run();
        ProbeOutcome outcome = ProbeOutcomeReader.of(pod, now, document.deadline());
        List<Pod> runPods = runPods(run, config);
        if (outcome instanceof ProbeOutcome.InProgress) {
            Optional<String> failed = document.target().failure(snapshot.pods(), run, previous, now, document.deadline());
            if (failed.isPresent()) {
                return end(run, previous, Reasons.Acceptance.PROBE_FAILED, failed.get(), now, runPods);
            }
        }
        if (outcome instanceof ProbeOutcome.InProgress progress) {
            RdmaStorageAcceptanceStatus status = base(run, previous, Reasons.Acceptance.PHASE_RUNNING);
            status.setStartTime(previous.getStartTime() != null ? previous.getStartTime() : Timestamps.format(now));
            status.setPodName(pod.getMetadata().getName());
            status.setConditions(conditions(run, previous, Conditions.FALSE, Reasons.Acceptance.RUNNING,
                    "measuring on " + run.getSpec().getNodeName() + " in pod " + pod.getMetadata().getName(), null, now));
            return AcceptancePlan.status(status, AcceptancePlan.Step.NONE, null, Duration.between(now, progress.timesOutAt()));
        }
        if (outcome instanceof ProbeOutcome.Finished finished) {
            Optional<AcceptanceResult> result = AcceptanceResult.parse(finished.terminationMessage());
            if (result.isEmpty()) {
                return end(run, previous, Reasons.Acceptance.PROBE_FAILED, "the pod exited " + finished.exitCode()
                        + " without a readable acceptance report: " + SafeText.quote(finished.terminationMessage(), SafeText.EXCERPT)
                        + "; see the probe image's version and the pod's log", now, runPods);
            }
            return harvest(snapshot, previous, document, result.get(), runPods, config, now);
        }
        String message;
        if (outcome instanceof ProbeOutcome.TimedOut t) {
            message = "no result after " + t.age().toSeconds() + "s (deadline " + document.deadline().toSeconds()
                    + "s); the pod was deleted, and the probe disconnects what it connected as it stops. "
                    + "Raise spec.timeoutSeconds or shorten the workloads";
        } else if (outcome instanceof ProbeOutcome.FailedToStart f) {
            message = "the pod did not start: " + f.reason() + ": " + f.message();
        } else if (outcome instanceof ProbeOutcome.Lost l) {
            message = "the pod was lost: " + l.reason() + ": " + l.message();
        } else {
            message = "unexpected pod state " + outcome;
        }
        return end(run, previous, outcome instanceof ProbeOutcome.TimedOut ? Reasons.Acceptance.TIMED_OUT
                : Reasons.Acceptance.PROBE_FAILED, message, now, runPods);
    }

    private static AcceptancePlan harvest(AcceptanceSnapshot snapshot, RdmaStorageAcceptanceStatus previous,
                                          AcceptanceSpecDocument document, AcceptanceResult result, List<Pod> runPods,
                                          OperatorConfig config, Instant now) {
        RdmaStorageAcceptance run = snapshot.run();
        double minRatio = run.getSpec().getMinLatencyRatio() == null ? 2.0 : run.getSpec().getMinLatencyRatio();
        AcceptanceTarget target = document.target();
        AcceptanceTarget.Judgement judged = target.judge(snapshot, result.transports(), minRatio);
        List<AcceptanceTransportResult> rows = judged.rows();
        AcceptanceVerdict.Judged verdict = judged.verdict();
        AcceptanceResult shown = new AcceptanceResult(result.complete(), result.message(), result.probeVersion(),
                result.fioVersion(), result.startedAt(), rows, result.disconnected());
        ConfigMap record = AcceptancePods.report(run, target.markdown(run, document, shown, verdict), config);
        boolean complete = result.complete();
        RdmaStorageAcceptanceStatus status = base(run, previous,
                complete ? Reasons.Acceptance.SUCCEEDED : Reasons.Acceptance.FAILED);
        status.setStartTime(previous.getStartTime());
        status.setPodName(previous.getPodName());
        status.setCompletionTime(Timestamps.format(now));
        status.setReport(AcceptancePods.reportName(run.getMetadata().getName()));
        status.setTransports(new ArrayList<>(rows));
        status.setRatios(verdict.ratios().orElse(null));
        status.setConditions(conditions(run, previous,
                complete ? Conditions.TRUE : Conditions.FALSE,
                complete ? Reasons.Acceptance.MEASURED : Reasons.Acceptance.INCOMPLETE,
                complete ? target.measured(result) : result.message(), verdict, now));
        return new AcceptancePlan(status, runPods, List.of(AcceptancePods.specName(run.getMetadata().getName())),
                List.of(record), List.of(), AcceptancePlan.Step.ENDED, null, null);
    }

    /**
     * The run ends Failed before any report: Complete False with the reason, RdmaEffective Unknown;
     * {@code deletes} are its pods to stop (with its spec), where it had any.
     */
    private static AcceptancePlan end(RdmaStorageAcceptance run, RdmaStorageAcceptanceStatus previous, String reason,
                                      String message, Instant now, List<Pod> deletes) {
        RdmaStorageAcceptanceStatus status = base(run, previous, Reasons.Acceptance.FAILED);
        status.setStartTime(previous.getStartTime());
        status.setPodName(previous.getPodName());
        status.setCompletionTime(Timestamps.format(now));
        status.setConditions(conditions(run, previous, Conditions.FALSE, reason, message, null, now));
        List<String> specs = deletes.isEmpty() ? List.of() : List.of(AcceptancePods.specName(run.getMetadata().getName()));
        return new AcceptancePlan(status, deletes, specs, List.of(), List.of(), AcceptancePlan.Step.ENDED, null, null);
    }

    /** The run's pods by name (its target's: the verbs target's server too), to delete. */
    private static List<Pod> runPods(RdmaStorageAcceptance run, OperatorConfig config) {
        List<String> names = AcceptanceTarget.of(run.getSpec()).map(t -> t.podNames(run))
                .orElseGet(() -> List.of(AcceptancePods.podName(run)));
        return names.stream().map(name -> stub(name, config.namespace())).toList();
    }

    /** A pod by name only: one to delete, or one that reads as in progress while the API has not shown it yet. */
    private static Pod stub(String name, String namespace) {
        return new PodBuilder().withMetadata(new ObjectMetaBuilder().withName(name).withNamespace(namespace).build()).build();
    }

    private static boolean withinCacheLag(RdmaStorageAcceptanceStatus previous, Instant now) {
        return now.isBefore(startedAt(previous, now).plus(CACHE_LAG));
    }

    /** When the run started, as its status says; {@code now} when it says nothing readable. */
    static Instant startedAt(RdmaStorageAcceptanceStatus previous, Instant now) {
        return previous.getStartTime() == null ? now : Timestamps.parse(previous.getStartTime()).orElse(now);
    }

    static Optional<Pod> named(Collection<Pod> pods, String name) {
        return pods.stream().filter(p -> name.equals(p.getMetadata().getName())).findFirst();
    }

    /** The nodes a run measures on: its node, and its target's others (the verbs target's peer). */
    static Set<String> nodes(RdmaStorageAcceptance run) {
        if (run.getSpec() == null || run.getSpec().getNodeName() == null) {
            return Set.of();
        }
        Set<String> nodes = new HashSet<>(AcceptanceTarget.of(run.getSpec()).map(AcceptanceTarget::otherNodes).orElse(Set.of()));
        nodes.add(run.getSpec().getNodeName());
        return Set.copyOf(nodes);
    }

    private static RdmaStorageAcceptanceStatus base(RdmaStorageAcceptance run, RdmaStorageAcceptanceStatus previous, String phase) {
        RdmaStorageAcceptanceStatus status = new RdmaStorageAcceptanceStatus();
        status.setObservedGeneration(run.getMetadata().getGeneration());
        status.setPhase(phase);
        status.setTarget(target(run));
        status.setTransports(previous.getTransports() == null ? new ArrayList<>() : previous.getTransports());
        return status;
    }

    /** What kubectl's TARGET column shows ({@link AcceptanceTarget#column}). */
    static String target(RdmaStorageAcceptance run) {
        return AcceptanceTarget.of(run.getSpec()).map(AcceptanceTarget::column).orElse(null);
    }

    /** Complete as given; RdmaEffective from the verdict, or Unknown while there is none. */
    private static List<Condition> conditions(RdmaStorageAcceptance run, RdmaStorageAcceptanceStatus previous,
                                              String completeStatus, String completeReason, String completeMessage,
                                              AcceptanceVerdict.Judged verdict, Instant now) {
        long generation = run.getMetadata().getGeneration() == null ? 0 : run.getMetadata().getGeneration();
        Condition complete = Conditions.of(Reasons.Acceptance.COMPLETE, completeStatus, completeReason, completeMessage,
                generation, now);
        boolean ended = completeStatus.equals(Conditions.FALSE) && !Reasons.Acceptance.RUNNING.equals(completeReason)
                && !Reasons.Acceptance.WAITING_FOR_NODE.equals(completeReason);
        Condition effective = verdict == null
                ? Conditions.of(Reasons.Acceptance.RDMA_EFFECTIVE, Conditions.UNKNOWN, Reasons.Acceptance.NO_COMPARISON,
                        "no measurement yet" + (ended ? " (the run ended " + completeReason + ")" : ""), generation, now)
                : Conditions.of(Reasons.Acceptance.RDMA_EFFECTIVE, verdict.status(), verdict.reason(), verdict.message(),
                        generation, now);
        return Conditions.merge(previous.getConditions(), List.of(complete, effective), now, generation);
    }
}
