package io.rdmastorage.operator.events;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.rdmastorage.operator.api.RdmaStorageNode;
import io.rdmastorage.operator.api.RdmaStorageProfile;
import io.rdmastorage.operator.api.RdmaStorageProfileStatus;
import io.rdmastorage.operator.status.Conditions;
import io.rdmastorage.operator.verdict.CheckTypes;
import io.rdmastorage.operator.verdict.FleetDistribution;
import io.rdmastorage.operator.verdict.UnknownCause;
import io.rdmastorage.operator.verdict.VerdictChange;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Records a Kubernetes Event on an RdmaStorageNode each time one of its conditions changes
 * status, so {@code kubectl describe rdmastoragenode} and {@code kubectl get events} tell the
 * story of a node; and one on the RdmaStorageProfile when its {@code Ready} changes status. One
 * event per change, no aggregation, and best effort: a failed write is logged and forgotten,
 * never an error of the reconcile that caused it.
 *
 * <p>Which changes get an event follows Kubernetes practice: Warning events for what is wrong,
 * events for changes, and no Normal event that only says a check passed. A node's first verdict
 * gets a Warning per check that is not True and nothing for the checks that passed; its Ready
 * gets no event of its own then, as it only sums up those Warnings (it gets one when nothing else
 * explains it). So a new node with one failing check is one Warning, not one event per condition,
 * and a new 1,000-node profile that passes writes no node events at all: the profile's event when
 * its Ready turns True ("1000 of 1000 nodes ready") says it once. Every later change of a
 * condition's status is an event (Normal when it turns True: a recovery is news, Warning
 * otherwise). A verdict that turns Unknown because a probe went wrong (timed out, wrote garbage,
 * ...), on a node that had none or was waiting, is one Warning too, though no status changed. The node's conditions carry their transition times, and
 * {@code rdmastorage_verdict_changes_total} still counts every change.
 *
 * <p>core/v1 Events rather than events.k8s.io/v1: both are views of the same objects, but core/v1
 * is the one whose fields {@code kubectl describe} prints (reason, message, source) and whose
 * legacy form needs no eventTime, action or reportingInstance — and it is the API JOSDK users
 * and the Helm chart's RBAC ({@code events} in the core group) already know. RdmaStorageNodes are
 * cluster-scoped, so, as Kubernetes does for Nodes, their events live in namespace {@code default}.
 * Each is written by {@link EventWriter}, which acceptance runs write their own Events with too.
 */
public final class VerdictEvents {


    public static final String COMPONENT = EventWriter.COMPONENT;
    /** Where every event of this operator lives ({@link EventWriter#NAMESPACE}). */
    public static final String NAMESPACE = EventWriter.NAMESPACE;
    public static final int MAX_MESSAGE_LENGTH = EventWriter.MAX_MESSAGE_LENGTH;

    private final EventWriter writer;

    /** Reports as this pod (HOSTNAME), or as this host outside a cluster. */
    public VerdictEvents(KubernetesClient client) {
        this(new EventWriter(client));
    }

    public VerdictEvents(KubernetesClient client, Clock clock, String instance) {
        this(new EventWriter(client, clock, instance));
    }

    public VerdictEvents(EventWriter writer) {
        this.writer = writer;
    }

    /**
     * Records one event per condition whose status changed between two versions of a node's
     * conditions.
     *
     * @return the changes (whether or not their events could be written), for metrics
     */
    public List<VerdictChange> recordChanges(RdmaStorageNode node, List<Condition> before, List<Condition> after) {
        List<VerdictChange> changes = VerdictChange.between(before, after);
        eventsFor(changes).forEach(change -> record(node, change));
        troubleOnFirstVerdict(before, after).ifPresent(change -> record(node, change));
        return changes;
    }

    /**
     * A node whose verdict turns Unknown because something went wrong (the probe timed out, could
     * not start, wrote garbage: {@link UnknownCause#TROUBLE}) when it had no verdict yet or was
     * only waiting (AwaitingProbe, NodeNotReady, ...) changes no status, but it is wrong: one
     * Warning, its Ready's. Waiting itself is not; from True or False it is a status change anyway.
     */
    static Optional<VerdictChange> troubleOnFirstVerdict(List<Condition> before, List<Condition> after) {
        Condition previous = Conditions.byType(before).get(CheckTypes.READY);
        if (previous != null && (!Conditions.UNKNOWN.equals(previous.getStatus())
                || UnknownCause.of(previous.getReason()) == UnknownCause.TROUBLE)) {
            return Optional.empty();
        }
        Condition ready = Conditions.byType(after).get(CheckTypes.READY);
        if (ready == null || !Conditions.UNKNOWN.equals(ready.getStatus())
                || UnknownCause.of(ready.getReason()) != UnknownCause.TROUBLE) {
            return Optional.empty();
        }
        return Optional.of(new VerdictChange(ready.getType(), null, ready.getStatus(), ready.getReason(), ready.getMessage()));
    }

    /**
     * The changes of a node's verdict that get an event (see above): every change of a condition
     * that had a status before; of the conditions that are new (a first verdict, a check added to a
     * node already judged), only those that are not True, Ready left out when a check's Warning
     * already says why.
     */
    static List<VerdictChange> eventsFor(List<VerdictChange> changes) {
        boolean checkWarning = changes.stream()
                .anyMatch(c -> c.isFirst() && !c.toTrue() && !CheckTypes.READY.equals(c.type()));
        return changes.stream()
                .filter(c -> !c.isFirst() || !c.toTrue())
                .filter(c -> !(c.isFirst() && checkWarning && CheckTypes.READY.equals(c.type())))
                .toList();
    }

    /** The profile conditions whose changes get an event: Ready, and FleetConsistent (a Warning when it leaves True). */
    static final java.util.Set<String> PROFILE_EVENTS = java.util.Set.of(CheckTypes.READY, FleetDistribution.FLEET_CONSISTENT);

    /**
     * Records an event on the profile when its {@code Ready} or {@code FleetConsistent} condition
     * changed status between two versions of its status (the stored one and the one about to be written).
     *
     * @return the change, if there was one
     */
    public List<VerdictChange> recordProfileChange(RdmaStorageProfile profile, RdmaStorageProfileStatus before,
                                                   RdmaStorageProfileStatus after) {
        List<VerdictChange> changes = VerdictChange.between(before, after).stream()
                .filter(c -> PROFILE_EVENTS.contains(c.type())).toList();
        changes.forEach(change -> record(profile, change));
        return changes;
    }

    /** Records one change; false when the event could not be written (logged, never thrown). */
    public boolean record(HasMetadata object, VerdictChange change) {
        return writer.record(object, type(change), reason(change), messageOf(change));
    }

    /** The event for a change of a (cluster-scoped) object: pure, so its shape is tested without an API server. */
    static Event eventFor(HasMetadata object, VerdictChange change, Instant now, long stamp, String instance) {
        return EventWriter.eventFor(object, type(change), reason(change), messageOf(change), now, stamp, instance);
    }

    private static String type(VerdictChange change) {
        return change.toTrue() ? "Normal" : "Warning";
    }

    private static String reason(VerdictChange change) {
        return change.reason() == null || change.reason().isEmpty() ? change.type() + change.status() : change.reason();
    }

    /** The condition's message, led by the check and its new status: a reason alone does not say which check. */
    static String messageOf(VerdictChange change) {
        String head = change.type() + " " + (change.previousStatus() == null ? "" : change.previousStatus() + " -> ") + change.status();
        return change.message() == null || change.message().isEmpty() ? head : head + ": " + change.message();
    }

    /** {@code <object>.<hex stamp>}, as client-go names events ({@link EventWriter#eventName}). */
    static String eventName(String objectName, long stamp) {
        return EventWriter.eventName(objectName, stamp);
    }
}
