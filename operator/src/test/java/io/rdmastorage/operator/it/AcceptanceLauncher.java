package io.rdmastorage.operator.it;

import io.rdmastorage.testing.CommandResult;
import io.rdmastorage.testing.ImageFioLauncher;
import io.rdmastorage.testing.ProbeLauncher;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * The real node-probe, in-process, for every pod; an acceptance pod's probe also gets the node's
 * stub fio ({@link #fioOf}, beside the node's fixture host root), as the probe image has its own fio
 * ({@link ImageFioLauncher}, which the demo uses too).
 */
final class AcceptanceLauncher implements ProbeLauncher {

    private final ProbeLauncher real = new ImageFioLauncher();

    /** Where the stub fio of the node with this fixture host root is. */
    static Path fioOf(Path hostRoot) {
        return ImageFioLauncher.fioOf(hostRoot);
    }

    @Override
    public CommandResult launch(List<String> args, Map<String, String> env) throws InterruptedException {
        return real.launch(args, env);
    }
}
