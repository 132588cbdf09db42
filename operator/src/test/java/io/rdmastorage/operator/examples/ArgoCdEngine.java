package io.rdmastorage.operator.examples;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rdmastorage.operator.tools.GoTools;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;

/**
 * Argo CD's own health evaluation, as a process: scripts/argocd-health, built from Argo CD's Go
 * module (scripts/argocd-health/build.sh, cached under the user's home). Each request gives it an
 * argocd-cm ConfigMap and a resource; it answers what Argo CD's application controller would show:
 * the overrides read by Argo CD's settings manager, the script run by Argo CD's Lua VM (gopher-lua
 * in Argo CD's sandbox, the {@code useOpenLibs} switch included), the result checked as Argo CD
 * checks it (an invalid status code becomes Unknown).
 *
 * <p>One process serves the whole test JVM; requests are serialised.
 */
final class ArgoCdEngine {

    /** What Argo CD computed: a health, no health check for the kind (null health), or an error. */
    record Answer(Health health, String error) {
    }

    record Health(String status, String message) {
    }

    static final Path BUILD_SCRIPT = Path.of("../scripts/argocd-health/build.sh");
    private static final ObjectMapper JSON = new ObjectMapper();
    private static ArgoCdEngine shared;

    private final Process process;
    private final Writer requests;
    private final BufferedReader answers;

    private ArgoCdEngine(Path binary) throws IOException {
        process = new ProcessBuilder(binary.toString()).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        requests = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
        answers = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        Runtime.getRuntime().addShutdownHook(new Thread(process::destroy));
    }

    /** The engine of this JVM, built on first use if the Maven build has not built it yet. */
    static synchronized ArgoCdEngine shared() {
        if (shared == null) {
            try {
                shared = new ArgoCdEngine(GoTools.binary(BUILD_SCRIPT));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return shared;
    }

    /** The health Argo CD gives {@code object} with the health customizations of {@code argocdCm}. */
    synchronized Answer evaluate(Map<String, Object> argocdCm, Map<String, Object> object) {
        try {
            requests.write(JSON.writeValueAsString(Map.of("argocdCm", argocdCm, "object", object)));
            requests.write('\n');
            requests.flush();
            String line = answers.readLine();
            if (line == null) {
                throw new IllegalStateException("argocd-health exited (" + process.waitFor() + ") without answering");
            }
            JsonNode answer = JSON.readTree(line);
            if (answer.hasNonNull("error")) {
                return new Answer(null, answer.get("error").asText());
            }
            if (!answer.path("configured").asBoolean()) {
                return new Answer(null, null);
            }
            return new Answer(new Health(answer.path("status").asText(), answer.path("message").asText()), null);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** {@link #evaluate}, for a resource that must have a health: fails the test on an error or no health check. */
    Health health(Map<String, Object> argocdCm, Map<String, Object> object) {
        Answer answer = evaluate(argocdCm, object);
        if (answer.error() != null) {
            throw new AssertionError("Argo CD's health evaluation failed: " + answer.error());
        }
        if (answer.health() == null) {
            throw new AssertionError("argocd-cm has no health check for " + object.get("apiVersion") + " " + object.get("kind"));
        }
        return answer.health();
    }
}
