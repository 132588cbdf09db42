package io.rdmastorage.testing;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** The real kubectl binary, pointed at one control plane through its kubeconfig file. */
public final class Kubectl {

    private static final Duration TIMEOUT = Duration.ofMinutes(2);

    private final Path binary;
    private final Path kubeconfig;

    public Kubectl(Path binary, Path kubeconfig) {
        this.binary = binary;
        this.kubeconfig = kubeconfig;
    }

    /** Runs {@code kubectl ARGS...}; never throws on a non-zero exit (see {@link CommandResult#orThrow}). */
    public CommandResult run(String... args) {
        return run(null, List.of(args));
    }

    /** Runs kubectl with {@code stdin} as its standard input, e.g. {@code apply -f -}. */
    public CommandResult runWithInput(String stdin, String... args) {
        return run(stdin, List.of(args));
    }

    public CommandResult apply(Path fileOrDirectory) {
        return run("apply", "-f", fileOrDirectory.toString());
    }

    public CommandResult applyYaml(String yaml) {
        return runWithInput(yaml, "apply", "-f", "-");
    }

    /**
     * Waits until each CRD ({@code crd/NAME}) is Established, within {@code timeout}; throws naming
     * them otherwise. kubectl's wait fails at once instead of waiting when it reads a CRD whose
     * status has no conditions yet (".status.conditions accessor error: <nil> is of the type <nil>"),
     * which a slow API server shows right after the apply: that answer is asked again.
     */
    public void awaitEstablished(Duration timeout, String... crds) {
        List<String> args = new ArrayList<>(List.of("wait", "--for=condition=Established", "--timeout=" + timeout.toSeconds() + "s"));
        args.addAll(List.of(crds));
        String what = "CRDs " + String.join(", ", crds) + " Established";
        Await.until(timeout, Duration.ofMillis(200), () -> run(null, args),
                result -> result.succeeded() || !result.stderr().contains("accessor error"), what).orThrow(what);
    }

    private CommandResult run(String stdin, List<String> args) {
        List<String> command = new ArrayList<>();
        command.add(binary.toString());
        command.add("--kubeconfig=" + kubeconfig);
        command.addAll(args);
        return Commands.run(TIMEOUT, stdin, command);
    }
}
