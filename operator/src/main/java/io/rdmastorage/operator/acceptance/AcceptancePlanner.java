package io.rdmastorage.operator.acceptance;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.rdmastorage.contract.acceptance.CleanupSchema;
import io.rdmastorage.contract.spec.AcceptanceSpec;
import io.rdmastorage.contract.spec.InvalidSpecException;
import io.rdmastorage.contract.spec.ProbeSpec;
import io.rdmastorage.operator.api.AcceptanceCleanupController;
import io.rdmastorage.operator.api.AcceptancePendingCleanup;
import io.rdmastorage.operator.api.AcceptanceTransportResult;
import io.rdmastorage.operator.api.RdmaStorageAcceptance;
import io.rdmastorage.operator.api.RdmaStorageAcceptanceStatus;
import io.rdmastorage.operator.config.OperatorConfig;
import io.rdmastorage.operator.measurement.Lifecycle;
import io.rdmastorage.operator.probe.ProbeOutcome;
import io.rdmastorage.operator.probe.ProbeOutcomeReader;
import io.rdmastorage.operator.reconciler.NodeSelection;
import io.rdmastorage.operator.status.Conditions;
import io.rdmastorage.operator.status.Reasons;
import io.rdmastorage.operator.status.SafeText;
import io.rdmastorage.operator.status.Timestamps;
import io.rdmastorage.operator.verdict.NotProbed;
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
 * <li>write-ahead cleanup: a run that changes its node (NVMe-oF controllers with {@code connect: true},
 * a path run's file) records in {@code status.pendingCleanup} what it may change, in the status
 * write that says it is Running; its pod records on the node what it is about to change before it
 * changes it (node-probe's journal). A run that ends without a report from its pod (killed,
 * OOM-killed, lost, its node rebooted or NotReady, its deadline passed) keeps that record, and once
 * its pod is gone the run's cleanup pod ({@link AcceptancePods#cleanupPod}) undoes on the node what
 * the journal there says, and nothing else; the CleanedUp condition and an Event say what it did.
 * Until then the run holds its node.</li>
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
     * A run waiting for a cordoned or NotReady node, or measuring on one, looks at it again this
     * often: nodes send runs no events (a Node informer would cache every node a second time for a
     * few runs), and the pod on a node that went away changes only when the node controller evicts it.
     */
    static final Duration NODE_RETRY = Duration.ofSeconds(30);

    private static final Comparator<RdmaStorageAcceptance> ORDER = Comparator
            .comparing((RdmaStorageAcceptance r) -> Objects.requireNonNullElse(r.getMetadata().getCreationTimestamp(), ""))
            .thenComparing(r -> r.getMetadata().getName());

    private static final AcceptanceRunKind KIND = AcceptanceRunKind.KIND;

    private AcceptancePlanner() {
    }

    static AcceptancePlan plan(AcceptanceSnapshot snapshot, OperatorConfig config, Instant now) {
        RdmaStorageAcceptance run = snapshot.run();
        Set<Pod> own = own(snapshot.pods(), run);
        if (!AcceptanceDigest.matches(run) && !(AcceptanceDigest.legacyRecord(run) && own.isEmpty())) {
            // written by someone else: trust none of it; stop whatever still measures and free the node. Its
            // fields are carried over as they stand: a status patch cannot remove a field another manager
            // set, and what is stored must be what the digest covers, or the run would look edited for ever
            return end(run, run.getStatus(), Reasons.Acceptance.STATUS_EDITED,
                    "the run's status was changed by someone other than the operator (phase " + run.getStatus().getPhase()
                    + ", startTime " + run.getStatus().getStartTime() + "), so nothing it says is trusted: the run's pods "
                    + "were deleted and the node is free; create a new run", now, runPods(run, config));
        }
        if (cleanupDue(run.getStatus())) {
            return cleanUp(snapshot, own, run.getStatus(), config, now);
        }
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
        Optional<Pod> pod = named(own, podName);
        if (pod.isEmpty() && Reasons.Acceptance.PHASE_RUNNING.equals(previous.getPhase())) {
            // inside the cache's lag the pod may exist without being listed yet by either: not lost yet
            pod = snapshot.listedPod().filter(p -> AcceptancePods.ownedBy(p, run))
                    .or(() -> withinCacheLag(previous, now) ? Optional.of(stub(podName, null)) : Optional.empty());
            if (pod.isEmpty()) {
                Optional<NodeTrouble> trouble = nodeTrouble(snapshot);
                return trouble.isPresent() ? end(run, previous, trouble.get().reason(), trouble.get().message(), now, List.of())
                        : end(run, previous, Reasons.Acceptance.PROBE_FAILED, "the run's pod " + podName
                        + " is gone without a report (deleted, or its node was lost); create a new run", now, List.of());
            }
        }
        return pod.isPresent() ? observe(snapshot, own, previous, document, pod.get(), config, now)
                : start(snapshot, previous, document, config, now);
    }

    /**
     * Deleting a run. One that may have left changes on its node keeps its finalizer until they are
     * undone: its pods are stopped, its cleanup pod runs from the node's journal (and finds nothing
     * to do where the run's own pod undid everything as it stopped), and the CleanedUp condition
     * says how it went; deleting the run must not be a way to leave a node connected. A cleanup that
     * failed for good (named in its condition and Event), a node that is gone, or a status someone
     * else wrote lets it go: {@link #deleted}.
     */
    static AcceptancePlan deleting(AcceptanceSnapshot snapshot, OperatorConfig config, Instant now) {
        RdmaStorageAcceptance run = snapshot.run();
        return changesToUndo(run.getStatus()) && AcceptanceDigest.matches(run)
                ? cleanUp(snapshot, own(snapshot.pods(), run), run.getStatus(), config, now) : deleted(run, config);
    }

    /** A deleted run whose node needs nothing more: its pods and ConfigMaps go (also where no garbage collector runs). */
    static AcceptancePlan deleted(RdmaStorageAcceptance run, OperatorConfig config) {
        String name = run.getMetadata().getName();
        List<Pod> pods = new ArrayList<>(runPods(run, config));
        AcceptancePendingCleanup pending = run.getStatus() == null ? null : run.getStatus().getPendingCleanup();
        if (pending != null && pending.getPodName() != null) {
            // its cleanup pod, where one was started (what it had not undone yet stays on the node)
            pods.add(stub(pending.getPodName(), config.namespace()));
        }
        return new AcceptancePlan(null, pods, List.of(AcceptancePods.specName(name), AcceptancePods.reportName(name)),
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
        Optional<AcceptancePlan> paused = waitForNodes(snapshot, previous, now);
        if (paused.isPresent()) {
            return paused.get();
        }
        Optional<AcceptancePlan> earlier = waitForEarlierPods(snapshot, previous, config, now);
        if (earlier.isPresent()) {
            return earlier.get();
        }
        Set<String> nodes = nodes(run);
        Optional<RdmaStorageAcceptance> before = snapshot.runs().stream()
                .filter(other -> nodes(other).stream().anyMatch(nodes::contains))
                .filter(other -> holdsItsNodes(other))
                .filter(other -> other.getMetadata().getDeletionTimestamp() == null)
                .min(ORDER);
        if (before.isPresent() && !before.get().getMetadata().getName().equals(run.getMetadata().getName())) {
            RdmaStorageAcceptanceStatus status = base(run, previous, Reasons.Acceptance.PENDING);
            String waiting = "acceptance run " + before.get().getMetadata().getName() + " is measuring node "
                    + String.join(" or ", nodes(before.get()).stream().filter(nodes::contains).toList())
                    + "; this run starts when it ends (one run per node at a time)";
            status.setConditions(conditions(run, previous, Conditions.FALSE, Reasons.Acceptance.WAITING_FOR_NODE,
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
        RdmaStorageAcceptanceStatus status = base(run, previous, Reasons.Acceptance.PHASE_RUNNING);
        status.setStartTime(Timestamps.format(now));
        status.setPodName(AcceptancePods.podName(run));
        status.setPendingCleanup(intended(run, document));
        String running = "measuring " + target.measuring(run, document, snapshot.nodes()) + "; deadline " + Timestamps.format(now.plus(document.deadline()));
        status.setConditions(conditions(run, previous, Conditions.FALSE, Reasons.Acceptance.RUNNING, running, null, false, now));
        boolean first = !Reasons.Acceptance.PHASE_RUNNING.equals(previous.getPhase());
        return new AcceptancePlan(status, List.of(), List.of(), List.of(AcceptancePods.spec(run,
                        document.bounded(config.acceptance().forProbe(snapshot.profileTargets())), config)), creates,
                first ? AcceptancePlan.Step.STARTED : AcceptancePlan.Step.NONE,
                running + " (pod " + AcceptancePods.podName(run) + ")", lookAtTheNodeBy(document.deadline()));
    }

    /** Running: harvest the pod once it ended, or end the run at its deadline. */
    private static AcceptancePlan observe(AcceptanceSnapshot snapshot, Set<Pod> own, RdmaStorageAcceptanceStatus previous,
                                          AcceptanceSpecDocument document, Pod pod, OperatorConfig config, Instant now) {
        RdmaStorageAcceptance run = snapshot.run();
        ProbeOutcome outcome = ProbeOutcomeReader.of(pod, now, document.deadline());
        List<Pod> runPods = runPods(run, config);
        Optional<NodeTrouble> trouble = nodeTrouble(snapshot);
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
        if (outcome instanceof ProbeOutcome.InProgress progress) {
            RdmaStorageAcceptanceStatus status = base(run, previous, Reasons.Acceptance.PHASE_RUNNING);
            status.setStartTime(previous.getStartTime() != null ? previous.getStartTime() : Timestamps.format(now));
            status.setPodName(pod.getMetadata().getName());
            // written again should the status write that created the pod have been lost
            status.setPendingCleanup(previous.getPendingCleanup() != null ? previous.getPendingCleanup() : intended(run, document));
            status.setConditions(conditions(run, previous, Conditions.FALSE, Reasons.Acceptance.RUNNING,
                    "measuring on " + run.getSpec().getNodeName() + " in pod " + pod.getMetadata().getName(), null, false, now));
            return AcceptancePlan.status(status, AcceptancePlan.Step.NONE, null,
                    lookAtTheNodeBy(Duration.between(now, progress.timesOutAt())));
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
            message = "the pod " + f.describe();
        } else if (outcome instanceof ProbeOutcome.Lost l) {
            message = "the pod " + l.describe();
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
                result.fioVersion(), result.startedAt(), rows, result.disconnected(), result.cleanupProblems());
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
                complete ? target.measured(result) : result.message(), verdict, true, now));
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
        RdmaStorageAcceptanceStatus status = base(run, previous, Reasons.Acceptance.FAILED);
        status.setStartTime(previous.getStartTime());
        status.setPodName(previous.getPodName());
        status.setReport(previous.getReport());
        status.setCompletionTime(Timestamps.format(now));
        // no report says the pod undid its changes: what it may have changed stays recorded, for its cleanup pod
        AcceptancePendingCleanup pending = previous.getPendingCleanup();
        status.setPendingCleanup(pending);
        status.setConditions(conditions(run, previous, Conditions.FALSE, reason, message, null, true, now));
        // the cleanup pod reads the same spec ConfigMap as the run's pod: it goes when the cleanup ends
        List<String> specs = deletes.isEmpty() || pending != null ? List.of()
                : List.of(AcceptancePods.specName(run.getMetadata().getName()));
        return new AcceptancePlan(status, deletes, specs, List.of(), List.of(), AcceptancePlan.Step.ENDED, null,
                pending != null ? WAIT_RETRY : null);
    }

    /**
     * What the run may change on its node, from its spec: the controllers {@code connect: true}
     * may connect (one per transport), a path run's file; null when it changes nothing there.
     */
    static AcceptancePendingCleanup intended(RdmaStorageAcceptance run, AcceptanceSpecDocument document) {
        if (!AcceptancePods.changesNode(document)) {
            return null;
        }
        AcceptanceSpec spec = document.spec();
        AcceptancePendingCleanup pending = new AcceptancePendingCleanup();
        pending.setNodeName(run.getSpec().getNodeName());
        if (spec.path() != null) {
            pending.setFile(spec.path().file());
        } else {
            ProbeSpec.Target target = spec.nvmeof().target();
            pending.setControllers(new ArrayList<>(spec.nvmeof().transports().stream()
                    .map(t -> new AcceptanceCleanupController(t, target.nqn(), target.address(), target.port())).toList()));
        }
        return pending;
    }

    /** Whether the run ended with changes to its node not seen undone, and no cleanup has failed for good. */
    static boolean cleanupDue(RdmaStorageAcceptanceStatus status) {
        return AcceptanceRunKind.finished(status) && changesToUndo(status);
    }

    /** Whether the status records changes to its node not seen undone, and no cleanup has failed for good. */
    static boolean changesToUndo(RdmaStorageAcceptanceStatus status) {
        return status != null && status.getPendingCleanup() != null
                && !Conditions.find(status.getConditions(), Reasons.Acceptance.CLEANED_UP)
                        .map(Condition::getReason).filter(Reasons.Acceptance.CLEANUP_FAILED::equals).isPresent();
    }

    /**
     * The cleanup of a run that ended without saying it undid its changes: once its own pods are
     * gone (their hooks may still undo), the cleanup pod on its node, then what it reported into
     * the CleanedUp condition; the record in {@code pendingCleanup} goes once all of it is undone.
     */
    private static AcceptancePlan cleanUp(AcceptanceSnapshot snapshot, Set<Pod> own, RdmaStorageAcceptanceStatus previous,
                                          OperatorConfig config, Instant now) {
        RdmaStorageAcceptance run = snapshot.run();
        AcceptancePendingCleanup pending = previous.getPendingCleanup();
        String node = pending.getNodeName();
        List<String> measuring = runPods(run, config).stream().map(p -> p.getMetadata().getName()).toList();
        Optional<Pod> stillThere = own.stream().filter(p -> measuring.contains(p.getMetadata().getName())).findFirst();
        if (stillThere.isPresent()) {
            String message = "the run's pod " + stillThere.get().getMetadata().getName() + " is still being deleted; "
                    + "its cleanup on node " + node + " starts when it is gone";
            List<Pod> deletes = stillThere.get().getMetadata().getDeletionTimestamp() == null
                    ? List.of(stub(stillThere.get().getMetadata().getName(), config.namespace())) : List.of();
            return cleanupPlan(run, previous, pending, Reasons.Acceptance.CLEANUP_RUNNING, message, deletes, List.of(),
                    List.of(), WAIT_RETRY, now);
        }
        if (!snapshot.nodes().containsKey(node)) {
            return cleanupPlan(run, previous, pending, Reasons.Acceptance.CLEANUP_FAILED, "node " + node
                    + " no longer exists, so nothing the run left there can be cleaned up", List.of(), List.of(),
                    List.of(AcceptancePods.specName(run.getMetadata().getName())), null, now);
        }
        String podName = AcceptancePods.cleanupPodName(run);
        Optional<Pod> pod = named(own, podName);
        if (pod.isEmpty()) {
            Optional<NodeTrouble> trouble = nodeTrouble(snapshot);
            if (trouble.isPresent()) {
                return cleanupPlan(run, previous, pending, Reasons.Acceptance.CLEANUP_RUNNING, "node " + node
                        + " is not Ready; the run's cleanup starts there once it is (it may have rebooted)", List.of(),
                        List.of(), List.of(), NODE_RETRY, now);
            }
            AcceptanceSpecDocument document;
            try {
                document = AcceptanceSpecDocument.of(run.getSpec(), run.getMetadata().getName());
            } catch (InvalidSpecException e) {
                return cleanupPlan(run, previous, pending, Reasons.Acceptance.CLEANUP_FAILED, "invalid spec: " + e.getMessage(),
                        List.of(), List.of(), List.of(), null, now);
            }
            AcceptancePendingCleanup started = copy(pending);
            started.setPodName(podName);
            return cleanupPlan(run, previous, started, Reasons.Acceptance.CLEANUP_RUNNING, "the run ended without saying "
                    + "it undid its changes to node " + node + "; pod " + podName + " undoes what the run's journal there "
                    + "records (" + intendedText(pending) + ")", List.of(),
                    List.of(AcceptancePods.cleanupPod(run, document, config)), List.of(), AcceptancePods.CLEANUP_DEADLINE, now);
        }
        ProbeOutcome outcome = ProbeOutcomeReader.of(pod.get(), now, AcceptancePods.CLEANUP_DEADLINE);
        if (outcome instanceof ProbeOutcome.InProgress progress) {
            return AcceptancePlan.status(null, AcceptancePlan.Step.NONE, null, Duration.between(now, progress.timesOutAt()));
        }
        List<Pod> deletes = List.of(stub(podName, config.namespace()));
        List<String> specs = List.of(AcceptancePods.specName(run.getMetadata().getName()));
        String byHand = "; undo by hand what is left of: " + intendedText(pending) + " (nvme list-subsys; the journal "
                + CleanupSchema.JOURNAL_DIRECTORY + "/" + run.getMetadata().getUid() + ".json on the node names it)";
        if (outcome instanceof ProbeOutcome.Finished finished) {
            Optional<AcceptanceCleanupResult> result = AcceptanceCleanupResult.parse(finished.terminationMessage());
            if (result.isPresent() && result.get().complete()) {
                return cleanupPlan(run, previous, null, Reasons.Acceptance.CLEANED_UP, result.get().summary(), deletes,
                        List.of(), specs, null, now);
            }
            String message = result.map(r -> "the cleanup could not undo everything: " + r.summary()).orElse(
                    "the cleanup pod exited " + finished.exitCode() + " without a readable report: "
                            + SafeText.quote(finished.terminationMessage(), SafeText.EXCERPT) + byHand);
            return cleanupPlan(run, previous, pending, Reasons.Acceptance.CLEANUP_FAILED, message, deletes, List.of(), specs,
                    null, now);
        }
        String why = outcome instanceof ProbeOutcome.TimedOut t ? "gave no result after " + t.age().toSeconds() + "s"
                : outcome instanceof ProbeOutcome.FailedToStart f ? f.describe()
                : outcome instanceof ProbeOutcome.Lost l ? l.describe()
                : "is in an unexpected state " + outcome;
        return cleanupPlan(run, previous, pending, Reasons.Acceptance.CLEANUP_FAILED, "the cleanup pod " + podName + " " + why
                + byHand, deletes, List.of(), specs, null, now);
    }

    /**
     * The run's finished status as it stands, with {@code pending} and the CleanedUp condition
     * ({@code reason}: True only for CleanedUp); an Event when the condition's reason changes.
     */
    private static AcceptancePlan cleanupPlan(RdmaStorageAcceptance run, RdmaStorageAcceptanceStatus previous,
                                              AcceptancePendingCleanup pending, String reason, String message, List<Pod> deletes,
                                              List<Pod> creates, List<String> specs, Duration wakeAfter, Instant now) {
        RdmaStorageAcceptanceStatus status = base(run, previous, previous.getPhase());
        status.setStartTime(previous.getStartTime());
        status.setCompletionTime(previous.getCompletionTime());
        status.setPodName(previous.getPodName());
        status.setReport(previous.getReport());
        status.setRatios(previous.getRatios());
        status.setPendingCleanup(pending);
        long generation = run.getMetadata().getGeneration() == null ? 0 : run.getMetadata().getGeneration();
        List<Condition> next = new ArrayList<>(Conditions.byType(previous.getConditions()).values().stream()
                .filter(c -> !Reasons.Acceptance.CLEANED_UP.equals(c.getType()))
                .sorted(Comparator.comparing(Condition::getType)).toList());
        next.add(Conditions.of(Reasons.Acceptance.CLEANED_UP,
                Reasons.Acceptance.CLEANED_UP.equals(reason) ? Conditions.TRUE : Conditions.FALSE, reason, message, generation, now));
        status.setConditions(Conditions.merge(previous.getConditions(), next, now, generation));
        boolean changed = !Conditions.find(previous.getConditions(), Reasons.Acceptance.CLEANED_UP)
                .map(Condition::getReason).filter(reason::equals).isPresent();
        return new AcceptancePlan(status, deletes, specs, List.of(), creates,
                changed ? AcceptancePlan.Step.CLEANUP : AcceptancePlan.Step.NONE, null, wakeAfter);
    }

    /** What the record names, in words. */
    private static String intendedText(AcceptancePendingCleanup pending) {
        List<String> parts = new ArrayList<>();
        pending.getControllers().forEach(c -> parts.add("the " + c.getTransport() + " controller to " + c.getNqn() + " at "
                + c.getAddress() + ":" + c.getPort()));
        if (pending.getFile() != null) {
            parts.add("the file " + pending.getFile());
        }
        return String.join(", ", parts);
    }

    private static AcceptancePendingCleanup copy(AcceptancePendingCleanup pending) {
        AcceptancePendingCleanup copy = new AcceptancePendingCleanup();
        copy.setNodeName(pending.getNodeName());
        copy.setControllers(new ArrayList<>(pending.getControllers()));
        copy.setFile(pending.getFile());
        copy.setPodName(pending.getPodName());
        return copy;
    }

    /** Why the run's nodes cannot give a report now: one is gone, or NotReady. */
    record NodeTrouble(String reason, String message) {
    }

    /** When a measuring run wakes: at its deadline, or sooner to see whether its node went NotReady or away. */
    private static Duration lookAtTheNodeBy(Duration untilDeadline) {
        return untilDeadline.compareTo(NODE_RETRY) < 0 ? untilDeadline : NODE_RETRY;
    }

    private static Optional<NodeTrouble> nodeTrouble(AcceptanceSnapshot snapshot) {
        for (String node : nodes(snapshot.run()).stream().sorted().toList()) {
            Node found = snapshot.nodes().get(node);
            if (found == null) {
                return Optional.of(new NodeTrouble(Reasons.Acceptance.NODE_NOT_FOUND, "node " + node
                        + " was deleted while the run measured; its pods were deleted; create a new run on a node that exists"));
            }
            if (NodeSelection.whyNotProbeable(found).filter(NotProbed.NODE_NOT_READY::equals).isPresent()) {
                return Optional.of(new NodeTrouble(Reasons.Acceptance.NODE_NOT_READY, "node " + node
                        + " turned NotReady while the run measured, so no report can come; its pods were deleted "
                        + "(the probe disconnects what it connected once its kubelet stops it). See `kubectl describe node "
                        + node + "`, then create a new run"));
            }
        }
        return Optional.empty();
    }

    /** A run does not start on a cordoned or NotReady node (nor peer): it waits, Pending, with the node's reason. */
    private static Optional<AcceptancePlan> waitForNodes(AcceptanceSnapshot snapshot, RdmaStorageAcceptanceStatus previous,
                                                         Instant now) {
        RdmaStorageAcceptance run = snapshot.run();
        for (String node : nodes(run).stream().sorted().toList()) {
            Optional<NotProbed> why = NodeSelection.whyNotProbeable(snapshot.nodes().get(node));
            if (why.isPresent()) {
                String reason = why.get() == NotProbed.NODE_UNSCHEDULABLE ? Reasons.Acceptance.NODE_UNSCHEDULABLE
                        : Reasons.Acceptance.NODE_NOT_READY;
                String message = why.get() == NotProbed.NODE_UNSCHEDULABLE
                        ? "node " + node + " is cordoned (spec.unschedulable): the run waits, Pending, until `kubectl uncordon "
                                + node + "`; delete the run to give up"
                        : "node " + node + " is NotReady: the run waits, Pending, until it is Ready (`kubectl describe node "
                                + node + "`); delete the run to give up";
                return Optional.of(pending(run, previous, reason, message, NODE_RETRY, now));
            }
        }
        return Optional.empty();
    }

    /**
     * A pod of an earlier run of the same name (another UID) still holds this run's pod name: the
     * run waits until it is gone, deleting it where nothing else does (its run is gone, so nothing
     * else should). It is never taken for this run's own.
     */
    private static Optional<AcceptancePlan> waitForEarlierPods(AcceptanceSnapshot snapshot, RdmaStorageAcceptanceStatus previous,
                                                               OperatorConfig config, Instant now) {
        RdmaStorageAcceptance run = snapshot.run();
        List<String> names = runPods(run, config).stream().map(p -> p.getMetadata().getName()).toList();
        List<Pod> earlier = snapshot.pods().stream()
                .filter(p -> names.contains(p.getMetadata().getName()) && !AcceptancePods.ownedBy(p, run)).toList();
        if (earlier.isEmpty()) {
            return Optional.empty();
        }
        String message = "pod " + earlier.get(0).getMetadata().getName() + " belongs to an earlier run of the same name "
                + "(another UID) and is being deleted; this run starts when it is gone";
        AcceptancePlan waiting = pending(run, previous, Reasons.Acceptance.WAITING_FOR_EARLIER_POD, message, WAIT_RETRY, now);
        List<Pod> deletes = earlier.stream().filter(p -> p.getMetadata().getDeletionTimestamp() == null)
                .map(p -> stub(p.getMetadata().getName(), config.namespace())).toList();
        return Optional.of(new AcceptancePlan(waiting.status(), deletes, List.of(), List.of(), List.of(), waiting.step(),
                waiting.message(), waiting.wakeAfter()));
    }

    /** Pending, Complete False with {@code reason}: an Event the first time, then a look again after {@code retry}. */
    private static AcceptancePlan pending(RdmaStorageAcceptance run, RdmaStorageAcceptanceStatus previous, String reason,
                                          String message, Duration retry, Instant now) {
        RdmaStorageAcceptanceStatus status = base(run, previous, Reasons.Acceptance.PENDING);
        status.setConditions(conditions(run, previous, Conditions.FALSE, reason, message, null, false, now));
        return AcceptancePlan.status(status, previous.getPhase() == null ? AcceptancePlan.Step.WAITING
                : AcceptancePlan.Step.NONE, message, retry);
    }

    /**
     * Whether another run still holds its nodes: unfinished, ended with changes to its node not
     * undone yet (its cleanup pod comes first), or with a status the operator did not
     * write (it is failed, and its pods stopped, by its own next reconcile; until then it holds them).
     */
    private static boolean holdsItsNodes(RdmaStorageAcceptance other) {
        return !AcceptanceRunKind.finished(other.getStatus()) || cleanupDue(other.getStatus())
                || !AcceptanceDigest.matches(other) && !AcceptanceDigest.legacyRecord(other);
    }

    /** The run's own pods, by UID. */
    private static Set<Pod> own(Set<Pod> pods, RdmaStorageAcceptance run) {
        Set<Pod> own = new HashSet<>();
        for (Pod pod : pods) {
            if (AcceptancePods.ownedBy(pod, run)) {
                own.add(pod);
            }
        }
        return own;
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

    /** Complete as given; RdmaEffective from the verdict, or Unknown while there is none (saying so when the run {@code ended}). */
    private static List<Condition> conditions(RdmaStorageAcceptance run, RdmaStorageAcceptanceStatus previous,
                                              String completeStatus, String completeReason, String completeMessage,
                                              AcceptanceVerdict.Judged verdict, boolean ended, Instant now) {
        long generation = run.getMetadata().getGeneration() == null ? 0 : run.getMetadata().getGeneration();
        Condition complete = Conditions.of(Reasons.Acceptance.COMPLETE, completeStatus, completeReason, completeMessage,
                generation, now);
        Condition effective = verdict == null
                ? Conditions.of(Reasons.Acceptance.RDMA_EFFECTIVE, Conditions.UNKNOWN, Reasons.Acceptance.NO_COMPARISON,
                        "no measurement yet" + (ended && completeStatus.equals(Conditions.FALSE) ? " (the run ended " + completeReason + ")" : ""), generation, now)
                : Conditions.of(Reasons.Acceptance.RDMA_EFFECTIVE, verdict.status(), verdict.reason(), verdict.message(),
                        generation, now);
        return Conditions.merge(previous.getConditions(), List.of(complete, effective), now, generation);
    }
}
