package io.rdmastorage.operator.verdict;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.Condition;
import io.rdmastorage.contract.CheckType;
import io.rdmastorage.operator.api.FleetSpec;
import io.rdmastorage.operator.api.RdmaStorageNodeStatus;
import io.rdmastorage.operator.api.RdmaStorageProfileSpec;
import io.rdmastorage.operator.status.Conditions;
import io.rdmastorage.operator.status.Reasons;
import io.rdmastorage.operator.status.SafeText;
import io.rdmastorage.operator.status.Timestamps;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One node's verdict for one profile, as an {@link RdmaStorageNodeStatus}: a condition per check
 * the profile asks for, {@code Ready}, and the facts behind them. Every way a verdict can come
 * about has its function here; all are pure. The statuses built here carry {@code at} as every
 * condition's transition time: pass them through {@link #merge} with the stored status so that
 * {@code lastTransitionTime} only moves when a status does.
 *
 * <p>Rules: a check the profile asks for but the report lacks is Unknown {@link Reasons#NOT_REPORTED}
 * (Unknown {@link Reasons#AWAITING_PROBE} when the pod was built from an earlier generation of the
 * profile: it ran the spec before the check was asked for, and the next round is due at once),
 * except CephMessenger, which the probe reports only where /etc/ceph/ceph.conf exists: without that
 * file there is no Ceph messenger to misconfigure, so it is True {@link Reasons#NO_CEPH_CONFIG} (it must
 * not make a node without Ceph NotReady). Each condition type belongs to one {@link VerdictPart}:
 * a status built from one kind's measurement carries every other kind's types as their
 * placeholders, and {@link #merge} keeps the stored measurement (and its facts) in their place.
 */
public final class NodeVerdicts {

    private NodeVerdicts() {
    }

    /**
     * The verdict of a probe container that terminated: exit code 0 or 1 with a report that parses
     * gives the report's verdict; anything else gives every check Unknown with the reason.
     *
     * @param terminatedReason   {@code state.terminated.reason} (Completed, Error, OOMKilled); may be null
     * @param terminationMessage {@code state.terminated.message}; may be null
     */
    public static RdmaStorageNodeStatus fromTermination(RdmaStorageProfileSpec spec, long generation, ProbePod pod,
                                                        int exitCode, String terminatedReason, String terminationMessage,
                                                        Instant finishedAt) {
        return fromTrust(spec, generation, generation, pod, ReportTrust.of(pod, exitCode, terminatedReason, terminationMessage),
                finishedAt);
    }

    /**
     * The verdict of a parsed report: one condition per expected type from the report's checks
     * (details into {@code status.details[type]}); another kind's types are their placeholders.
     *
     * @param exitCode node-probe's exit code; anything but 0 or 1 means it did not finish normally, and
     *                 its report is not trusted
     */
    public static RdmaStorageNodeStatus fromReport(RdmaStorageProfileSpec spec, long generation, ProbePod pod,
                                                   int exitCode, ProbeReport report, Instant finishedAt) {
        return fromTrust(spec, generation, generation, pod, ReportTrust.of(pod, exitCode, report), finishedAt);
    }

    /** The verdict of a report {@link ReportTrust} trusts. */
    private static RdmaStorageNodeStatus fromTrusted(RdmaStorageProfileSpec spec, long generation, long specGeneration,
                                                     ProbePod pod, ProbeReport report, Instant finishedAt) {
        Map<String, Condition> probed = new LinkedHashMap<>();
        Map<String, JsonNode> details = new LinkedHashMap<>();
        for (String type : partTypes(spec, VerdictPart.NODE_PROBE)) {
            Optional<ProbeReport.Check> check = report.check(type);
            if (check.isEmpty()) {
                probed.put(type, generation < specGeneration ? askedSince(type, pod, generation, specGeneration, finishedAt)
                        : notReported(type, pod, generation, finishedAt));
                continue;
            }
            ProbeReport.Check c = check.get();
            probed.put(type, Conditions.of(type, c.status(), c.reason(), c.message(), generation, finishedAt));
            if (!c.details().isEmpty()) {
                details.put(type, c.details());
            }
        }
        RdmaStorageNodeStatus status = status(compose(spec, VerdictPart.NODE_PROBE, probed, List.of(), generation,
                finishedAt), generation, finishedAt);
        status.setLastProbeTime(Timestamps.format(finishedAt));
        status.setProbePod(pod.name());
        status.setProbeDurationMillis(report.durationMillis());
        status.setProbeVersion(report.probeVersion());
        // the report's facts, with the action of each check's condition, as setConditions gives them
        status.setDetails(RecommendedActions.inDetails(status.getConditions(), details));
        status.setInventory(new LinkedHashMap<>(report.inventory()));
        return status;
    }

    /**
     * The verdict of a finished probe: its report's if {@link ReportTrust} trusts it, else its failure's.
     *
     * @param generation     the profile generation the pod was built from (the verdict's observedGeneration)
     * @param specGeneration the generation of {@code spec}, newer than {@code generation} when the spec changed
     *                       while the pod ran
     */
    public static RdmaStorageNodeStatus fromTrust(RdmaStorageProfileSpec spec, long generation, long specGeneration,
                                                  ProbePod pod, ReportTrust trust, Instant finishedAt) {
        if (trust instanceof ReportTrust.Trusted trusted) {
            return fromTrusted(spec, generation, specGeneration, pod, trusted.report(), finishedAt);
        }
        return fromFailure(spec, generation, pod, ((ReportTrust.Untrusted) trust).failure(), finishedAt);
    }

    /** A probe that gave no usable report: every expected check Unknown with the failure's reason and message. */
    public static RdmaStorageNodeStatus fromFailure(RdmaStorageProfileSpec spec, long generation, ProbePod pod,
                                                    ProbeFailure failure, Instant at) {
        RdmaStorageNodeStatus status = allUnknown(spec, failure.reason(), failure.message(), generation, at);
        status.setLastProbeTime(Timestamps.format(at));
        status.setProbePod(pod.name());
        return status;
    }

    /** A matching node that was not probed: every expected check Unknown with the reason; no probe time. */
    public static RdmaStorageNodeStatus notProbed(RdmaStorageProfileSpec spec, long generation, String node,
                                                  NotProbed why, Instant now) {
        return allUnknown(spec, why.reason(), why.message(node), generation, now);
    }

    /**
     * What replaces a verdict someone else edited ({@link VerdictDigest}): nothing in it counts, so
     * every check is Unknown {@link Reasons#VERDICT_EDITED} with no probe time (the node is due at
     * once) and no latency measurement; {@code round}, the last probe round, keeps the pods' numbering.
     */
    public static RdmaStorageNodeStatus edited(RdmaStorageProfileSpec spec, long generation, Long round, Instant now) {
        RdmaStorageNodeStatus status = allUnknown(spec, Reasons.VERDICT_EDITED, "the status of this RdmaStorageNode "
                + "was changed by someone other than the operator (status.digest does not match what it wrote), so "
                + "none of it is trusted and the node is probed again. Write to it only through the operator",
                generation, now);
        status.setProbeRound(round);
        return status;
    }

    /** Whether the status holds a result taken longer than {@code expiry} (3 × interval) before {@code now}. */
    public static boolean isExpired(RdmaStorageNodeStatus status, Instant now, Duration expiry) {
        return expiresAt(status, expiry).map(now::isAfter).orElse(false);
    }

    /**
     * When the status's result stops being trusted: its {@code lastProbeTime} plus {@code expiry}.
     * Empty when there is no probe time (nothing to expire: the checks are Unknown already). A probe
     * time that does not parse has expired already ({@link Instant#EPOCH}).
     */
    public static Optional<Instant> expiresAt(RdmaStorageNodeStatus status, Duration expiry) {
        if (status == null || status.getLastProbeTime() == null) {
            return Optional.empty();
        }
        return Optional.of(Timestamps.parse(status.getLastProbeTime()).orElse(Instant.EPOCH).plus(expiry));
    }

    /**
     * The status with every condition Unknown {@link Reasons#RESULT_EXPIRED} when its result is older
     * than {@code expiry}; the status itself otherwise. The facts (details, latency) stay, dated by
     * {@code lastProbeTime}; the actions in the details follow the conditions (an expired result
     * recommends nothing). Idempotent: the message does not depend on {@code now}, and conditions
     * that were Unknown already keep their {@code lastTransitionTime}.
     */
    public static RdmaStorageNodeStatus expire(RdmaStorageNodeStatus status, Instant now, Duration expiry) {
        if (!isExpired(status, now, expiry)) {
            return status;
        }
        String message = "the last probe result is from " + SafeText.escape(status.getLastProbeTime())
                + ", older than " + Timestamps.human(expiry) + " (3 × spec.interval), so it no longer counts: the node "
                + "has not been probed since. Check the operator's logs and its probe pods "
                + "(`kubectl get pods -A -l app.kubernetes.io/component=node-probe`)";
        List<Condition> checks = checksOf(status.getConditions());
        for (int i = 0; i < checks.size(); i++) {
            // another kind's conditions are dated by its own measurement
            if (VerdictPart.NODE_PROBE.owns(checks.get(i).getType())) {
                checks.set(i, Conditions.expired(checks.get(i), message, now));
            }
        }
        RdmaStorageNodeStatus copy = copy(status);
        long generation = copy.getObservedGeneration() == null ? 0 : copy.getObservedGeneration();
        setConditions(copy, Conditions.merge(status.getConditions(), withReady(checks, generation, now), now,
                generation));
        return copy;
    }

    /**
     * {@code next} as it should be stored over {@code previous}: a condition that {@code next} only
     * holds as its kind's placeholder keeps the stored measurement of that kind (its conditions and
     * facts, e.g. {@code status.latency}); conditions
     * merged by {@link Conditions#merge} (lastTransitionTime kept unless the status moved;
     * observedGeneration from {@code next}); {@code Ready} worked out again from the result; and
     * {@code probeRound} kept when {@code next} has none.
     *
     * @param previous the stored status; may be null
     */
    public static RdmaStorageNodeStatus merge(RdmaStorageNodeStatus previous, RdmaStorageNodeStatus next, Instant now) {
        RdmaStorageNodeStatus merged = copy(next);
        long generation = next.getObservedGeneration() == null ? 0 : next.getObservedGeneration();
        List<Condition> checks = checksOf(next.getConditions());
        Map<String, Condition> stored = previous == null ? Map.of() : Conditions.byType(previous.getConditions());
        for (int i = 0; i < checks.size(); i++) {
            VerdictPart part = VerdictPart.of(checks.get(i).getType());
            Condition measured = stored.get(checks.get(i).getType());
            if (part.isPlaceholder(checks.get(i)) && measured != null && !part.isPlaceholder(measured)) {
                checks.set(i, measured);
                part.copyFacts(previous, merged);
            }
        }
        List<Condition> conditions = withReady(checks, generation, now);
        setConditions(merged, Conditions.merge(previous == null ? null : previous.getConditions(), conditions,
                now, generation));
        if (merged.getProbeRound() == null && previous != null) {
            merged.setProbeRound(previous.getProbeRound());
        }
        return merged;
    }

    /**
     * {@code stored} with {@code part}'s conditions as another measurement kind than the node's own
     * probe measured them (the latency pair: {@code LatencyVerdicts.withLatency}), and {@code Ready}
     * worked out again; the other parts stay as they are, in the profile's order. A check not
     * measured yet is its kind's placeholder. The kind sets its own facts on the result; pass it
     * through {@link #merge}.
     *
     * @param stored the stored status; may be null
     */
    public static RdmaStorageNodeStatus withPart(RdmaStorageProfileSpec spec, RdmaStorageNodeStatus stored, VerdictPart part,
                                                 Map<String, Condition> measured, long generation, Instant at) {
        RdmaStorageNodeStatus next = stored == null ? status(List.of(), generation, at) : copy(stored);
        List<Condition> checks = compose(spec, part, measured, next.getConditions(), generation, at);
        setConditions(next, withReady(checks, next.getObservedGeneration() == null ? generation
                : next.getObservedGeneration(), at));
        return next;
    }

    /** The node's own probe gave nothing: its checks Unknown with the reason, other kinds' placeholders. */
    private static RdmaStorageNodeStatus allUnknown(RdmaStorageProfileSpec spec, String reason, String message,
                                                    long generation, Instant at) {
        Map<String, Condition> unknown = new LinkedHashMap<>();
        for (String type : partTypes(spec, VerdictPart.NODE_PROBE)) {
            unknown.put(type, Conditions.of(type, Conditions.UNKNOWN, reason, message, generation, at));
        }
        return status(compose(spec, VerdictPart.NODE_PROBE, unknown, List.of(), generation, at), generation, at);
    }

    /**
     * The checks the profile asks for, in its order, after {@code part}'s kind measured: its types from
     * {@code measured}, every other part's as {@code stored} holds them, and the placeholder of any
     * type that has neither.
     */
    private static List<Condition> compose(RdmaStorageProfileSpec spec, VerdictPart part,
                                           Map<String, Condition> measured, List<Condition> stored, long generation,
                                           Instant at) {
        Map<String, Condition> storedByType = Conditions.byType(stored);
        List<String> expected = CheckTypes.expected(spec);
        List<Condition> checks = new ArrayList<>(expected.size());
        for (String type : expected) {
            VerdictPart owner = VerdictPart.of(type);
            Condition c = owner == part ? measured.get(type) : storedByType.get(type);
            checks.add(c != null ? c : owner.placeholder(type, generation, at));
        }
        return checks;
    }

    private static List<String> partTypes(RdmaStorageProfileSpec spec, VerdictPart part) {
        return CheckTypes.expected(spec).stream().filter(part::owns).toList();
    }

    private static RdmaStorageNodeStatus status(List<Condition> checks, long generation, Instant at) {
        RdmaStorageNodeStatus status = new RdmaStorageNodeStatus();
        status.setObservedGeneration(generation);
        setConditions(status, withReady(checks, generation, at));
        return status;
    }

    /**
     * {@code current} with the node's MatchesFleet (the fleet comparison's part, written last in a
     * reconcile, after every measurement's) and Ready worked out again, counting MatchesFleet only
     * when the profile's {@code fleet.required} says so. Transition times come from {@code stored}
     * (the status the cluster holds), as the measurements' did.
     *
     * @param stored the stored status; may be null
     */
    public static RdmaStorageNodeStatus withFleet(RdmaStorageProfileSpec spec, RdmaStorageNodeStatus stored,
                                                  RdmaStorageNodeStatus current, Condition matchesFleet, Instant now) {
        RdmaStorageNodeStatus next = copy(current);
        long generation = next.getObservedGeneration() == null ? 0 : next.getObservedGeneration();
        List<Condition> checks = checksOf(current.getConditions());
        checks.removeIf(c -> FleetDistribution.MATCHES_FLEET.equals(c.getType()));
        List<String> judged = new ArrayList<>(checks.stream().map(Condition::getType).toList());
        checks.add(matchesFleet);
        if (FleetSpec.required(spec)) {
            judged.add(FleetDistribution.MATCHES_FLEET);
        }
        List<Condition> conditions = new ArrayList<>(checks.size() + 1);
        conditions.add(NodeReadiness.of(judged, checks).readyCondition(generation, now));
        conditions.addAll(checks);
        setConditions(next, Conditions.merge(stored != null ? stored.getConditions() : current.getConditions(), conditions,
                now, generation));
        return next;
    }

    /**
     * Ready first, worked out from the checks, then the checks in profile order. A MatchesFleet
     * among them does not count here: whether it does is the profile's ({@link #withFleet}).
     */
    private static List<Condition> withReady(List<Condition> checks, long generation, Instant at) {
        List<String> types = checks.stream().map(Condition::getType)
                .filter(t -> !FleetDistribution.MATCHES_FLEET.equals(t)).toList();
        List<Condition> conditions = new ArrayList<>(checks.size() + 1);
        conditions.add(NodeReadiness.of(types, checks).readyCondition(generation, at));
        conditions.addAll(checks);
        return conditions;
    }

    /**
     * Sets the verdict's conditions, and the action each check's condition recommends in its
     * details ({@link RecommendedActions}): every change of a verdict's conditions ends here.
     */
    private static void setConditions(RdmaStorageNodeStatus status, List<Condition> conditions) {
        status.setConditions(conditions);
        status.setDetails(RecommendedActions.inDetails(conditions, status.getDetails()));
    }

    /** The conditions less Ready, as a new mutable list. */
    private static List<Condition> checksOf(List<Condition> conditions) {
        List<Condition> checks = new ArrayList<>(conditions.size());
        for (Condition c : conditions) {
            if (!CheckTypes.READY.equals(c.getType())) {
                checks.add(c);
            }
        }
        return checks;
    }

    private static Condition notReported(String type, ProbePod pod, long generation, Instant at) {
        if (type.equals(CheckType.CEPH_MESSENGER.conditionType())) {
            return Conditions.of(type, Conditions.TRUE, Reasons.NO_CEPH_CONFIG, "node " + pod.node()
                    + " has no /etc/ceph/ceph.conf, so no Ceph messenger is configured on it: nothing to flag",
                    generation, at);
        }
        return Conditions.of(type, Conditions.UNKNOWN, Reasons.NOT_REPORTED, "the probe's report has no " + type
                + " entry although the profile asks for it: the probe image may be older than the operator. See "
                + pod.logsCommand() + " and check the image (RSO_PROBE_IMAGE)", generation, at);
    }

    /**
     * A check the report lacks because the pod ran an earlier spec: the pod's spec file is read when it
     * starts, so a check added while it was queued or running is not in its report. Not the probe's fault.
     */
    private static Condition askedSince(String type, ProbePod pod, long podGeneration, long specGeneration, Instant at) {
        return Conditions.of(type, Conditions.UNKNOWN, Reasons.AWAITING_PROBE, "probe pod " + pod.name() + " was built from "
                + "generation " + podGeneration + " of the profile, which is now at generation " + specGeneration
                + ": it ran the earlier spec and did not report " + type + ". The next round, due now, runs the current spec",
                podGeneration, at);
    }

    private static RdmaStorageNodeStatus copy(RdmaStorageNodeStatus s) {
        RdmaStorageNodeStatus c = new RdmaStorageNodeStatus();
        c.setObservedGeneration(s.getObservedGeneration());
        c.setConditions(new ArrayList<>(s.getConditions()));
        for (VerdictPart part : VerdictPart.values()) {
            part.copyFacts(s, c);
        }
        return c;
    }
}
