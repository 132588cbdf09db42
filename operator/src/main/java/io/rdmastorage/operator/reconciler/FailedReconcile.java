package io.rdmastorage.operator.reconciler;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.rdmastorage.operator.api.RdmaStorageNode;
import io.rdmastorage.operator.api.RdmaStorageNodeStatus;
import io.rdmastorage.operator.api.RdmaStorageProfile;
import io.rdmastorage.operator.api.RdmaStorageProfileSpec;
import io.rdmastorage.operator.api.RdmaStorageProfileStatus;
import io.rdmastorage.operator.config.ProfileSettings;
import io.rdmastorage.operator.latency.PairProbeKind;
import io.rdmastorage.operator.measurement.Lifecycle;
import io.rdmastorage.operator.status.Conditions;
import io.rdmastorage.operator.status.Reasons;
import io.rdmastorage.operator.status.SafeText;
import io.rdmastorage.operator.verdict.CheckTypes;
import io.rdmastorage.operator.verdict.NodeVerdicts;
import io.rdmastorage.operator.verdict.VerdictDigest;
import io.rdmastorage.operator.verdict.VerdictKind;
import io.rdmastorage.operator.verdict.VerdictPart;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What is still done when a reconcile fails (JOSDK's {@code updateErrorStatus}), so that no failure
 * can freeze a verdict: the profile's Ready says the reconcile fails and why (Unknown
 * {@link Reasons#RECONCILE_FAILING}), and the verdicts whose result has passed its expiry are
 * written as expired, each kind's part by its own result ({@link VerdictKind#expire},
 * {@link Lifecycle#toExpire}), with the node markings following them; a verdict someone else edited
 * is replaced ({@link NodeVerdicts#edited}). This path reads only the cached verdicts and nodes and
 * the spec's interval, so it works when planning, the probe spec or pod creation does not.
 */
final class FailedReconcile {

    private static final Logger LOG = LoggerFactory.getLogger(FailedReconcile.class);
    /** How much of the error a condition quotes. */
    static final int MESSAGE_EXCERPT = 512;

    private FailedReconcile() {
    }

    /**
     * The profile's status after a failed reconcile: the last aggregate kept (nodes, the other
     * conditions, observedGeneration: this generation was not observed), Ready Unknown
     * ReconcileFailing naming the error, first.
     */
    static RdmaStorageProfileStatus status(RdmaStorageProfile profile, Exception error, Instant now) {
        return failing(profile, describe(error), now);
    }

    /** As {@link #status(RdmaStorageProfile, Exception, Instant)}, for a failure put in words (quoted here). */
    static RdmaStorageProfileStatus status(RdmaStorageProfile profile, String why, Instant now) {
        return failing(profile, SafeText.quote(why, MESSAGE_EXCERPT), now);
    }

    private static RdmaStorageProfileStatus failing(RdmaStorageProfile profile, String quotedWhy, Instant now) {
        long generation = profile.getMetadata().getGeneration() == null ? 0 : profile.getMetadata().getGeneration();
        RdmaStorageProfileStatus previous = profile.getStatus();
        RdmaStorageProfileStatus status = new RdmaStorageProfileStatus();
        status.setObservedGeneration(previous == null ? null : previous.getObservedGeneration());
        status.setNodes(previous == null ? null : previous.getNodes());
        List<Condition> before = previous == null || previous.getConditions() == null ? List.of()
                : previous.getConditions();
        Condition ready = Conditions.merge(before, List.of(Conditions.of(CheckTypes.READY, Conditions.UNKNOWN,
                Reasons.RECONCILE_FAILING, "the operator cannot reconcile this profile: " + quotedWhy
                        + "; verdicts past their expiry turn Unknown ResultExpired meanwhile", generation, now)),
                now, generation).get(0);
        // Ready says what holds now; the other conditions stay as the last aggregate left them
        List<Condition> conditions = new ArrayList<>(List.of(ready));
        before.stream().filter(c -> !CheckTypes.READY.equals(c.getType())).forEach(conditions::add);
        status.setConditions(conditions);
        return status;
    }

    /**
     * The CRD rules that the stored spec breaks ({@link NodeSelection#problems}): rules the CRD
     * gained after the profile was stored, since the API server refuses a new object that breaks
     * them. Empty when there are none.
     */
    static List<String> brokenRules(RdmaStorageProfileSpec spec) {
        if (spec == null) {
            return List.of();
        }
        List<String> broken = new ArrayList<>(NodeSelection.problems(spec.getNodeSelector(), "spec.nodeSelector"));
        if (spec.getLatency() != null) {
            broken.addAll(NodeSelection.problems(spec.getLatency().getReferenceNodeSelector(),
                    "spec.latency.referenceNodeSelector"));
        }
        durationProblem(spec.getInterval(), "spec.interval").ifPresent(broken::add);
        durationProblem(spec.getProbeTimeout(), "spec.probeTimeout").ifPresent(broken::add);
        return broken;
    }

    /** A duration the CRD's pattern refuses now (the whole message is quoted and bounded where it is written). */
    private static Optional<String> durationProblem(String value, String field) {
        return value == null || value.matches(RdmaStorageProfileSpec.DURATION_PATTERN) ? Optional.empty()
                : Optional.of(field + ": Invalid value '" + value + "': should match '" + RdmaStorageProfileSpec.DURATION_PATTERN + "'");
    }

    /** What the profile's Ready says of {@link #brokenRules}: which field breaks which rule, and that an edit fixes it. */
    static String brokenRulesMessage(List<String> broken) {
        return "its spec breaks rules of the CRD that it was stored before: " + String.join("; ", broken)
                + " (fix the profile: nothing is probed until then)";
    }

    /**
     * What went wrong, quoted (an API server's answer may hold anything): the innermost cause, and
     * for a refusal of the API server its code and message, which name the field it refused.
     */
    static String describe(Throwable error) {
        Throwable root = rootCause(error);
        String text;
        if (root instanceof KubernetesClientException k && k.getStatus() != null && k.getStatus().getMessage() != null) {
            text = "the API server answered " + k.getCode() + " " + k.getStatus().getReason() + ": "
                    + k.getStatus().getMessage();
        } else {
            text = root.getClass().getSimpleName() + ": " + root.getMessage();
        }
        return SafeText.quote(text, MESSAGE_EXCERPT);
    }

    /** Whether the reconcile was interrupted (the operator stopping), which is no failure of the profile. */
    static boolean interrupted(Throwable error) {
        for (Throwable t = error; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof InterruptedException) {
                return true;
            }
        }
        return false;
    }

    private static Throwable rootCause(Throwable error) {
        Throwable root = error;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root;
    }

    /**
     * What a failed reconcile writes for the profile's verdicts, carried out by the same
     * {@link PlanExecutor} as a reconcile's plan, each node's change by itself.
     *
     * @param settings the spec's settings, for the markings
     * @param changes  one change per verdict whose result is due to expire or that someone else
     *                 edited: its write, and its node's markings brought in line
     * @param wakeAt   the earliest expiry still to come, to wake for
     */
    record Expiry(ProfileSettings settings, List<ProfilePlan.NodeChange> changes, Optional<Instant> wakeAt) {
    }

    /**
     * Pure: every verdict of the profile whose result is due to expire is written as expired, every
     * one someone else edited is replaced, and its node's markings follow; a verdict whose upkeep
     * cannot be worked out does not stop the others.
     *
     * @param nodes the cached nodes by name, for the markings
     */
    static Expiry expireStale(RdmaStorageProfile profile, Collection<RdmaStorageNode> verdicts, Map<String, Node> nodes,
                              Instant now) {
        ProfileSettings settings = settings(profile.getSpec());
        String profileName = profile.getMetadata().getName();
        List<ProfilePlan.NodeChange> changes = new ArrayList<>();
        Instant wakeAt = null;
        for (RdmaStorageNode verdict : verdicts) {
            if (verdict.getStatus() == null || verdict.getSpec() == null) {
                continue;
            }
            String nodeName = verdict.getSpec().getNodeName();
            try {
                Upkeep upkeep = upkeep(verdict, profile.getSpec(), settings, now);
                wakeAt = Lifecycle.earliest(wakeAt, upkeep.wakeAt());
                if (upkeep.write() == null) {
                    continue;
                }
                ProfilePlan.VerdictWrite write = new ProfilePlan.VerdictWrite(upkeep.discard() ? null : verdict.getStatus(),
                        upkeep.write(), List.of(), false);
                changes.add(new ProfilePlan.NodeChange(nodeName, verdict, List.of(), List.of(write), List.of(), false,
                        upkeep.discard(), ProfilePlan.Marking.following(settings, profileName, nodes.get(nodeName),
                        upkeep.write(), now)));
                LOG.info("profile {}: the verdict of node {} {} while reconciles fail", profileName, nodeName,
                        upkeep.discard() ? "was edited by someone else and is replaced" : "expired");
            } catch (RuntimeException e) {
                LOG.warn("profile {}: cannot work out the expiry of node {}'s verdict: {}", profileName, nodeName,
                        e.toString());
            }
        }
        return new Expiry(settings, changes, Optional.ofNullable(wakeAt));
    }

    /**
     * What a failed reconcile does for one verdict.
     *
     * @param write   the status to write; null when nothing is due
     * @param discard the stored object goes first (someone else edited it)
     * @param wakeAt  the earliest expiry of its parts still to come; null when none
     */
    record Upkeep(RdmaStorageNodeStatus write, boolean discard, Instant wakeAt) {
    }

    /**
     * Pure: a verdict someone else edited is replaced ({@link NodeVerdicts#edited}); otherwise each
     * kind's part that has passed its expiry is written as expired ({@link VerdictKind#expire}), the
     * other parts as they are.
     */
    static Upkeep upkeep(RdmaStorageNode verdict, RdmaStorageProfileSpec spec, ProfileSettings settings, Instant now) {
        RdmaStorageNodeStatus status = verdict.getStatus();
        // the verdict's own generation: whether it says ResultExpired already is about what it holds
        long generation = status.getObservedGeneration() == null ? 0 : status.getObservedGeneration();
        if (!VerdictDigest.matches(verdict)) {
            return new Upkeep(NodeVerdicts.edited(spec, generation, status.getProbeRound(), now), true, null);
        }
        RdmaStorageNodeStatus next = status;
        Instant wakeAt = null;
        for (VerdictKind kind : kinds(settings, generation)) {
            Lifecycle.Last last = kind.last(status);
            wakeAt = Lifecycle.earliest(wakeAt, Lifecycle.expiryToWakeFor(last, now).orElse(null));
            if (Lifecycle.toExpire(last, now)) {
                next = kind.expire(spec, next, now);
            }
        }
        return new Upkeep(next == status ? null : next, false, wakeAt);
    }

    /** The kinds whose results make up a verdict, one per {@link VerdictPart}. */
    static List<VerdictKind> kinds(ProfileSettings settings, long generation) {
        return List.of(new NodeProbeKind(settings, generation), new PairProbeKind(settings, generation));
    }

    /** The spec's settings; a spec they cannot be read from expires by the defaults (15m interval). */
    private static ProfileSettings settings(RdmaStorageProfileSpec spec) {
        try {
            return ProfileSettings.of(spec == null ? new RdmaStorageProfileSpec() : spec);
        } catch (RuntimeException e) {
            return ProfileSettings.of(new RdmaStorageProfileSpec());
        }
    }
}
