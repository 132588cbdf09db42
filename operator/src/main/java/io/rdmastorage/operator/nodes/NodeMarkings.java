package io.rdmastorage.operator.nodes;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.rdmastorage.operator.config.ProfileSettings;
import java.net.HttpURLConnection;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Marks nodes with a profile's verdict, opt-in per profile: a label, a NoSchedule taint while the
 * verdict is False, and a Node condition (for remediation tools such as medik8s Node
 * Healthcheck). Everything lives under one key per profile, {@code rdmastorage.io/<profile>}
 * ({@link MarkingKey}), so removing a profile's markings never touches anyone else's.
 *
 * <p>The caller passes the Node as it knows it (the informer cache); a write happens only when
 * that differs from what the profile wants: at most one patch of metadata+spec and one of status.
 * A stale cache costs at most a 409 and one GET, never a lost change by someone else.
 */
public final class NodeMarkings {

    private static final Logger LOG = LoggerFactory.getLogger(NodeMarkings.class);

    /** How long an unchanged Node condition goes without a heartbeat write. */
    public static final Duration DEFAULT_HEARTBEAT_REFRESH = Duration.ofHours(1);
    private static final int MAX_ATTEMPTS = 5;

    /** What an apply or remove wrote. */
    public record Result(boolean metadataPatched, boolean statusPatched) {
        static final Result NONE = new Result(false, false);

        public int writes() {
            return (metadataPatched ? 1 : 0) + (statusPatched ? 1 : 0);
        }
    }

    private final KubernetesClient client;
    private final Clock clock;
    private final Duration heartbeatRefresh;

    public NodeMarkings(KubernetesClient client) {
        this(client, Clock.systemUTC(), DEFAULT_HEARTBEAT_REFRESH);
    }

    public NodeMarkings(KubernetesClient client, Clock clock, Duration heartbeatRefresh) {
        this.client = client;
        this.clock = clock;
        this.heartbeatRefresh = heartbeatRefresh;
    }

    /** Brings the node's markings for this profile in line with its settings and its verdict's Ready. */
    public Result apply(String profile, ProfileSettings settings, Node node, Condition ready) {
        return apply(profile, MarkingOptions.of(settings), node, ready);
    }

    /**
     * Brings the node's markings for this profile in line with the options and verdict; markings
     * of options that are off are removed.
     *
     * @param node    the Node as last seen (informer cache is fine)
     * @param ready   the {@code Ready} condition of the node's verdict for this profile, null when it has none yet
     * @return what was written; nothing when the node already carries the wanted markings
     */
    public Result apply(String profile, MarkingOptions options, Node node, Condition ready) {
        return converge(DesiredMarkings.of(profile, options, ready), node);
    }

    /** Removes exactly what this profile set on the node (label, taint, condition), nothing else. */
    public Result remove(String profile, Node node) {
        return converge(DesiredMarkings.none(profile), node);
    }

    /** Whether this profile left any marking on the node: for cleanup when a profile goes away. */
    public static boolean carriesMarkings(String profile, Node node) {
        return MarkingPatches.carriesMarkings(node, MarkingKey.of(profile));
    }

    private Result converge(DesiredMarkings desired, Node node) {
        String name = node.getMetadata().getName();
        boolean metadataPatched = false;
        Node current = node;
        for (int attempt = 1; ; attempt++) {
            Optional<ObjectNode> patch = MarkingPatches.metadataPatch(current, desired);
            if (patch.isEmpty()) {
                break;
            }
            try {
                current = client.nodes().withName(name)
                        .patch(PatchContext.of(PatchType.JSON_MERGE), patch.get().toString());
                metadataPatched = true;
                break;
            } catch (KubernetesClientException e) {
                if (e.getCode() == HttpURLConnection.HTTP_NOT_FOUND) {
                    return new Result(metadataPatched, false); // the node is gone, and its markings with it
                }
                if (e.getCode() != HttpURLConnection.HTTP_CONFLICT || attempt == MAX_ATTEMPTS) {
                    throw e;
                }
                LOG.debug("node {} changed under us; re-reading it (attempt {})", name, attempt);
                current = client.nodes().withName(name).get();
                if (current == null) {
                    return Result.NONE;
                }
            }
        }

        Optional<ObjectNode> statusPatch = MarkingPatches.statusPatch(current, desired, clock.instant(), heartbeatRefresh);
        if (statusPatch.isEmpty()) {
            return new Result(metadataPatched, false);
        }
        try {
            client.nodes().withName(name).subresource("status")
                    .patch(PatchContext.of(PatchType.STRATEGIC_MERGE), statusPatch.get().toString());
        } catch (KubernetesClientException e) {
            if (e.getCode() == HttpURLConnection.HTTP_NOT_FOUND) {
                return new Result(metadataPatched, false);
            }
            throw e;
        }
        return new Result(metadataPatched, true);
    }
}
