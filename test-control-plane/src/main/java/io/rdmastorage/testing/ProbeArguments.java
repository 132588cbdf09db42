package io.rdmastorage.testing;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * Rewrites a probe container's node-probe arguments so that the probe can run outside a pod, on
 * behalf of one simulated node: {@code --host-root} becomes the node's fixture directory,
 * {@code --exec-mode} is forced to {@code direct} (fixtures are plain folders, no chroot),
 * {@code --output} goes to local files, and {@code --spec FILE} is resolved through the pod's volumes.
 * Every other argument is passed through unchanged.
 */
public final class ProbeArguments {

    private ProbeArguments() {
    }

    /**
     * @param args              the container's args, after {@code $(VAR)} expansion
     * @param hostRoot          the node's fixture host root
     * @param terminationPath   the container's {@code terminationMessagePath}
     * @param terminationFile   where writes to {@code terminationPath} go
     * @param otherOutput       where an {@code --output} to any other path goes
     * @param resolveFile       container path to local file; empty leaves the path as written
     */
    public static List<String> translate(List<String> args, Path hostRoot, String terminationPath, Path terminationFile,
                                         Path otherOutput, Function<String, Optional<Path>> resolveFile) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < args.size(); i++) {
            String arg = args.get(i);
            String option = arg;
            String value = null;
            int eq = arg.indexOf('=');
            if (arg.startsWith("--") && eq > 0) {
                option = arg.substring(0, eq);
                value = arg.substring(eq + 1);
            }
            boolean rewritten = switch (option) {
                case "--host-root", "--exec-mode", "--output", "--spec" -> true;
                default -> false;
            };
            if (!rewritten) {
                out.add(arg);
                continue;
            }
            if (value == null) {
                if (i + 1 >= args.size()) {
                    out.add(arg); // let node-probe report the missing value
                    continue;
                }
                value = args.get(++i);
            }
            switch (option) {
                case "--output" -> {
                    out.add("--output");
                    out.add((value.equals(terminationPath) ? terminationFile : otherOutput).toString());
                }
                case "--spec" -> {
                    out.add("--spec");
                    out.add(value.equals("-") ? value : resolveFile.apply(value).map(Path::toString).orElse(value));
                }
                default -> {
                    // --host-root and --exec-mode are replaced below
                }
            }
        }
        out.add("--host-root");
        out.add(hostRoot.toString());
        out.add("--exec-mode");
        out.add("direct");
        return out;
    }
}
