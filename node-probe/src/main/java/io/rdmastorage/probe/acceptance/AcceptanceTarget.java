package io.rdmastorage.probe.acceptance;

import io.rdmastorage.contract.spec.AcceptanceSpec;
import java.util.List;

/**
 * What an acceptance run measures on this node, one type per target (the spec's {@code nvmeof},
 * {@code path} or {@code verbs} section), as the operator's {@code AcceptanceTarget} has them: each
 * measures its target over its transports into the rows of one {@link AcceptanceReport}. Adding a
 * target is one implementation here and one in the operator: docs/adding-an-acceptance-target.md.
 */
public sealed interface AcceptanceTarget permits NvmeofSubsystem, PathDirectory, VerbsPeer {

    /**
     * What measuring a target gave; {@code AcceptanceReport} adds the node, version and timing.
     *
     * @param transports      one row per transport measured
     * @param disconnected    controllers the run connected and disconnected again
     * @param cleanupProblems what the run could not undo (a controller left connected, its file left behind)
     * @param toolVersions    the measuring tools' versions as they reported them
     */
    record Result(List<AcceptanceReport.TransportRun> transports, List<String> disconnected,
                    List<String> cleanupProblems, String toolVersions) {
    }

    /** Measures the target: each transport in turn, or the one its file system uses. */
    Result measure();

    /**
     * The target of node-probe's {@code acceptance} command: the spec's {@code path} or
     * {@code nvmeof} section (the verbs target has commands of its own, {@link VerbsPeer}).
     */
    static AcceptanceTarget of(AcceptanceSpec spec, TargetTools tools) {
        return spec.path() != null ? new PathDirectory(tools, spec) : new NvmeofSubsystem(tools, spec);
    }
}
