package io.rdmastorage.benchmark;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The API server's audit log of the operator's requests (one identity, Metadata level): the
 * requests come from the server itself, not from a count the client keeps.
 */
final class AuditLog {

    static final Set<String> WRITE_VERBS = Set.of("create", "update", "patch", "delete", "deletecollection");

    /** One request: when the server received it, verb, resource[/subresource], HTTP status. */
    record Request(Instant received, String verb, String resource, int code) {
        boolean write() {
            return WRITE_VERBS.contains(verb);
        }

        String key() {
            return verb + " " + resource;
        }
    }

    private final Path file;
    private final String user;

    AuditLog(Path file, String user) {
        this.file = file;
        this.user = user;
    }

    /** An audit policy file recording, at Metadata level, only {@code user}'s requests. */
    static String policyFor(String user) {
        return """
                apiVersion: audit.k8s.io/v1
                kind: Policy
                omitStages: [RequestReceived]
                rules:
                  - level: Metadata
                    users: ["%s"]
                  - level: None
                """.formatted(user);
    }

    /** The user's requests received in [from, to), each once (a watch logs two stages). */
    List<Request> requests(Instant from, Instant to) {
        ObjectMapper json = new ObjectMapper();
        List<Request> requests = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        try (BufferedReader in = Files.newBufferedReader(file)) {
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                JsonNode event = json.readTree(line);
                if (!user.equals(event.path("user").path("username").asText())
                        || !seen.add(event.path("auditID").asText())) {
                    continue;
                }
                Instant received = Instant.parse(event.path("requestReceivedTimestamp").asText());
                if (received.isBefore(from) || !received.isBefore(to)) {
                    continue;
                }
                JsonNode ref = event.path("objectRef");
                String resource = ref.path("resource").asText("");
                String sub = ref.path("subresource").asText("");
                if (resource.isEmpty()) {
                    resource = event.path("requestURI").asText();   // non-resource URLs (/version, /apis)
                }
                requests.add(new Request(received, event.path("verb").asText(), sub.isEmpty() ? resource : resource + "/" + sub,
                        event.path("responseStatus").path("code").asInt()));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return requests;
    }

    /** verb resource → count, sorted. */
    static Map<String, Integer> byVerbAndResource(List<Request> requests) {
        Map<String, Integer> counts = new TreeMap<>();
        for (Request r : requests) {
            counts.merge(r.key(), 1, Integer::sum);
        }
        return counts;
    }
}
