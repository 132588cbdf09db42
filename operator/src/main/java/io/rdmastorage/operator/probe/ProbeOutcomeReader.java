package io.rdmastorage.operator.probe;

import io.fabric8.kubernetes.api.model.ContainerStateTerminated;
import io.fabric8.kubernetes.api.model.ContainerStateWaiting;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodStatus;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * A probe pod's state → {@link ProbeOutcome}. Pure: the caller passes the clock and the profile's
 * probe timeout. The order of the rules matters and is the order of {@link #of}.
 */
public final class ProbeOutcomeReader {

    /** Waiting reasons after which the container will not run without someone fixing something. */
    static final Set<String> START_FAILURES = Set.of("ErrImagePull", "ImagePullBackOff", "InvalidImageName",
            "ErrImageNeverPull", "CreateContainerConfigError", "CreateContainerError", "RunContainerError");
    /** Pod reasons for a pod that the node took away: evicted, preempted, shut down with the node. */
    static final Set<String> LOST_REASONS = Set.of("Evicted", "Preempting", "Shutdown", "Terminated", "NodeShutdown",
            "NodeLost");
    static final String DEADLINE_EXCEEDED = "DeadlineExceeded";
    static final String OOM_KILLED = "OOMKilled";
    static final Duration MIN_GRACE = Duration.ofSeconds(2);
    static final Duration MAX_GRACE = Duration.ofSeconds(30);

    private ProbeOutcomeReader() {
    }

    public static ProbeOutcome of(Pod pod, Instant now, Duration probeTimeout) {
        Objects.requireNonNull(pod, "pod");
        PodStatus status = pod.getStatus() != null ? pod.getStatus() : new PodStatus();
        String phase = status.getPhase() != null ? status.getPhase() : "Pending";
        Instant created = created(pod, now);
        Duration age = Duration.between(created, now);
        Optional<ContainerStatus> probe = probeContainer(status);

        // the kubelet killed it at activeDeadlineSeconds; whatever the container left is not a report
        String podReason = status.getReason() != null ? status.getReason() : "";
        if (DEADLINE_EXCEEDED.equals(podReason)) {
            return new ProbeOutcome.TimedOut(age, notStarted(pod));
        }
        if (LOST_REASONS.contains(podReason)) {
            return new ProbeOutcome.Lost(status.getReason(), text(status.getMessage(), "the node took the pod away"));
        }
        Optional<ContainerStateTerminated> terminated = probe.map(c -> c.getState() == null ? null : c.getState().getTerminated());
        if (terminated.isPresent()) {
            ContainerStateTerminated t = terminated.get();
            if (OOM_KILLED.equals(t.getReason())) {
                return new ProbeOutcome.Lost(OOM_KILLED, "node-probe was killed for exceeding its memory limit"
                        + memoryLimit(pod).map(limit -> " (" + limit + ")").orElse("") + " before it reported");
            }
            return new ProbeOutcome.Finished(t.getExitCode() == null ? -1 : t.getExitCode(),
                    t.getMessage() == null ? "" : t.getMessage(), time(t.getFinishedAt()).orElse(now));
        }
        Optional<ContainerStateWaiting> waiting = probe.map(c -> c.getState() == null ? null : c.getState().getWaiting());
        if (waiting.isPresent() && waiting.get().getReason() != null && START_FAILURES.contains(waiting.get().getReason())) {
            return new ProbeOutcome.FailedToStart(waiting.get().getReason(), text(waiting.get().getMessage(), ""));
        }
        switch (phase) {
            case "Failed" -> {
                // refused by the kubelet (OutOfcpu, NodeAffinity, UnexpectedAdmissionError, ...)
                return new ProbeOutcome.FailedToStart(text(status.getReason(), "Failed"),
                        text(status.getMessage(), "the pod failed before its container ran"));
            }
            case "Succeeded" -> {
                return new ProbeOutcome.Lost("NoContainerStatus",
                        "the pod succeeded but reports no terminated node-probe container");
            }
            case "Unknown" -> {
                return new ProbeOutcome.Lost(text(status.getReason(), "NodeLost"),
                        text(status.getMessage(), "the pod's node stopped reporting its state"));
            }
            default -> {
            }
        }
        if (pod.getMetadata().getDeletionTimestamp() != null) {
            return new ProbeOutcome.Lost("PodDeleted", "the probe pod was deleted before it reported");
        }
        Instant timesOutAt = timesOutAt(pod, probeTimeout, now);
        if (now.isAfter(timesOutAt)) {
            return new ProbeOutcome.TimedOut(age, notStarted(pod));
        }
        return new ProbeOutcome.InProgress(timesOutAt);
    }

    /**
     * Why the pod's container has not started, where it has not: the scheduler's word when it is not
     * placed ({@code PodScheduled} False: "0/3 nodes are available: ..."), the kubelet's while it
     * waits ({@code ContainerCreating}); empty once the container runs or ran.
     */
    public static Optional<String> notStarted(Pod pod) {
        PodStatus status = pod.getStatus() != null ? pod.getStatus() : new PodStatus();
        Optional<ContainerStatus> probe = probeContainer(status);
        boolean ran = probe.map(c -> c.getState() != null && (c.getState().getRunning() != null
                || c.getState().getTerminated() != null)).orElse(false);
        // past Pending, a container ran (Running, Succeeded) or the pod's end says more (Failed, Unknown)
        if (ran || status.getPhase() != null && !"Pending".equals(status.getPhase())) {
            return Optional.empty();
        }
        Optional<String> unscheduled = status.getConditions() == null ? Optional.empty() : status.getConditions().stream()
                .filter(c -> "PodScheduled".equals(c.getType()) && "False".equals(c.getStatus())).findFirst()
                .map(c -> "not scheduled: " + text(c.getReason(), "Unschedulable") + ": " + text(c.getMessage(), "no node fits"));
        if (unscheduled.isPresent()) {
            return unscheduled;
        }
        Optional<ContainerStateWaiting> waiting = probe.map(c -> c.getState() == null ? null : c.getState().getWaiting());
        if (waiting.isPresent()) {
            return Optional.of("its container is waiting: " + text(waiting.get().getReason(), "Waiting")
                    + (waiting.get().getMessage() == null ? "" : ": " + waiting.get().getMessage()));
        }
        return Optional.of(pod.getSpec() == null || pod.getSpec().getNodeName() == null ? "not scheduled yet"
                : "its container has not started on node " + pod.getSpec().getNodeName());
    }

    /** For a probe pod whose node left the cluster: it will never report. */
    public static ProbeOutcome.Lost nodeGone(String node) {
        return new ProbeOutcome.Lost("NodeGone", "node " + node + " left the cluster before its probe reported");
    }

    /**
     * When a pod that is still Pending or Running counts as timed out: its creation plus the probe
     * timeout plus a grace (10% of the timeout, between 2 s and 30 s) that lets the kubelet's own
     * activeDeadlineSeconds, counted from a slightly later start, act first. A reconciler can
     * schedule its next look at this instant.
     */
    public static Instant timesOutAt(Pod pod, Duration probeTimeout, Instant now) {
        return created(pod, now).plus(probeTimeout).plus(grace(probeTimeout));
    }

    static Duration grace(Duration probeTimeout) {
        Duration tenth = probeTimeout.dividedBy(10);
        if (tenth.compareTo(MIN_GRACE) < 0) {
            return MIN_GRACE;
        }
        return tenth.compareTo(MAX_GRACE) > 0 ? MAX_GRACE : tenth;
    }

    /** The probe container's own memory limit: a profile's probe and an acceptance run's differ. */
    private static Optional<String> memoryLimit(Pod pod) {
        if (pod.getSpec() == null || pod.getSpec().getContainers() == null) {
            return Optional.empty();
        }
        return pod.getSpec().getContainers().stream()
                .filter(c -> ProbePodFactory.CONTAINER.equals(c.getName()))
                .map(c -> c.getResources() == null || c.getResources().getLimits() == null ? null
                        : c.getResources().getLimits().get("memory"))
                .filter(Objects::nonNull)
                .map(Object::toString)
                .findFirst();
    }

    private static Optional<ContainerStatus> probeContainer(PodStatus status) {
        List<ContainerStatus> statuses = status.getContainerStatuses();
        if (statuses == null) {
            return Optional.empty();
        }
        return statuses.stream().filter(c -> ProbePodFactory.CONTAINER.equals(c.getName())).findFirst();
    }

    /** A pod not yet stored has no creation time: it is as young as can be. */
    private static Instant created(Pod pod, Instant now) {
        return time(pod.getMetadata() == null ? null : pod.getMetadata().getCreationTimestamp()).orElse(now);
    }

    private static Optional<Instant> time(String rfc3339) {
        if (rfc3339 == null || rfc3339.isEmpty()) {
            return Optional.empty();
        }
        try {
            return Optional.of(OffsetDateTime.parse(rfc3339).toInstant());
        } catch (DateTimeParseException e) {
            return Optional.empty();
        }
    }

    private static String text(String value, String fallback) {
        return value == null || value.isEmpty() ? fallback : value;
    }
}
