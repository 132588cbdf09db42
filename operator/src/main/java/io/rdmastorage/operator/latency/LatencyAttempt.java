package io.rdmastorage.operator.latency;

import static io.rdmastorage.contract.Reasons.TOOL_TIMED_OUT;

import com.fasterxml.jackson.databind.JsonNode;
import io.rdmastorage.operator.status.Conditions;
import io.rdmastorage.operator.status.Reasons;
import io.rdmastorage.operator.status.SafeText;
import io.rdmastorage.operator.verdict.ProbeFailure;
import io.rdmastorage.operator.verdict.ProbeReport;

/**
 * What one attempt of a latency round (one pair: this node as client, {@link #peer} as server)
 * came to. An attempt that failed on the way to the peer ({@link #peerSideInDoubt}) does not tell
 * which side is at fault: the round tries one other peer before it blames this node.
 */
public sealed interface LatencyAttempt {

    Peer peer();

    /** Whether the failure may as well be the peer's: try another before blaming this node. */
    boolean peerSideInDoubt();

    /** One line on why the attempt gave no measurement, for the condition message. */
    String why();

    /** The client reported its VerbsLatency check: a measurement, or perftest's own failure. */
    record Reported(Peer peer, ProbeReport.Check check) implements LatencyAttempt {

        @Override
        public boolean peerSideInDoubt() {
            return Reasons.PEER_UNREACHABLE.equals(check.reason())
                    || Conditions.UNKNOWN.equals(check.status()) && TOOL_TIMED_OUT.equals(check.reason());
        }

        @Override
        public String why() {
            JsonNode perftest = check.details().get("perftestError");
            String text = perftest != null && perftest.isTextual() ? perftest.textValue() : check.message();
            return check.reason() + " (" + SafeText.quote(text == null ? "" : text, SafeText.EXCERPT) + ")";
        }
    }

    /** The peer's server side never served: it did not start, ended before its client came, or its node left. */
    record PeerFailed(Peer peer, String why) implements LatencyAttempt {

        @Override
        public boolean peerSideInDoubt() {
            return true;
        }
    }

    /** This node's own client pod gave no usable result: nothing to say about the peer. */
    record ClientFailed(Peer peer, ProbeFailure failure) implements LatencyAttempt {

        @Override
        public boolean peerSideInDoubt() {
            return false;
        }

        @Override
        public String why() {
            return failure.reason();
        }
    }
}
