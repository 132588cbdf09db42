package io.rdmastorage.operator.acceptance;

import io.rdmastorage.operator.api.AcceptanceVerbsTarget;
import java.util.Set;

/** The {@code verbs} target: RDMA against TCP between the run's node and a peer node ({@link VerbsAcceptancePods}). */
record VerbsPeer(AcceptanceVerbsTarget section) implements AcceptanceTarget {

    public static final String NAME = "verbs";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String column() {
        return "verbs " + section.getDevice() + " to " + section.getPeerNode();
    }

    /** The peer runs the server pod: one run per node at a time holds there too. */
    @Override
    public Set<String> otherNodes() {
        return section.getPeerNode() == null ? Set.of() : Set.of(section.getPeerNode());
    }
}
