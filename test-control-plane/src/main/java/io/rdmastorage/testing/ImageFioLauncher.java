package io.rdmastorage.testing;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * node-probe in this JVM for every pod, an acceptance pod's probe also given the probe image's fio:
 * the stub fio at {@link #fioOf} beside the node's fixture host root (the image's fio is not the
 * host's, so it is not under the host root), passed as {@code --tool fio=PATH}; the verbs target's
 * pods also get the stub {@code ib_write_lat} and {@code ib_write_bw} beside it.
 */
public final class ImageFioLauncher implements ProbeLauncher {

    private final ProbeLauncher real = new InProcessProbeLauncher();

    /** Where the stub fio of the node with this fixture host root is. */
    public static Path fioOf(Path hostRoot) {
        return hostRoot.resolveSibling(hostRoot.getFileName() + "-image").resolve("fio");
    }

    @Override
    public CommandResult launch(List<String> args, Map<String, String> env) throws InterruptedException {
        if (args.isEmpty() || !args.get(0).startsWith("acceptance")) {
            return real.launch(args, env);
        }
        int root = args.lastIndexOf("--host-root");
        Path fio = fioOf(Path.of(args.get(root + 1)));
        List<String> withTools = new ArrayList<>(args);
        withTools.addAll(List.of("--tool", "fio=" + fio));
        if (!args.get(0).equals("acceptance")) {
            // the verbs target's two sides (acceptance-server, acceptance-client): perftest from the image too
            for (String perftest : List.of("ib_write_lat", "ib_write_bw")) {
                withTools.addAll(List.of("--tool", perftest + "=" + fio.resolveSibling(perftest)));
            }
        }
        return real.launch(withTools, env);
    }
}
