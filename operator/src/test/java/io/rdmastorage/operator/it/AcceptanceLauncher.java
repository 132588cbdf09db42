package io.rdmastorage.operator.it;

import io.rdmastorage.testing.CommandResult;
import io.rdmastorage.testing.InProcessProbeLauncher;
import io.rdmastorage.testing.ProbeLauncher;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The real node-probe, in-process, for every pod; an acceptance pod's probe also gets the node's
 * stub fio ({@link #fioOf}, beside the node's fixture host root), as the probe image has its own fio,
 * and the verbs target's pods the stub perftest beside it.
 */
final class AcceptanceLauncher implements ProbeLauncher {

    private final ProbeLauncher real = new InProcessProbeLauncher();

    /** Where the stub fio of the node with this fixture host root is. */
    static Path fioOf(Path hostRoot) {
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
            // the verbs target's two sides: perftest from the image too (VerbsFixtures)
            for (String perftest : List.of("ib_write_lat", "ib_write_bw")) {
                withTools.addAll(List.of("--tool", perftest + "=" + fio.resolveSibling(perftest)));
            }
        }
        return real.launch(withTools, env);
    }
}
