package io.rdmastorage.testing;

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
 * The API server's audit log of one identity's requests, or of everyone's (Metadata level): what a
 * component really asked of the server, counted by the server itself, not by the client. Start a
 * control plane with {@code --audit-policy-file} (see {@link #policyFor}, {@link #POLICY_FOR_EVERYONE})
 * and {@code --audit-log-path}.
 */
public final class AuditLog {

    public static final Set<String> WRITE_VERBS = Set.of("create", "update", "patch", "delete", "deletecollection");

    /** An audit policy recording every identity's requests at Metadata level. */
    public static final String POLICY_FOR_EVERYONE = """
            apiVersion: audit.k8s.io/v1
            kind: Policy
            omitStages: [RequestReceived]
            rules:
              - level: Metadata
            """;

    /**
     * One request: when the server received it, verb, API group ("" for core), resource[/subresource],
     * namespace ("" for cluster-scoped objects and requests across all namespaces), HTTP status, who
     * sent it (user name and the client's user agent, which tells the controllers apart when they share
     * one identity), and the object's name ("" for collections).
     */
    public record Request(Instant received, String verb, String apiGroup, String resource, String namespace, int code,
                          String user, String userAgent, String name) {
        public boolean write() {
            return WRITE_VERBS.contains(verb);
        }

        public String key() {
            return verb + " " + resource;
        }
    }

    private final Path file;
    private final String user;

    /** {@code user}'s requests in the log at {@code file}. */
    public AuditLog(Path file, String user) {
        this.file = file;
        this.user = user;
    }

    /** Everyone's requests in the log at {@code file}. */
    public static AuditLog everyone(Path file) {
        return new AuditLog(file, null);
    }

    /** An audit policy file recording, at Metadata level, only {@code user}'s requests. */
    public static String policyFor(String user) {
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

    /** The user's (or everyone's) requests received in [from, to), each once (a watch logs two stages). */
    public List<Request> requests(Instant from, Instant to) {
        ObjectMapper json = new ObjectMapper();
        List<Request> requests = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        try (BufferedReader in = Files.newBufferedReader(file)) {
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                JsonNode event = json.readTree(line);
                String username = event.path("user").path("username").asText();
                if ((user != null && !user.equals(username)) || !seen.add(event.path("auditID").asText())) {
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
                requests.add(new Request(received, event.path("verb").asText(), ref.path("apiGroup").asText(""),
                        sub.isEmpty() ? resource : resource + "/" + sub, ref.path("namespace").asText(""),
                        event.path("responseStatus").path("code").asInt(), username, event.path("userAgent").asText(""),
                        ref.path("name").asText("")));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return requests;
    }

    /** verb resource → count, sorted. */
    public static Map<String, Integer> byVerbAndResource(List<Request> requests) {
        Map<String, Integer> counts = new TreeMap<>();
        for (Request r : requests) {
            counts.merge(r.key(), 1, Integer::sum);
        }
        return counts;
    }
}
