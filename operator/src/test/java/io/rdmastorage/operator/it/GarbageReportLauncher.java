package io.rdmastorage.operator.it;

import io.rdmastorage.testing.CommandResult;
import io.rdmastorage.testing.InProcessProbeLauncher;
import io.rdmastorage.testing.ProbeLauncher;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The real probe, except on chosen nodes, where the container writes garbage as its termination
 * message: what a broken or mismatched probe image would do. The operator must not trust it.
 */
final class GarbageReportLauncher implements ProbeLauncher {

    static final String GARBAGE = "Segmentation fault (core dumped)\n\u0000\u0001{\"apiVersion\":";

    private final ProbeLauncher real = new InProcessProbeLauncher();
    private final Set<String> garbageNodes;

    GarbageReportLauncher(Set<String> garbageNodes) {
        this.garbageNodes = garbageNodes;
    }

    @Override
    public CommandResult launch(List<String> args, Map<String, String> env) throws InterruptedException {
        String hostRoot = valueOf(args, "--host-root");
        if (hostRoot != null && garbageNodes.contains(Path.of(hostRoot).getFileName().toString())) {
            String output = valueOf(args, "--output");
            try {
                Files.writeString(Path.of(output), GARBAGE);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            return new CommandResult(1, "", "");
        }
        return real.launch(args, env);
    }

    private static String valueOf(List<String> args, String option) {
        int i = args.indexOf(option);
        return i >= 0 && i + 1 < args.size() ? args.get(i + 1) : null;
    }
}
