package io.rdmastorage.probe.acceptance;

import io.rdmastorage.contract.spec.ProbeSpec;
import io.rdmastorage.probe.host.HostRoot;
import io.rdmastorage.probe.host.NvmeControllers;
import io.rdmastorage.probe.host.ToolResult;
import io.rdmastorage.probe.host.ToolRunner;
import io.rdmastorage.probe.parse.NvmeController;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The only place the acceptance run changes the node: NVMe-oF controllers it connects with the
 * host's {@code nvme connect} (argv, never a shell) and disconnects again. It remembers which
 * controllers it created and disconnects only those ({@code nvme disconnect -d nvmeN}): a controller
 * it did not create is never touched. {@link #close()} disconnects whatever of its own is still
 * connected; a JVM shutdown hook does the same when the pod is stopped (its deadline, its deletion)
 * in the middle of a run. Each connect is announced in the run's {@link AcceptanceJournal} first,
 * and its controller's name recorded there once it appeared, so that a run killed before it could
 * disconnect is undone by {@code acceptance-cleanup}, which disconnects through here too
 * ({@link #adopt}).
 */
public final class NvmeConnections implements AutoCloseable {

    /** A controller this run connected. */
    public record Connected(NvmeController controller) {
    }

    /** What an attempt to connect gave: the new controller, or why there is none. */
    public record Attempt(Optional<Connected> connected, String problem) {
    }

    private final HostRoot host;
    private final ToolRunner hostTools;
    private final AcceptanceJournal journal;
    private final Set<String> ours = new LinkedHashSet<>();
    private final List<String> disconnected = new ArrayList<>();
    private final List<String> problems = new ArrayList<>();
    private final Thread shutdownHook = new Thread(this::disconnectAll, "nvme-disconnect");

    public NvmeConnections(HostRoot host, ToolRunner hostTools) {
        this(host, hostTools, AcceptanceJournal.NONE);
    }

    /** @param journal where each connect is announced before it is made */
    public NvmeConnections(HostRoot host, ToolRunner hostTools, AcceptanceJournal journal) {
        this.host = host;
        this.hostTools = hostTools;
        this.journal = journal;
        Runtime.getRuntime().addShutdownHook(shutdownHook);
    }

    /**
     * {@code nvme connect -t TRANSPORT -a ADDRESS -s PORT -n NQN}, then the controller that appeared
     * for it: one that was not there before, of this transport, subsystem and address. The
     * journal hears of it before it is made; a connect the journal cannot record is not made.
     */
    public synchronized Attempt connect(ProbeSpec.Target target, String transport) {
        Set<String> before = names(NvmeControllers.list(host));
        String unrecorded = journal.connecting(transport, target, List.copyOf(before));
        if (!unrecorded.isEmpty()) {
            return new Attempt(Optional.empty(), unrecorded);
        }
        ToolResult result = hostTools.run("nvme", "connect", "-t", transport, "-a", target.address(),
                "-s", Integer.toString(target.port()), "-n", target.nqn());
        List<NvmeController> created = NvmeControllers.list(host).stream()
                .filter(c -> !before.contains(c.name()))
                .filter(c -> c.connects(transport, target.nqn(), target.address(), target.port()))
                .toList();
        created.forEach(c -> {
            ours.add(c.name());
            journal.connected(transport, target, c.name());
        });
        if (created.isEmpty()) {
            journal.notConnected(transport, target);
            return new Attempt(Optional.empty(), result.succeeded()
                    ? "'" + result.command() + "' succeeded but no new " + transport + " controller for " + target + " appeared"
                    : result.problem());
        }
        return new Attempt(Optional.of(new Connected(created.get(0))), "");
    }

    /** Disconnects a controller this run connected; any other name is refused. */
    public synchronized void disconnect(String controller) {
        if (!ours.remove(controller)) {
            throw new IllegalArgumentException(controller + " was not connected by this run");
        }
        ToolResult result = hostTools.run("nvme", "disconnect", "-d", controller);
        if (result.succeeded()) {
            disconnected.add(controller);
            journal.disconnected(controller);
        } else {
            problems.add("could not disconnect " + controller + " (" + result.problem() + "); disconnect it by hand: "
                    + "nvme disconnect -d " + controller);
        }
    }

    /**
     * Takes {@code controller} as this run's: one a killed run connected, as its journal names it,
     * for {@code acceptance-cleanup} to disconnect.
     */
    public synchronized void adopt(String controller) {
        ours.add(controller);
    }

    /** The controllers it connected and disconnected again, in order. */
    public synchronized List<String> disconnected() {
        return List.copyOf(disconnected);
    }

    /** Disconnects that failed, each with the command to finish the cleanup. */
    public synchronized List<String> problems() {
        return List.copyOf(problems);
    }

    private synchronized void disconnectAll() {
        for (String controller : List.copyOf(ours)) {
            disconnect(controller);
        }
    }

    @Override
    public void close() {
        disconnectAll();
        try {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
        } catch (IllegalStateException shuttingDown) {
            // the hook is running or has run: nothing left to remove
        }
    }

    private static Set<String> names(List<NvmeController> controllers) {
        Set<String> names = new LinkedHashSet<>();
        controllers.forEach(c -> names.add(c.name()));
        return names;
    }
}
