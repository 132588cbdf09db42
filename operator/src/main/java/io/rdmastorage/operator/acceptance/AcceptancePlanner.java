package io.rdmastorage.operator.acceptance;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Pod;
import io.rdmastorage.contract.spec.InvalidSpecException;
import io.rdmastorage.operator.api.AcceptancePendingCleanup;
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
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The plan step of an acceptance run, pure: from an {@link AcceptanceSnapshot}, the operator's
 * configuration and the clock, the one {@link AcceptancePlan} of this reconcile. It carries a run
 * through Pending → Running → Succeeded or Failed, like a Job:
 * <ul>
 * <li>at most one run per node at a time ({@link AcceptanceNodes}): of the runs that may start on a
 * node, the oldest (then by name) measures and the others wait, Pending {@code WaitingForNode}; a
 * run whose nodes are cordoned or NotReady waits holding nothing, and ends Failed when it has not
 * started within {@link #START_DEADLINE} of its creation;</li>
 * <li>Running: the run's spec ConfigMap and pod exist ({@link AcceptancePods}); the pod reports
 * through its termination message; a pod that has not started within {@link #START_DEADLINE}
 * ends the run {@code PodNotStarted}, saying why;</li>
 * <li>the end: the report becomes the status table, the ratios and RdmaEffective
 * ({@link RdmaEffectiveness}), the Markdown record its ConfigMap ({@link AcceptanceMarkdown}); the
 * pod and spec are deleted. A pod that fails, is lost or passes the deadline ends the run Failed;
 * deleting the pod is what stops the probe, and the probe disconnects what it connected on its way
 * out.</li>
 * <li>a run that changes its node records in {@code status.pendingCleanup} what it may change, in
 * the status write that says it is Running ({@link AcceptanceTarget#changes}); what a run that
 * ended without a report left there is its cleanup's, a kind of its own
 * ({@link AcceptanceCleanupPlanner}), which the reconciler enters when it is due.</li>
 * <li>a status the operator did not write ({@link AcceptanceDigest}) ends the run
 * {@code StatusEdited}: its pods are stopped, and nothing is done on its node for it.</li>
 * </ul>
 * The run is a measurement of one round ({@link AcceptanceRunKind}), by the {@link Lifecycle} every
 * kind shares: a finished run is harvested and never due again; its status is its record.
 */
final class AcceptancePlanner {

    /** A waiting run looks again this often (the run before it may end at any moment). */
    static final Duration WAIT_RETRY = Duration.ofSeconds(5);
    /** A pod that the cache does not show yet right after its creation is not lost. */
    static final Duration CACHE_LAG = Duration.ofSeconds(10);
    /**
     * How long a run may take to start: a run whose nodes stay cordoned or NotReady this long after
     * its creation, or whose pod has not started this long after the run did (not placed, an image
     * that does not come), ends Failed saying why, rather than holding its node until its deadline.
     */
    static final Duration START_DEADLINE = Duration.ofMinutes(15);

    private static final AcceptanceRunKind KIND = AcceptanceRunKind.KIND;

    private AcceptancePlanner() {
    }

    static AcceptancePlan plan(AcceptanceSnapshot snapshot, OperatorConfig config, Instant now) {
        RdmaStorageAcceptance run = snapshot.run();
        Set<Pod> own = AcceptancePods.own(snapshot.pods(), run);
        if (!AcceptanceDigest.matches(run) && !(AcceptanceDigest.legacyRecord(run) && own.isEmpty())) {
            return edited(run, config, now);
        }
        Lifecycle.Last last = KIND.last(run.getStatus());
        if (!Lifecycle.isDue(last, KIND.schedule(), now)) {
            // harvested: a run of one round is never due again, only its gauges come back, and pods of its
            // round still there are leftovers (an operator restart between the status write and the delete)
            List<Pod> leftovers = Lifecycle.rounds(List.copyOf(own), p -> AcceptanceRunKind.ROUND, last.round()).leftovers()
                    .stream().filter(p -> p.getMetadata().getDeletionTimestamp() == null)
                    .map(p -> AcceptancePods.stub(p.getMetadata().getName(), config.namespace())).toList();
            return new AcceptancePlan(null, leftovers, List.of(), List.of(), List.of(), AcceptancePlan.Step.FINISHED_BEFORE,
                    null, null);
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
        Optional<Pod> pod = AcceptancePods.named(own, podName);
        if (pod.isEmpty() && Reasons.Acceptance.PHASE_RUNNING.equals(previous.getPhase())) {
            // inside the cache's lag the pod may exist without being listed yet by either: not lost yet
            pod = snapshot.listedPod().filter(p -> AcceptancePods.ownedBy(p, run))
                    .or(() -> withinCacheLag(previous, now) ? Optional.of(AcceptancePods.stub(podName, null)) : Optional.empty());
            if (pod.isEmpty()) {
                Optional<AcceptanceNodes.Trouble> trouble = AcceptanceNodes.lost(snapshot);
                return trouble.isPresent() ? end(run, previous, trouble.get().reason(), trouble.get().message(), now, List.of())
                        : end(run, previous, Reasons.Acceptance.PROBE_FAILED, "the run's pod " + podName
                        + " is gone without a report (deleted, or its node was lost); create a new run", now, List.of());
            }
        }
        return pod.isPresent() ? observe(snapshot, own, previous, document, pod.get(), config, now)
                : start(snapshot, previous, document, config, now);
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
        Optional<AcceptanceNodes.Trouble> paused = AcceptanceNodes.notMeasurable(snapshot);
        if (paused.isPresent()) {
            return cannotStart(run, previous, paused.get(), now);
        }
        Optional<AcceptancePlan> earlier = waitForEarlierPods(snapshot, previous, config, now);
        if (earlier.isPresent()) {
            return earlier.get();
        }
        if (wasKeptFromStarting(previous)) {
            // its nodes are measurable again: queue first (a status other runs see as holding), start next
            return pending(run, previous, Reasons.Acceptance.WAITING_FOR_NODE, "the run's nodes are measurable again; "
                    + "it starts on its next look unless an earlier run measures there", WAIT_RETRY, now);
        }
        Set<String> nodes = AcceptanceNodes.of(run);
        Optional<RdmaStorageAcceptance> before = AcceptanceNodes.measuringBefore(snapshot);
        if (before.isPresent()) {
            RdmaStorageAcceptanceStatus status = AcceptanceStatuses.base(run, previous, Reasons.Acceptance.PENDING);
            String waiting = "acceptance run " + before.get().getMetadata().getName() + " is measuring node "
                    + String.join(" or ", AcceptanceNodes.of(before.get()).stream().filter(nodes::contains).sorted().toList())
                    + "; this run starts when it ends (one run per node at a time)";
            status.setConditions(AcceptanceStatuses.conditions(run, previous, Conditions.FALSE, Reasons.Acceptance.WAITING_FOR_NODE,
                    waiting, null, false, now));
            return AcceptancePlan.status(status, previous.getPhase() == null ? AcceptancePlan.Step.WAITING
                    : AcceptancePlan.Step.NONE, waiting, WAIT_RETRY);
        }
        Optional<String> refusal = target.refusal(snapshot);
        if (refusal.isPresent()) {
            // refused before anything runs on the node: the comparison would compare nothing
            return end(run, previous, Reasons.Acceptance.COMPARE_WITH_INVALID, refusal.get(), now, List.of());
        }
        List<Pod> creates = target.pods(run, document, snapshot.nodes(), config);
        RdmaStorageAcceptanceStatus status = AcceptanceStatuses.base(run, previous, Reasons.Acceptance.PHASE_RUNNING);
        status.setStartTime(Timestamps.format(now));
        status.setPodName(AcceptancePods.podName(run));
        status.setPendingCleanup(AcceptanceCleanupPlanner.intended(run, document));
        String running = "measuring " + target.measuring(run, document, snapshot.nodes()) + "; deadline " + Timestamps.format(now.plus(document.deadline()));
        status.setConditions(AcceptanceStatuses.conditions(run, previous, Conditions.FALSE, Reasons.Acceptance.RUNNING, running,
                null, false, now));
        boolean first = !Reasons.Acceptance.PHASE_RUNNING.equals(previous.getPhase());
        return new AcceptancePlan(status, List.of(), List.of(), List.of(AcceptancePods.spec(run,
                        document.bounded(config.acceptance().forProbe(snapshot.profileTargets())), config)), creates,
                first ? AcceptancePlan.Step.STARTED : AcceptancePlan.Step.NONE,
                running + " (pod " + AcceptancePods.podName(run) + ")", AcceptanceNodes.lookAtTheNodeBy(document.deadline()));
    }

    /** Running: harvest the pod once it ended, or end the run at its deadline. */
    private static AcceptancePlan observe(AcceptanceSnapshot snapshot, Set<Pod> own, RdmaStorageAcceptanceStatus previous,
                                          AcceptanceSpecDocument document, Pod pod, OperatorConfig config, Instant now) {
        RdmaStorageAcceptance run = snapshot.run();
        ProbeOutcome outcome = ProbeOutcomeReader.of(pod, now, document.deadline());
        List<Pod> runPods = AcceptancePods.measuring(run, config);
        Optional<AcceptanceNodes.Trouble> trouble = AcceptanceNodes.lost(snapshot);
        if (trouble.isPresent() && !(outcome instanceof ProbeOutcome.Finished)) {
            // no report will come from a node that is gone or NotReady: say so now, not at the deadline
            return end(run, previous, trouble.get().reason(), trouble.get().message(), now, runPods);
        }
        if (outcome instanceof ProbeOutcome.InProgress) {
            Optional<String> failed = document.target().failure(own, run, previous, now, document.deadline());
            if (failed.isPresent()) {
                return end(run, previous, Reasons.Acceptance.PROBE_FAILED, failed.get(), now, runPods);
            }
        }
        Optional<String> notStarted = outcome instanceof ProbeOutcome.InProgress ? ProbeOutcomeReader.notStarted(pod)
                : Optional.empty();
        if (notStarted.isPresent() && !now.isBefore(AcceptanceStatuses.startedAt(previous, now).plus(START_DEADLINE))) {
            // a pod that cannot be placed (its node or peer cordoned since, full) would hold the node to the deadline
            return end(run, previous, Reasons.Acceptance.POD_NOT_STARTED, "the pod " + pod.getMetadata().getName()
                    + " did not start within " + START_DEADLINE.toMinutes() + " minutes: " + notStarted.get()
                    + "; it was deleted. Fix what keeps it from starting, then create a new run", now, runPods);
        }
        if (outcome instanceof ProbeOutcome.InProgress progress) {
            RdmaStorageAcceptanceStatus status = AcceptanceStatuses.base(run, previous, Reasons.Acceptance.PHASE_RUNNING);
            status.setStartTime(previous.getStartTime() != null ? previous.getStartTime() : Timestamps.format(now));
            status.setPodName(pod.getMetadata().getName());
            // written again should the status write that created the pod have been lost
            status.setPendingCleanup(previous.getPendingCleanup() != null ? previous.getPendingCleanup()
                    : AcceptanceCleanupPlanner.intended(run, document));
            String measuring = notStarted.map(why -> "the pod " + pod.getMetadata().getName() + " has not started yet ("
                    + why + "); the run fails if it has not within " + START_DEADLINE.toMinutes() + " minutes of its start")
                    .orElse("measuring on " + run.getSpec().getNodeName() + " in pod " + pod.getMetadata().getName());
            status.setConditions(AcceptanceStatuses.conditions(run, previous, Conditions.FALSE, Reasons.Acceptance.RUNNING,
                    measuring, null, false, now));
            return AcceptancePlan.status(status, AcceptancePlan.Step.NONE, null,
                    AcceptanceNodes.lookAtTheNodeBy(Duration.between(now, progress.timesOutAt())));
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
        String message = "the pod " + outcome.describe();
        if (outcome instanceof ProbeOutcome.TimedOut t) {
            // only a pod that measured can be helped by a longer deadline
            message += " (deadline " + document.deadline().toSeconds() + "s); the pod was deleted, and the probe disconnects "
                    + "what it connected as it stops. " + (t.notStarted().isPresent()
                    ? "Fix what keeps the pod from starting, then create a new run" : "Raise spec.timeoutSeconds or shorten the workloads");
        }
        return end(run, previous, outcome instanceof ProbeOutcome.TimedOut t && t.notStarted().isEmpty()
                ? Reasons.Acceptance.TIMED_OUT : outcome instanceof ProbeOutcome.TimedOut ? Reasons.Acceptance.POD_NOT_STARTED
                : Reasons.Acceptance.PROBE_FAILED, message, now, runPods);
    }

    private static AcceptancePlan harvest(AcceptanceSnapshot snapshot, RdmaStorageAcceptanceStatus previous,
                                          AcceptanceSpecDocument document, AcceptanceResult result, List<Pod> runPods,
                                          OperatorConfig config, Instant now) {
        RdmaStorageAcceptance run = snapshot.run();
        double minRatio = run.getSpec().getMinLatencyRatio() == null ? 2.0 : run.getSpec().getMinLatencyRatio();
        AcceptanceTarget target = document.target();
        AcceptanceTarget.Table table = target.judge(snapshot, result.transports(), minRatio);
        List<AcceptanceTransportResult> rows = table.rows();
        RdmaEffectiveness.Ruling ruling = table.ruling();
        AcceptanceResult shown = new AcceptanceResult(result.complete(), result.message(), result.probeVersion(),
                result.fioVersion(), result.startedAt(), rows, result.disconnected(), result.cleanupProblems());
        ConfigMap record = AcceptancePods.report(run, target.markdown(run, document, shown, ruling), config);
        boolean complete = result.complete();
        RdmaStorageAcceptanceStatus status = AcceptanceStatuses.base(run, previous,
                complete ? Reasons.Acceptance.SUCCEEDED : Reasons.Acceptance.FAILED);
        status.setStartTime(previous.getStartTime());
        status.setPodName(previous.getPodName());
        status.setCompletionTime(Timestamps.format(now));
        status.setReport(AcceptancePods.reportName(run.getMetadata().getName()));
        status.setTransports(new ArrayList<>(rows));
        status.setRatios(ruling.ratios().orElse(null));
        status.setConditions(AcceptanceStatuses.conditions(run, previous,
                complete ? Conditions.TRUE : Conditions.FALSE,
                complete ? Reasons.Acceptance.MEASURED : Reasons.Acceptance.INCOMPLETE,
                complete ? target.measured(result) : result.message(), ruling, true, now));
        if (!result.cleanupProblems().isEmpty()) {
            // the pod could not undo all it changed: the record stays, and its cleanup pod (which
            // reads the same spec) tries again from the node's journal
            status.setPendingCleanup(previous.getPendingCleanup());
        }
        List<String> specs = status.getPendingCleanup() != null ? List.of()
                : List.of(AcceptancePods.specName(run.getMetadata().getName()));
        return new AcceptancePlan(status, runPods, specs, List.of(record), List.of(), AcceptancePlan.Step.ENDED, null,
                status.getPendingCleanup() != null ? WAIT_RETRY : null);
    }

    /**
     * The run ends Failed before any report: Complete False with the reason, RdmaEffective Unknown;
     * {@code deletes} are its pods to stop (with its spec), where it had any.
     */
    private static AcceptancePlan end(RdmaStorageAcceptance run, RdmaStorageAcceptanceStatus previous, String reason,
                                      String message, Instant now, List<Pod> deletes) {
        RdmaStorageAcceptanceStatus status = AcceptanceStatuses.base(run, previous, Reasons.Acceptance.FAILED);
        status.setStartTime(previous.getStartTime());
        status.setPodName(previous.getPodName());
        status.setReport(previous.getReport());
        status.setCompletionTime(Timestamps.format(now));
        // no report says the pod undid its changes: what it may have changed stays recorded, for its cleanup pod
        AcceptancePendingCleanup pending = previous.getPendingCleanup();
        status.setPendingCleanup(pending);
        status.setConditions(AcceptanceStatuses.conditions(run, previous, Conditions.FALSE, reason, message, null, true, now));
        // the cleanup pod reads the same spec ConfigMap as the run's pod: it goes when the cleanup ends
        List<String> specs = deletes.isEmpty() || pending != null ? List.of()
                : List.of(AcceptancePods.specName(run.getMetadata().getName()));
        return new AcceptancePlan(status, deletes, specs, List.of(), List.of(), AcceptancePlan.Step.ENDED, null,
                pending != null ? WAIT_RETRY : null);
    }

    /**
     * A pod of an earlier run of the same name (another UID) still holds this run's pod name: the
     * run waits until it is gone, deleting it where nothing else does (its run is gone, so nothing
     * else should). It is never taken for this run's own.
     */
    private static Optional<AcceptancePlan> waitForEarlierPods(AcceptanceSnapshot snapshot, RdmaStorageAcceptanceStatus previous,
                                                               OperatorConfig config, Instant now) {
        RdmaStorageAcceptance run = snapshot.run();
        List<String> names = AcceptancePods.measuring(run, config).stream().map(p -> p.getMetadata().getName()).toList();
        List<Pod> earlier = snapshot.pods().stream()
                .filter(p -> names.contains(p.getMetadata().getName()) && !AcceptancePods.ownedBy(p, run)).toList();
        if (earlier.isEmpty()) {
            return Optional.empty();
        }
        String message = "pod " + earlier.get(0).getMetadata().getName() + " belongs to an earlier run of the same name "
                + "(another UID) and is being deleted; this run starts when it is gone";
        AcceptancePlan waiting = pending(run, previous, Reasons.Acceptance.WAITING_FOR_EARLIER_POD, message, WAIT_RETRY, now);
        List<Pod> deletes = earlier.stream().filter(p -> p.getMetadata().getDeletionTimestamp() == null)
                .map(p -> AcceptancePods.stub(p.getMetadata().getName(), config.namespace())).toList();
        return Optional.of(new AcceptancePlan(waiting.status(), deletes, List.of(), List.of(), List.of(), waiting.step(),
                waiting.message(), waiting.wakeAfter()));
    }

    /** Pending, Complete False with {@code reason}: an Event the first time, then a look again after {@code retry}. */
    private static AcceptancePlan pending(RdmaStorageAcceptance run, RdmaStorageAcceptanceStatus previous, String reason,
                                          String message, Duration retry, Instant now) {
        RdmaStorageAcceptanceStatus status = AcceptanceStatuses.base(run, previous, Reasons.Acceptance.PENDING);
        status.setConditions(AcceptanceStatuses.conditions(run, previous, Conditions.FALSE, reason, message, null, false, now));
        return AcceptancePlan.status(status, previous.getPhase() == null ? AcceptancePlan.Step.WAITING
                : AcceptancePlan.Step.NONE, message, retry);
    }

    private static boolean withinCacheLag(RdmaStorageAcceptanceStatus previous, Instant now) {
        return now.isBefore(AcceptanceStatuses.startedAt(previous, now).plus(CACHE_LAG));
    }

    /**
     * Written by someone else: trust none of it. Whatever still measures is stopped and the node
     * freed, and nothing is done on the node for it: its record of changes to undo may be the edit
     * itself. Its fields are carried over as they stand: a status patch cannot remove a field
     * another manager set, and what is stored must be what the digest covers, or the run would look
     * edited for ever.
     */
    private static AcceptancePlan edited(RdmaStorageAcceptance run, OperatorConfig config, Instant now) {
        RdmaStorageAcceptanceStatus previous = run.getStatus();
        AcceptancePendingCleanup pending = previous.getPendingCleanup();
        String left = pending == null ? "" : "; no cleanup pod runs for it, as its record of changes to node "
                + pending.getNodeName() + " may be the edit itself: check there by hand for "
                + AcceptanceCleanupPlanner.intendedText(pending);
        AcceptancePlan ended = end(run, previous, Reasons.Acceptance.STATUS_EDITED, "the run's status was changed by someone "
                + "other than the operator (phase " + previous.getPhase() + ", startTime " + previous.getStartTime()
                + "), so nothing it says is trusted: the run's pods were deleted and the node is free" + left
                + "; create a new run", now, AcceptancePods.measuring(run, config));
        return new AcceptancePlan(ended.status(), ended.deletes(), List.of(AcceptancePods.specName(run.getMetadata().getName())),
                List.of(), List.of(), AcceptancePlan.Step.ENDED, null, null);
    }

    /**
     * The run's nodes keep it from starting (cordoned, NotReady): it waits, Pending and holding
     * nothing, until {@link #START_DEADLINE} after its creation, and then ends Failed with the node's reason.
     */
    private static AcceptancePlan cannotStart(RdmaStorageAcceptance run, RdmaStorageAcceptanceStatus previous,
                                              AcceptanceNodes.Trouble trouble, Instant now) {
        Instant created = Timestamps.parse(run.getMetadata().getCreationTimestamp()).orElse(now);
        if (!now.isBefore(created.plus(START_DEADLINE))) {
            return end(run, previous, trouble.reason(), "the run could not start within " + START_DEADLINE.toMinutes()
                    + " minutes of its creation: " + trouble.message() + "; create a new run once the node can be measured",
                    now, List.of());
        }
        return pending(run, previous, trouble.reason(), trouble.message() + ": the run waits, Pending, for up to "
                + START_DEADLINE.toMinutes() + " minutes from its creation; delete the run to give up",
                AcceptanceNodes.NODE_RETRY, now);
    }

    /** Whether the run's last look found its nodes not measurable: it held nothing then, and must queue before it starts. */
    private static boolean wasKeptFromStarting(RdmaStorageAcceptanceStatus previous) {
        String reason = AcceptanceStatuses.completeReason(previous);
        return Reasons.Acceptance.PENDING.equals(previous.getPhase()) && (Reasons.Acceptance.NODE_UNSCHEDULABLE.equals(reason)
                || Reasons.Acceptance.NODE_NOT_READY.equals(reason));
    }
}
