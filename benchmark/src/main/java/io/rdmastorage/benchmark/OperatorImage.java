package io.rdmastorage.benchmark;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The JVM options of the operator image, read from its Dockerfile's ENTRYPOINT (with
 * {@code scripts/dockerfile-array.sh}, as the probe image's builds read theirs), so that the
 * benchmark measures the operator as it is deployed: the options between {@code java} and
 * {@code -jar}, with the heap given explicitly (the image sizes it from the pod's memory limit,
 * which a process on this machine does not have).
 */
final class OperatorImage {

    private OperatorImage() {
    }

    /**
     * @param repository the repository's root (for {@code scripts/dockerfile-array.sh})
     * @param dockerfile the operator's Dockerfile
     * @param heap the heap to run with ({@code -Xmx}): what the chart's memory limit gives the image
     * @return the JVM options, heap first, ready for the java command line
     */
    static List<String> jvmOptions(Path repository, Path dockerfile, String heap) throws IOException, InterruptedException {
        Process words = new ProcessBuilder("sh", repository.resolve("scripts/dockerfile-array.sh").toString(), "ENTRYPOINT",
                dockerfile.toString()).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        String out = new String(words.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (words.waitFor() != 0) {
            throw new IllegalStateException("scripts/dockerfile-array.sh failed on " + dockerfile);
        }
        List<String> entrypoint = out.lines().toList();
        int jar = entrypoint.indexOf("-jar");
        if (entrypoint.isEmpty() || !entrypoint.get(0).equals("java") || jar < 0) {
            throw new IllegalStateException("the ENTRYPOINT of " + dockerfile + " is not java ... -jar: " + entrypoint);
        }
        List<String> options = new ArrayList<>(List.of("-Xmx" + heap));
        entrypoint.subList(1, jar).stream().filter(o -> !o.startsWith("-XX:MaxRAMPercentage") && !o.startsWith("-Xmx"))
                .forEach(options::add);
        return options;
    }
}
