package io.rdmastorage.operator.probe;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * Where a probe pod stands, as the verdict logic needs it. Every case but InProgress is final. Each
 * says what happened to the pod in words ({@link #describe}), the one wording every kind of
 * measurement uses after the pod's name.
 */
public sealed interface ProbeOutcome {

    /** What happened to the pod, to follow its name: {@code did not start: ErrImagePull: ...}. */
    String describe();

    /** Still starting or running; nothing to harvest before {@code timesOutAt}. */
    record InProgress(Instant timesOutAt) implements ProbeOutcome {

        @Override
        public String describe() {
            return "is still running (it times out at " + timesOutAt + ")";
        }
    }

    /**
     * node-probe ran and exited. Exit 1 is a normal verdict ("some check not True"), and so the pod
     * being Failed is too; the report is in {@code terminationMessage} (empty when none was written).
     */
    record Finished(int exitCode, String terminationMessage, Instant finishedAt) implements ProbeOutcome {

        @Override
        public String describe() {
            return "exited " + exitCode;
        }
    }

    /** The container never ran: image pull, container creation, or the kubelet refused the pod. */
    record FailedToStart(String reason, String message) implements ProbeOutcome {

        @Override
        public String describe() {
            return "did not start: " + reason + ": " + message;
        }
    }

    /**
     * No result within the probe timeout (the pod's activeDeadlineSeconds, or ours plus grace).
     *
     * @param notStarted why its container never started, where it did not (not scheduled, still
     *                   creating): then it timed out waiting, not measuring
     */
    record TimedOut(Duration age, Optional<String> notStarted) implements ProbeOutcome {

        public TimedOut(Duration age) {
            this(age, Optional.empty());
        }

        @Override
        public String describe() {
            return notStarted.map(why -> "did not start within " + age.toSeconds() + "s: " + why)
                    .orElse("gave no result after " + age.toSeconds() + "s");
        }
    }

    /** The pod ended or vanished without a result: node lost, pod evicted or deleted by someone else. */
    record Lost(String reason, String message) implements ProbeOutcome {

        @Override
        public String describe() {
            return "was lost: " + reason + ": " + message;
        }
    }
}
