package io.rdmastorage.operator.it;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.CustomResourceDefinitionContext;
import io.fabric8.kubernetes.client.server.mock.KubernetesMixedDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.fabric8.mockwebserver.dsl.HttpMethod;
import io.fabric8.mockwebserver.http.Buffer;
import io.fabric8.mockwebserver.http.Dispatcher;
import io.fabric8.mockwebserver.http.Headers;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import io.fabric8.mockwebserver.http.Response;
import io.fabric8.mockwebserver.http.WebSocket;
import io.fabric8.mockwebserver.http.WebSocketListener;
import io.rdmastorage.operator.api.RdmaStorageNode;
import io.rdmastorage.operator.api.RdmaStorageProfile;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;

/**
 * The fabric8 mock API server (CRUD mode: objects are stored, watched and patched) with scripted
 * faults in front of it, for what a real API server will not do on demand: answer 429 with
 * Retry-After, 500/503, 409 Conflict, close a watch with 410 Gone, answer late. A fault matches
 * requests by method and path and answers the next {@code times} of them instead of the store;
 * every request and what it was answered is recorded.
 */
final class FaultyApiServer implements AutoCloseable {

    /** One request as it was answered: by a fault, or by the store; {@code body} as it was sent. */
    record Request(Instant at, String method, String path, int code, boolean faulted, String body) {
    }

    private static final ObjectMapper JSON = new ObjectMapper();

    private final List<Fault> faults = new CopyOnWriteArrayList<>();
    private final List<Request> requests = new CopyOnWriteArrayList<>();
    private final List<Closable> watches = new CopyOnWriteArrayList<>();
    private final KubernetesMockServer server;
    private final KubernetesMixedDispatcher store;

    FaultyApiServer() {
        store = new KubernetesMixedDispatcher(new HashMap<>(), List.of(
                context(RdmaStorageProfile.class, "rdmastorageprofiles"), context(RdmaStorageNode.class, "rdmastoragenodes")));
        Dispatcher dispatcher = new Dispatcher() {
            @Override
            public MockResponse dispatch(RecordedRequest request) {
                for (Fault fault : faults) {
                    if (fault.takes(request)) {
                        MockResponse response = fault.answer.get();
                        requests.add(new Request(Instant.now(), request.getMethod(), request.getPath(),
                                fault.code, true, body(request)));
                        return response;
                    }
                }
                String sent = body(request);
                MockResponse response = store.dispatch(applied(request));
                if (response.getWebSocketListener() != null) {
                    response = response.withWebSocketUpgrade(new Closable(request.getPath(), response.getWebSocketListener()));
                }
                requests.add(new Request(Instant.now(), request.getMethod(), request.getPath(),
                        response.code(), false, sent));
                return response;
            }
        };
        server = new KubernetesMockServer(new Context(), new MockWebServer(), new HashMap<>(), dispatcher, false);
        server.init();
    }

    /**
     * The mock store knows no server-side apply, which the operator uses for every write it owns,
     * and merges lists where a merge patch replaces them. So every apply, strategic-merge and merge
     * patch is applied here as RFC 7386 says, and the result stored with an update; an apply of an
     * object that does not exist yet creates it. (The operator's applies and the simulated kubelet's
     * patches name whole lists, so a merge patch stores what they would.)
     */
    private RecordedRequest applied(RecordedRequest request) {
        String type = request.getHeader("Content-Type");
        if (!"PATCH".equalsIgnoreCase(request.getMethod()) || type == null || type.startsWith("application/json-patch")) {
            return request;
        }
        String path = request.getPath().replaceFirst("\\?.*$", "");
        boolean status = path.endsWith("/status");
        String object = status ? path.substring(0, path.length() - "/status".length()) : path;
        Headers json = request.getHeaders().newBuilder().set("Content-Type", "application/json").build();
        MockResponse current = store.dispatch(new RecordedRequest("HTTP/1.1", HttpMethod.GET, object, request.getHeaders(),
                new Buffer()));
        if (current.code() == 404 && !status && type.startsWith("application/apply-patch")) {
            return new RecordedRequest("HTTP/1.1", HttpMethod.POST, object.substring(0, object.lastIndexOf('/')), json,
                    new Buffer(request.getBody().getBytes()));
        }
        if (current.code() != 200) {
            return request;
        }
        try {
            JsonNode stored = JSON.readTree(current.getBody().readUtf8());
            JsonNode merged = merge(stored.deepCopy(), JSON.readTree(request.getBody().getBytes()));
            ((ObjectNode) merged.get("metadata")).set("resourceVersion", stored.get("metadata").get("resourceVersion"));
            return new RecordedRequest("HTTP/1.1", HttpMethod.PUT, path, json,
                    new Buffer(JSON.writeValueAsBytes(merged)));
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static String body(RecordedRequest request) {
        return request.getBody() == null ? "" : new String(request.getBody().getBytes(), java.nio.charset.StandardCharsets.UTF_8);
    }

    /** RFC 7386: objects merged key by key, null removes, anything else (lists too) replaces. */
    private static JsonNode merge(JsonNode target, JsonNode patch) {
        if (!patch.isObject()) {
            return patch;
        }
        ObjectNode result = target != null && target.isObject() ? (ObjectNode) target : JSON.createObjectNode();
        patch.fields().forEachRemaining(e -> {
            if (e.getValue().isNull()) {
                result.remove(e.getKey());
            } else {
                result.set(e.getKey(), merge(result.get(e.getKey()), e.getValue()));
            }
        });
        return result;
    }

    private static CustomResourceDefinitionContext context(Class<?> type, String plural) {
        return new CustomResourceDefinitionContext.Builder().withGroup("rdmastorage.io").withVersion("v1alpha1")
                .withKind(type.getSimpleName()).withPlural(plural).withScope("Cluster").withStatusSubresource(true)
                .build();
    }

    /** A client of this server; {@code requestTimeout} bounds each request (a slow answer fails it). */
    KubernetesClient client(Duration requestTimeout) {
        return server.createClient(b -> b.editOrNewConfig()
                .withRequestTimeout((int) requestTimeout.toMillis())
                // few, quick retries of the client's own: the operator's handling is what is under test
                .withRequestRetryBackoffInterval(100)
                .withRequestRetryBackoffLimit(3)
                .endConfig());
    }

    /**
     * Answers the next {@code times} requests of {@code method} whose path matches with {@code code}
     * and a Status body; {@code retryAfterSeconds} > 0 adds a Retry-After header, {@code delay} holds
     * the answer back.
     */
    void fail(String method, Predicate<String> path, int times, int code, int retryAfterSeconds, Duration delay) {
        faults.add(new Fault(method, path, times, code, () -> {
            MockResponse response = new MockResponse().setResponseCode(code)
                    .setHeader("Content-Type", "application/json")
                    .setBody("{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"status\":\"Failure\",\"code\":" + code
                            + ",\"reason\":\"" + reason(code) + "\",\"message\":\"injected by the test\"}");
            if (retryAfterSeconds > 0) {
                response.setHeader("Retry-After", retryAfterSeconds);
            }
            if (!delay.isZero()) {
                response.setBodyDelay(delay);
            }
            return response;
        }));
    }

    /**
     * Answers the next {@code times} watch requests whose path matches with a watch that opens and
     * then never says anything: the watcher believes it is up to date while the objects change.
     */
    void stallWatch(Predicate<String> path, int times) {
        faults.add(new Fault("GET", p -> p.contains("watch=true") && path.test(p), times, 101,
                () -> new MockResponse().withWebSocketUpgrade(new WebSocketListener() { })));
    }

    /**
     * Answers the next {@code times} watch requests whose path matches as a real API server answers a
     * watch from a resourceVersion etcd has compacted away: the watch opens, sends an ERROR event
     * holding a 410 Gone Status, and closes; the watcher must list again.
     */
    void goneWatch(Predicate<String> path, int times) {
        String gone = "{\"type\":\"ERROR\",\"object\":{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"status\":\"Failure\","
                + "\"code\":410,\"reason\":\"Expired\",\"message\":\"too old resource version\"}}";
        faults.add(new Fault("GET", p -> p.contains("watch=true") && path.test(p), times, 410,
                () -> new MockResponse().withWebSocketUpgrade(new WebSocketListener() {
                    @Override
                    public void onOpen(WebSocket webSocket, Response response) {
                        webSocket.send(gone);
                        webSocket.close(1000, "gone");
                    }
                })));
    }

    void fail(String method, Predicate<String> path, int times, int code) {
        fail(method, path, times, code, 0, Duration.ZERO);
    }

    /**
     * Closes the open watches whose path matches, as an API server does on a restart or a timeout:
     * their clients resume from their last resourceVersion (and meet any fault scripted for that).
     */
    void closeWatches(Predicate<String> path) {
        for (Closable watch : watches) {
            if (path.test(watch.path) && watch.socket != null) {
                watch.socket.close(1000, "closed by the test");
            }
        }
    }

    /** How many requests a fault has still to answer (0 once it has answered all of them). */
    int pending() {
        return faults.stream().mapToInt(f -> Math.max(0, f.left.get())).sum();
    }

    List<Request> requests() {
        return List.copyOf(requests);
    }

    private static String reason(int code) {
        return switch (code) {
            case 409 -> "Conflict";
            case 410 -> "Expired";
            case 429 -> "TooManyRequests";
            case 500 -> "InternalError";
            case 503 -> "ServiceUnavailable";
            default -> "Unknown";
        };
    }

    @Override
    public void close() {
        server.destroy();
    }

    /** The store's watch, which the test can close. */
    private final class Closable extends WebSocketListener {

        final String path;
        final WebSocketListener store;
        volatile WebSocket socket;

        Closable(String path, WebSocketListener store) {
            this.path = path;
            this.store = store;
        }

        @Override
        public void onOpen(WebSocket webSocket, Response response) {
            socket = webSocket;
            watches.add(this);
            store.onOpen(webSocket, response);
        }

        @Override
        public void onMessage(WebSocket webSocket, String text) {
            store.onMessage(webSocket, text);
        }

        @Override
        public void onClosing(WebSocket webSocket, int code, String reason) {
            store.onClosing(webSocket, code, reason);
        }

        @Override
        public void onClosed(WebSocket webSocket, int code, String reason) {
            watches.remove(this);
            store.onClosed(webSocket, code, reason);
        }
    }

    private static final class Fault {

        final String method;
        final Predicate<String> path;
        final AtomicInteger left;
        final int code;
        final java.util.function.Supplier<MockResponse> answer;

        Fault(String method, Predicate<String> path, int times, int code, java.util.function.Supplier<MockResponse> answer) {
            this.method = method;
            this.path = path;
            this.left = new AtomicInteger(times);
            this.code = code;
            this.answer = answer;
        }

        boolean takes(RecordedRequest request) {
            return method.equalsIgnoreCase(request.getMethod()) && path.test(request.getPath())
                    && left.getAndDecrement() > 0;
        }
    }
}
