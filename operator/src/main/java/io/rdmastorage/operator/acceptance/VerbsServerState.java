package io.rdmastorage.operator.acceptance;

import io.fabric8.kubernetes.api.model.Pod;
import io.rdmastorage.operator.api.RdmaStorageAcceptance;
import io.rdmastorage.operator.api.RdmaStorageAcceptanceStatus;
import io.rdmastorage.operator.probe.ProbeOutcome;
import io.rdmastorage.operator.probe.ProbeOutcomeReader;
import io.rdmastorage.operator.status.SafeText;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.Set;

/**
 * Whether the verbs target's server pod, on the peer, has failed while the client still measures:
 * it did not start, was lost, passed its deadline, ended with a usage or internal failure of
 * node-probe (exit 2 or 3), or is gone. Then the run ends at once rather than waiting for a client
 * that can no longer be served. A server that ended normally (0: served all four runs; 1: some
 * run failed, which the client reports in detail) is no failure: the client's report follows.
 */
final class VerbsServerState {

    /** node-probe's exit for bad usage or spec; above it, an internal failure. */
    static final int USAGE_EXIT = 2;

    private VerbsServerState() {
    }

    /** Why the run must end now because of its server pod, or empty. */
    static Optional<String> failure(Set<Pod> pods, RdmaStorageAcceptance run, RdmaStorageAcceptanceStatus previous,
                                    Instant now, Duration deadline) {
        String name = VerbsAcceptancePods.serverName(run);
        String peer = run.getSpec().getVerbs().getPeerNode();
        Optional<Pod> server = pods.stream().filter(p -> name.equals(p.getMetadata().getName())).findFirst();
        if (server.isEmpty()) {
            Instant started = AcceptanceStatuses.startedAt(previous, now);
            return now.isBefore(started.plus(AcceptancePlanner.CACHE_LAG)) ? Optional.empty()
                    : Optional.of("the server pod " + name + " on peer node " + peer + " is gone (deleted, or its node was "
                            + "lost); create a new run");
        }
        ProbeOutcome outcome = ProbeOutcomeReader.of(server.get(), now, deadline);
        String where = "the server pod " + name + " on peer node " + peer;
        if (outcome instanceof ProbeOutcome.Finished f) {
            return f.exitCode() < USAGE_EXIT ? Optional.empty() : Optional.of(where + " failed (node-probe exit "
                    + f.exitCode() + "): " + SafeText.quote(f.terminationMessage(), SafeText.EXCERPT));
        }
        if (!(outcome instanceof ProbeOutcome.InProgress)) {
            return Optional.of(where + " " + outcome.describe());
        }
        return Optional.empty();
    }
}
