package io.rdmastorage.operator.acceptance;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.Pod;
import io.rdmastorage.contract.acceptance.CleanupSchema;
import io.rdmastorage.contract.spec.InvalidSpecException;
import io.rdmastorage.contract.spec.ProbeSpec;
import io.rdmastorage.operator.api.AcceptanceCleanupController;
import io.rdmastorage.operator.api.AcceptancePendingCleanup;
import io.rdmastorage.operator.api.RdmaStorageAcceptance;
import io.rdmastorage.operator.api.RdmaStorageAcceptanceStatus;
import io.rdmastorage.operator.config.OperatorConfig;
import io.rdmastorage.operator.measurement.Lifecycle;
import io.rdmastorage.operator.probe.ProbeOutcome;
import io.rdmastorage.operator.probe.ProbeOutcomeReader;
import io.rdmastorage.operator.status.Conditions;
import io.rdmastorage.operator.status.Reasons;
import io.rdmastorage.operator.status.SafeText;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The plan step of a run's write-ahead cleanup ({@link AcceptanceCleanupKind}), pure, entered by
 * the reconciler when the cleanup is due: a run that ended without a report that it undid its
 * changes to its node (killed, OOM-killed, lost, its node rebooted or NotReady, its deadline passed)
 * keeps its record in {@code status.pendingCleanup}; once its own pods are gone (their hooks may
 * still undo), its cleanup pod ({@link AcceptancePods#cleanupPod}) undoes on the node what the
 * run's journal there says, and nothing else, inside the same admin bounds as the run; the
 * CleanedUp condition and an Event say what it did. One cleanup pod per run, one round: once the
 * condition says it ended, it is never due again. Until then the run holds its node.
 */
final class AcceptanceCleanupPlanner {

    private static final AcceptanceCleanupKind KIND = AcceptanceCleanupKind.KIND;

    private AcceptanceCleanupPlanner() {
    }

    /** The cleanup of a finished run whose cleanup is due ({@link AcceptanceCleanupKind#due}). */
    static AcceptancePlan plan(AcceptanceSnapshot snapshot, OperatorConfig config, Instant now) {
        RdmaStorageAcceptance run = snapshot.run();
        RdmaStorageAcceptanceStatus previous = run.getStatus();
        AcceptancePendingCleanup pending = previous.getPendingCleanup();
        String node = pending.getNodeName();
        Set<Pod> own = AcceptancePods.own(snapshot.pods(), run);
        List<String> measuring = AcceptancePods.measuring(run, config).stream().map(p -> p.getMetadata().getName()).toList();
        Optional<Pod> stillThere = own.stream().filter(p -> measuring.contains(p.getMetadata().getName())).findFirst();
        if (stillThere.isPresent()) {
            String message = "the run's pod " + stillThere.get().getMetadata().getName() + " is still being deleted; "
                    + "its cleanup on node " + node + " starts when it is gone";
            List<Pod> deletes = stillThere.get().getMetadata().getDeletionTimestamp() == null
                    ? List.of(AcceptancePods.stub(stillThere.get().getMetadata().getName(), config.namespace())) : List.of();
            return cleanupPlan(run, previous, pending, Reasons.Acceptance.CLEANUP_RUNNING, message, deletes, List.of(),
                    List.of(), AcceptancePlanner.WAIT_RETRY, now);
        }
        if (!snapshot.nodes().containsKey(node)) {
            return cleanupPlan(run, previous, pending, Reasons.Acceptance.CLEANUP_FAILED, "node " + node
                    + " no longer exists, so nothing the run left there can be cleaned up", List.of(), List.of(),
                    List.of(AcceptancePods.specName(run.getMetadata().getName())), null, now);
        }
        String podName = AcceptancePods.cleanupPodName(run);
        // its cleanup pods are of its one round: in flight until the round is harvested, leftovers after it
        Lifecycle.Rounds<Pod> rounds = Lifecycle.rounds(own.stream().filter(p -> podName.equals(p.getMetadata().getName()))
                .toList(), p -> AcceptanceCleanupKind.ROUND, KIND.last(previous).round());
        if (rounds.current().isEmpty()) {
            return start(snapshot, pending, podName, config, now);
        }
        return observe(run, previous, pending, rounds.current().get(0), config, now);
    }

    /** No cleanup pod yet: start one, inside the admin's bounds, once the node is Ready. */
    private static AcceptancePlan start(AcceptanceSnapshot snapshot, AcceptancePendingCleanup pending, String podName,
                                        OperatorConfig config, Instant now) {
        RdmaStorageAcceptance run = snapshot.run();
        RdmaStorageAcceptanceStatus previous = run.getStatus();
        String node = pending.getNodeName();
        if (AcceptanceNodes.lost(snapshot).isPresent()) {
            return cleanupPlan(run, previous, pending, Reasons.Acceptance.CLEANUP_RUNNING, "node " + node
                    + " is not Ready; the run's cleanup starts there once it is (it may have rebooted)", List.of(),
                    List.of(), List.of(), AcceptanceNodes.NODE_RETRY, now);
        }
        AcceptanceSpecDocument document;
        try {
            document = AcceptanceSpecDocument.of(run.getSpec(), run.getMetadata().getName());
        } catch (InvalidSpecException e) {
            return cleanupPlan(run, previous, pending, Reasons.Acceptance.CLEANUP_FAILED, "invalid spec: " + e.getMessage(),
                    List.of(), List.of(), List.of(), null, now);
        }
        // the cleanup pod is as privileged as the run's: the same bounds hold for it (its target's own
        // controllers may be disconnected even where the admin no longer lets new runs connect)
        List<ProbeSpec.Target> recorded = pending.getControllers().stream()
                .map(c -> new ProbeSpec.Target(c.getNqn(), c.getAddress(), c.getPort())).toList();
        Optional<String> outside = AdminBounds.refusal(run, document, snapshot.nodes(), recorded, config.acceptance());
        if (outside.isPresent()) {
            return cleanupPlan(run, previous, pending, Reasons.Acceptance.CLEANUP_FAILED, "no cleanup pod was started: "
                    + outside.get() + "; " + byHand(run, pending), List.of(), List.of(), List.of(), null, now);
        }
        AcceptancePendingCleanup started = copy(pending);
        started.setPodName(podName);
        return cleanupPlan(run, previous, started, Reasons.Acceptance.CLEANUP_RUNNING, "the run ended without saying "
                + "it undid its changes to node " + node + "; pod " + podName + " undoes what the run's journal there "
                + "records (" + intendedText(pending) + ")", List.of(),
                List.of(AcceptancePods.cleanupPod(run, document, config)), List.of(), AcceptancePods.CLEANUP_DEADLINE, now);
    }

    /** The cleanup pod runs: harvest its report once it ended, or end the cleanup at its deadline. */
    private static AcceptancePlan observe(RdmaStorageAcceptance run, RdmaStorageAcceptanceStatus previous,
                                          AcceptancePendingCleanup pending, Pod pod, OperatorConfig config, Instant now) {
        ProbeOutcome outcome = ProbeOutcomeReader.of(pod, now, AcceptancePods.CLEANUP_DEADLINE);
        if (outcome instanceof ProbeOutcome.InProgress progress) {
            return AcceptancePlan.status(null, AcceptancePlan.Step.NONE, null, Duration.between(now, progress.timesOutAt()));
        }
        List<Pod> deletes = List.of(AcceptancePods.stub(pod.getMetadata().getName(), config.namespace()));
        List<String> specs = List.of(AcceptancePods.specName(run.getMetadata().getName()));
        if (outcome instanceof ProbeOutcome.Finished finished) {
            Optional<AcceptanceCleanupResult> result = AcceptanceCleanupResult.parse(finished.terminationMessage());
            if (result.isPresent() && result.get().complete()) {
                return cleanupPlan(run, previous, null, Reasons.Acceptance.CLEANED_UP, result.get().summary(), deletes,
                        List.of(), specs, null, now);
            }
            String message = result.map(r -> "the cleanup could not undo everything: " + r.summary()).orElse(
                    "the cleanup pod exited " + finished.exitCode() + " without a readable report: "
                            + SafeText.quote(finished.terminationMessage(), SafeText.EXCERPT) + "; " + byHand(run, pending));
            return cleanupPlan(run, previous, pending, Reasons.Acceptance.CLEANUP_FAILED, message, deletes, List.of(), specs,
                    null, now);
        }
        return cleanupPlan(run, previous, pending, Reasons.Acceptance.CLEANUP_FAILED, "the cleanup pod "
                + pod.getMetadata().getName() + " " + outcome.describe() + "; " + byHand(run, pending), deletes, List.of(),
                specs, null, now);
    }

    /**
     * Deleting a run. One that may have left changes on its node keeps its finalizer until they are
     * undone: its pods are stopped, its cleanup pod runs from the node's journal (and finds nothing
     * to do where the run's own pod undid everything as it stopped), and the CleanedUp condition
     * says how it went; deleting the run must not be a way to leave a node connected. A cleanup that
     * ended (CleanedUp or CleanupFailed, named in its condition and Event), a node that is gone, or a
     * status someone else wrote lets it go: {@link #deleted}.
     */
    static AcceptancePlan deleting(AcceptanceSnapshot snapshot, OperatorConfig config, Instant now) {
        RdmaStorageAcceptance run = snapshot.run();
        return AcceptanceCleanupKind.changesToUndo(run) ? plan(snapshot, config, now) : deleted(run, config);
    }

    /** A deleted run whose node needs nothing more: its pods and ConfigMaps go (also where no garbage collector runs). */
    static AcceptancePlan deleted(RdmaStorageAcceptance run, OperatorConfig config) {
        String name = run.getMetadata().getName();
        List<Pod> pods = new ArrayList<>(AcceptancePods.measuring(run, config));
        AcceptancePendingCleanup pending = run.getStatus() == null ? null : run.getStatus().getPendingCleanup();
        if (pending != null && pending.getPodName() != null) {
            // its cleanup pod, where one was started (what it had not undone yet stays on the node)
            pods.add(AcceptancePods.stub(pending.getPodName(), config.namespace()));
        }
        return new AcceptancePlan(null, pods, List.of(AcceptancePods.specName(name), AcceptancePods.reportName(name)),
                List.of(), List.of(), AcceptancePlan.Step.DELETED, null, null);
    }

    /**
     * What the run may change on its node, as its target says ({@link AcceptanceTarget#changes}):
     * the controllers {@code connect: true} may connect (one per transport), a path run's file;
     * null when it changes nothing there.
     */
    static AcceptancePendingCleanup intended(RdmaStorageAcceptance run, AcceptanceSpecDocument document) {
        return document.target().changes(document).map(changes -> {
            changes.setNodeName(run.getSpec().getNodeName());
            return changes;
        }).orElse(null);
    }

    /**
     * The run's finished status as it stands, with {@code pending} and the CleanedUp condition
     * ({@code reason}: True only for CleanedUp); an Event when the condition's reason changes.
     */
    private static AcceptancePlan cleanupPlan(RdmaStorageAcceptance run, RdmaStorageAcceptanceStatus previous,
                                              AcceptancePendingCleanup pending, String reason, String message, List<Pod> deletes,
                                              List<Pod> creates, List<String> specs, Duration wakeAfter, Instant now) {
        RdmaStorageAcceptanceStatus status = AcceptanceStatuses.carriedOver(run, previous);
        status.setPendingCleanup(pending);
        long generation = AcceptanceStatuses.generation(run);
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

    /** What to undo by hand when no cleanup pod will: what the record names, and where the journal is. */
    private static String byHand(RdmaStorageAcceptance run, AcceptancePendingCleanup pending) {
        return "undo by hand what is left of: " + intendedText(pending) + " (nvme list-subsys; the journal "
                + CleanupSchema.JOURNAL_DIRECTORY + "/" + run.getMetadata().getUid() + ".json on the node names it)";
    }

    /** What the record names, in words. */
    static String intendedText(AcceptancePendingCleanup pending) {
        List<String> parts = new ArrayList<>();
        pending.getControllers().forEach(c -> parts.add(describe(c)));
        if (pending.getFile() != null) {
            parts.add("the file " + pending.getFile());
        }
        return String.join(", ", parts);
    }

    private static String describe(AcceptanceCleanupController c) {
        return "the " + c.getTransport() + " controller to " + c.getNqn() + " at " + c.getAddress() + ":" + c.getPort();
    }

    private static AcceptancePendingCleanup copy(AcceptancePendingCleanup pending) {
        AcceptancePendingCleanup copy = new AcceptancePendingCleanup();
        copy.setNodeName(pending.getNodeName());
        copy.setControllers(new ArrayList<>(pending.getControllers()));
        copy.setFile(pending.getFile());
        copy.setPodName(pending.getPodName());
        return copy;
    }
}
