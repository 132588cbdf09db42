package io.rdmastorage.testing;

import java.util.List;
import java.util.Map;

/** Runs node-probe with already translated arguments, as one simulated container. */
@FunctionalInterface
public interface ProbeLauncher {

    /** Runs the probe and returns its exit code and output; interrupting the thread stops it. */
    CommandResult launch(List<String> args, Map<String, String> env) throws InterruptedException;
}
