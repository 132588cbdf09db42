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
 * stub fio ({@link #fioOf}, beside the node's fixture host root), as the probe image has its own fio.
 */
final class AcceptanceLauncher implements ProbeLauncher {

    private final ProbeLauncher real = new InProcessProbeLauncher();

    /** Where the stub fio of the node with this fixture host root is. */
    static Path fioOf(Path hostRoot) {
        return hostRoot.resolveSibling(hostRoot.getFileName() + "-image").resolve("fio");
    }

    @Override
    public CommandResult launch(List<String> args, Map<String, String> env) throws InterruptedException {
        if (args.isEmpty() || !args.get(0).equals("acceptance")) {
            return real.launch(args, env);
        }
        int root = args.lastIndexOf("--host-root");
        List<String> withFio = new ArrayList<>(args);
        withFio.add("--tool");
        withFio.add("fio=" + fioOf(Path.of(args.get(root + 1))));
        return real.launch(withFio, env);
    }
}
