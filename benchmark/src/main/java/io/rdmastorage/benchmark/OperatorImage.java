package io.rdmastorage.benchmark;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The JVM options of the operator image, read from its Dockerfile's ENTRYPOINT, so that the
 * benchmark measures the operator as it is deployed (collector, JIT, class-data sharing): the
 * options between {@code java} and {@code -jar}, with the heap given explicitly (the image sizes it
 * from the pod's memory limit, which a process on this machine does not have).
 */
final class OperatorImage {

    private static final Pattern ENTRYPOINT = Pattern.compile("(?m)^ENTRYPOINT\\s*\\[(.*?)]\\s*$", Pattern.DOTALL);
    private static final Pattern QUOTED = Pattern.compile("\"([^\"]*)\"");

    private OperatorImage() {
    }

    /**
     * @param dockerfile the operator's Dockerfile
     * @param heap the heap to run with ({@code -Xmx}): what the chart's memory limit gives the image
     * @return the JVM options, heap first, ready for the java command line
     */
    static List<String> jvmOptions(Path dockerfile, String heap) throws IOException {
        Matcher entrypoint = ENTRYPOINT.matcher(Files.readString(dockerfile).replace("\\\n", " "));
        if (!entrypoint.find()) {
            throw new IllegalStateException("no exec-form ENTRYPOINT in " + dockerfile);
        }
        List<String> words = new ArrayList<>();
        Matcher quoted = QUOTED.matcher(entrypoint.group(1));
        while (quoted.find()) {
            words.add(quoted.group(1));
        }
        int jar = words.indexOf("-jar");
        if (words.isEmpty() || !words.get(0).equals("java") || jar < 0) {
            throw new IllegalStateException("the ENTRYPOINT of " + dockerfile + " is not java ... -jar: " + words);
        }
        List<String> options = new ArrayList<>(List.of("-Xmx" + heap));
        words.subList(1, jar).stream().filter(o -> !o.startsWith("-XX:MaxRAMPercentage") && !o.startsWith("-Xmx"))
                .forEach(options::add);
        return options;
    }
}
