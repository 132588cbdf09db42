package io.rdmastorage.contract;

import java.util.Arrays;
import java.util.Optional;

/**
 * What a condition's reason asks someone to do about the node, for remediation tools to act on
 * without reading messages: one per reason and status ({@link Reason#actions()}), written by the
 * operator into {@code status.details[<type>].recommendedAction} of an RdmaStorageNode. The
 * message still says the commands; this says only which kind of work it is. A small set on
 * purpose: a tool maps each value to one remediation.
 */
public enum RecommendedAction {
    /** The physical link (cable, transceiver, switch port): reseat or replace it at the rack. */
    RESEAT_CABLE("ReseatCable"),
    /** The adapter itself (or its PCIe slot) is faulty: hardware service of the card, replacing it if it recurs. */
    REPLACE_NIC("ReplaceNIC"),
    /**
     * A setting is wrong: the host's (kernel command line, module, driver, storage client or
     * daemon configuration, a tool that is not installed) or the profile's. Neither a reboot nor a
     * drain fixes it; an administrator changes it.
     */
    FIX_CONFIG("FixConfig"),
    /** A storage daemon or service on the node is not running as it should: restart it. */
    RESTART_DAEMON("RestartDaemon"),
    /** Something is wrong on the node, but the reason alone does not say what to do: a person looks (the message says where). */
    INVESTIGATE_NODE("InvestigateNode"),
    /**
     * Nothing to do on the node: the check passed, or it could not tell for a cause that is no
     * evidence against the node (waiting, idle, the probe's own view or limits).
     */
    NONE("None");

    private final String wire;

    RecommendedAction(String wire) {
        this.wire = wire;
    }

    /** As written in a status and a metric label: {@code ReseatCable}, ..., {@code None}. */
    public String wire() {
        return wire;
    }

    /** The action spelled {@code wire}; empty for anything else. */
    public static Optional<RecommendedAction> ofWire(String wire) {
        return Arrays.stream(values()).filter(a -> a.wire.equals(wire)).findFirst();
    }

    @Override
    public String toString() {
        return wire;
    }
}
