package io.rdmastorage.operator.tools;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The Go tools the tests run (scripts/argocd-health, scripts/bundle-validate): each build.sh builds
 * its tool once per machine into a cache under the user's home, returns at once when it is there,
 * and prints the binary's path last. The Maven build starts them in the background before the tests
 * (build.sh --background) and runs the tests that use them last ({@link BackgroundBuilds}); a test builds on first use,
 * waiting for a build under way.
 */
public final class GoTools {

    private GoTools() {
    }

    /** The binary {@code buildScript} gives (building it if it is not cached yet). */
    public static Path binary(Path buildScript) {
        try {
            Process build = new ProcessBuilder("bash", buildScript.toString())
                    .redirectError(ProcessBuilder.Redirect.INHERIT).start();
            String out = new String(build.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            int exit = build.waitFor();
            List<String> lines = out.lines().toList();
            Path binary = lines.isEmpty() ? null : Path.of(lines.get(lines.size() - 1));
            if (exit != 0 || binary == null || !Files.isExecutable(binary)) {
                throw new IllegalStateException(buildScript + " gave no executable (exit " + exit + "): " + out);
            }
            return binary;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while running " + buildScript, e);
        }
    }
}
