package io.rdmastorage.testing;

import io.rdmastorage.probe.cli.NodeProbe;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Calls node-probe's entry point in this JVM: the same code and arguments as the real jar without
 * a JVM start per probe, so a thousand simulated nodes fit in one test. The process environment
 * cannot be set in-process, so a {@code NODE_NAME} from the pod becomes {@code --node} when absent.
 */
public final class InProcessProbeLauncher implements ProbeLauncher {

    @Override
    public CommandResult launch(List<String> args, Map<String, String> env) {
        List<String> effective = new ArrayList<>(args);
        boolean hasNode = args.stream().anyMatch(a -> a.equals("--node") || a.startsWith("--node="));
        if (!hasNode && env.containsKey("NODE_NAME")) {
            effective.add("--node");
            effective.add(env.get("NODE_NAME"));
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit;
        try (PrintStream stdout = new PrintStream(out, true, StandardCharsets.UTF_8);
             PrintStream stderr = new PrintStream(err, true, StandardCharsets.UTF_8)) {
            exit = NodeProbe.run(effective, new ByteArrayInputStream(new byte[0]), stdout, stderr);
        }
        return new CommandResult(exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }
}
