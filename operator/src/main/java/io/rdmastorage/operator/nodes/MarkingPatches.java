package io.rdmastorage.operator.nodes;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeCondition;
import io.fabric8.kubernetes.api.model.Taint;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The difference between a Node as it is and the markings one profile wants, as at most two
 * patches; empty when nothing differs, so an unchanged verdict costs no API write. Pure.
 *
 * <ul>
 *   <li>metadata + spec: a JSON merge patch. Labels merge key by key, so other labels are never
 *   touched. Taints are an atomic list in the Node API (no merge key, no per-entry ownership for
 *   server-side apply), so when they change the patch carries the whole list and the Node's
 *   {@code resourceVersion}: the API server refuses it with 409 Conflict if anyone (kubelet,
 *   {@code kubectl taint}, another profile) changed the Node since we read it.</li>
 *   <li>status: a strategic merge patch of {@code status.conditions}, which Kubernetes merges by
 *   {@code type}; the kubelet's conditions (Ready, MemoryPressure, ...) and other profiles' stay
 *   as they are, and {@code $patch: delete} removes exactly our entry.</li>
 * </ul>
 */
public final class MarkingPatches {

    private static final ObjectMapper JSON = new ObjectMapper();

    private MarkingPatches() {
    }

    /** The JSON merge patch for labels and taints, if anything differs. */
    public static Optional<ObjectNode> metadataPatch(Node node, DesiredMarkings desired) {
        ObjectNode patch = JSON.createObjectNode();
        String key = desired.key();

        Map<String, String> labels = node.getMetadata().getLabels();
        String currentLabel = labels == null ? null : labels.get(key);
        if (!Objects.equals(currentLabel, desired.labelValue())) {
            ObjectNode labelPatch = patch.putObject("metadata").putObject("labels");
            if (desired.labelValue() == null) {
                labelPatch.putNull(key);
            } else {
                labelPatch.put(key, desired.labelValue());
            }
        }

        List<Taint> current = node.getSpec() == null || node.getSpec().getTaints() == null
                ? List.of() : node.getSpec().getTaints();
        List<Taint> ours = current.stream().filter(t -> key.equals(t.getKey())).toList();
        boolean taintsMatch = desired.taint() == null
                ? ours.isEmpty()
                : ours.size() == 1 && sameTaint(ours.get(0), desired.taint());
        DesiredMarkings.Startup startup = desired.startup();
        boolean startupMatches = startup == null || key.equals(startup.key())
                || current.stream().anyMatch(t -> startup.key().equals(t.getKey())) != startup.lift();
        if (!taintsMatch || !startupMatches) {
            List<Taint> wanted = new ArrayList<>(current.stream().filter(t -> !key.equals(t.getKey())).toList());
            if (desired.taint() != null) {
                wanted.add(desired.taint());
            }
            if (!startupMatches && startup.lift()) {
                wanted.removeIf(t -> startup.key().equals(t.getKey()));
            } else if (!startupMatches) {
                wanted.add(startup.put());
            }
            ObjectNode spec = patch.putObject("spec");
            if (wanted.isEmpty()) {
                spec.putNull("taints");
            } else {
                ArrayNode list = spec.putArray("taints");
                wanted.forEach(t -> list.add(JSON.valueToTree(t)));
            }
            // The list replaces the Node's whole list: only valid against the version we read.
            ObjectNode metadata = patch.has("metadata") ? (ObjectNode) patch.get("metadata") : patch.putObject("metadata");
            metadata.put("resourceVersion", node.getMetadata().getResourceVersion());
        }
        return patch.isEmpty() ? Optional.empty() : Optional.of(patch);
    }

    /**
     * The strategic merge patch for our Node condition, if it differs. {@code lastTransitionTime}
     * moves only when the status does; {@code lastHeartbeatTime} is refreshed with every write and,
     * when nothing else changed, once it is older than {@code heartbeatRefresh} (like the kubelet,
     * which refreshes unchanged conditions only every few minutes).
     */
    public static Optional<ObjectNode> statusPatch(Node node, DesiredMarkings desired, Instant now,
                                                   Duration heartbeatRefresh) {
        NodeCondition current = currentCondition(node, desired.key());
        if (desired.conditionStatus() == null) {
            if (current == null) {
                return Optional.empty();
            }
            ObjectNode patch = JSON.createObjectNode();
            ObjectNode entry = patch.putObject("status").putArray("conditions").addObject();
            entry.put("type", desired.key());
            entry.put("$patch", "delete");
            return Optional.of(patch);
        }

        boolean sameStatus = current != null && desired.conditionStatus().equals(current.getStatus());
        boolean unchanged = sameStatus
                && Objects.equals(desired.reason(), current.getReason())
                && Objects.equals(desired.message(), current.getMessage())
                && !olderThan(current.getLastHeartbeatTime(), now, heartbeatRefresh)
                && current.getLastTransitionTime() != null;
        if (unchanged) {
            return Optional.empty();
        }
        String nowText = now.truncatedTo(ChronoUnit.SECONDS).toString();
        ObjectNode patch = JSON.createObjectNode();
        ObjectNode entry = patch.putObject("status").putArray("conditions").addObject();
        entry.put("type", desired.key());
        entry.put("status", desired.conditionStatus());
        putOrNull(entry, "reason", desired.reason());
        putOrNull(entry, "message", desired.message());
        entry.put("lastHeartbeatTime", nowText);
        entry.put("lastTransitionTime",
                sameStatus && current.getLastTransitionTime() != null ? current.getLastTransitionTime() : nowText);
        return Optional.of(patch);
    }

    /** Whether the Node carries any marking under this key (label, taint or condition). */
    public static boolean carriesMarkings(Node node, String key) {
        Map<String, String> labels = node.getMetadata().getLabels();
        if (labels != null && labels.containsKey(key)) {
            return true;
        }
        if (node.getSpec() != null && node.getSpec().getTaints() != null
                && node.getSpec().getTaints().stream().anyMatch(t -> key.equals(t.getKey()))) {
            return true;
        }
        return currentCondition(node, key) != null;
    }

    static NodeCondition currentCondition(Node node, String type) {
        if (node.getStatus() == null || node.getStatus().getConditions() == null) {
            return null;
        }
        return node.getStatus().getConditions().stream()
                .filter(c -> type.equals(c.getType()))
                .findFirst().orElse(null);
    }

    private static boolean sameTaint(Taint a, Taint b) {
        return Objects.equals(a.getKey(), b.getKey())
                && Objects.equals(a.getValue(), b.getValue())
                && Objects.equals(a.getEffect(), b.getEffect());
    }

    private static boolean olderThan(String timestamp, Instant now, Duration age) {
        if (timestamp == null) {
            return true;
        }
        try {
            return Instant.parse(timestamp).plus(age).isBefore(now);
        } catch (DateTimeParseException e) {
            return true;
        }
    }

    private static void putOrNull(ObjectNode node, String field, String value) {
        if (value == null) {
            node.putNull(field);
        } else {
            node.put(field, value);
        }
    }
}
