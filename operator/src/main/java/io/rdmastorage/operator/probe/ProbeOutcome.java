package io.rdmastorage.operator.probe;

import java.time.Duration;
import java.time.Instant;

/** Where a probe pod stands, as the verdict logic needs it. Every case but InProgress is final. */
public sealed interface ProbeOutcome {

    /** Still starting or running; nothing to harvest before {@code timesOutAt}. */
    record InProgress(Instant timesOutAt) implements ProbeOutcome {
    }

    /**
     * node-probe ran and exited. Exit 1 is a normal verdict ("some check not True"), and so the pod
     * being Failed is too; the report is in {@code terminationMessage} (empty when none was written).
     */
    record Finished(int exitCode, String terminationMessage, Instant finishedAt) implements ProbeOutcome {
    }

    /** The container never ran: image pull, container creation, or the kubelet refused the pod. */
    record FailedToStart(String reason, String message) implements ProbeOutcome {

        /** What happened to the pod, to follow its name: {@code did not start: ErrImagePull: ...}. */
        public String describe() {
            return "did not start: " + reason + ": " + message;
        }
    }

    /** No result within the probe timeout (the pod's activeDeadlineSeconds, or ours plus grace). */
    record TimedOut(Duration age) implements ProbeOutcome {
    }

    /** The pod ended or vanished without a result: node lost, pod evicted or deleted by someone else. */
    record Lost(String reason, String message) implements ProbeOutcome {

        /** What happened to the pod, to follow its name: {@code was lost: Evicted: ...}. */
        public String describe() {
            return "was lost: " + reason + ": " + message;
        }
    }
}
