package io.rdmastorage.probe.acceptance;

import io.rdmastorage.contract.acceptance.CleanupSchema;
import io.rdmastorage.contract.json.Json;
import io.rdmastorage.probe.host.HostRoot;
import io.rdmastorage.probe.host.NvmeControllers;
import io.rdmastorage.probe.host.ToolRunner;
import io.rdmastorage.probe.parse.NvmeController;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Undoes what a killed acceptance run left on the node, exactly as its {@link AcceptanceJournal}
 * recorded it, and nothing else:
 * <ul>
 * <li>a controller the journal names is disconnected only while it is still of the recorded
 * transport, subsystem, address and port and was not among the controllers the node had before the
 * run; one the journal announced without a name (the run was killed between {@code nvme connect}
 * and writing the name down) is any controller of that target the node did not have before;</li>
 * <li>after a reboot (another boot id) nothing is disconnected: the kernel keeps no NVMe-oF
 * connection across one, and a controller of the same name now is someone else's;</li>
 * <li>the recorded file is removed only while it is a regular file reached without any symbolic
 * link ({@link AcceptanceDirectory#walk}, as the run created it).</li>
 * </ul>
 * The journal is removed once everything in it is undone; otherwise it stays, for another try.
 */
public final class AcceptanceCleanup {

    /**
     * What the cleanup did.
     *
     * @param disconnected controllers it disconnected
     * @param removed      files it removed
     * @param gone         what the journal recorded that was already gone
     * @param problems     what it could not undo, each with the command to finish by hand
     */
    public record Result(List<String> disconnected, List<String> removed, List<String> gone, List<String> problems) {
        public Result {
            disconnected = List.copyOf(disconnected);
            removed = List.copyOf(removed);
            gone = List.copyOf(gone);
            problems = List.copyOf(problems);
        }

        public boolean complete() {
            return problems.isEmpty();
        }

        /** The {@link CleanupSchema} document. */
        public String toJson(String node, String runUid) {
            Map<String, Object> doc = new LinkedHashMap<>();
            doc.put(CleanupSchema.F_KIND, CleanupSchema.KIND);
            doc.put(CleanupSchema.F_NODE, node);
            doc.put(CleanupSchema.F_RUN_UID, runUid);
            doc.put(CleanupSchema.F_COMPLETE, complete());
            doc.put(CleanupSchema.F_DISCONNECTED, disconnected);
            doc.put(CleanupSchema.F_REMOVED, removed);
            doc.put(CleanupSchema.F_GONE, gone);
            doc.put(CleanupSchema.F_PROBLEMS, problems.stream()
                    .map(p -> p.length() > AcceptanceReport.MAX_MESSAGE ? p.substring(0, AcceptanceReport.MAX_MESSAGE) : p)
                    .toList());
            return Json.write(doc);
        }
    }

    private AcceptanceCleanup() {
    }

    /** Undoes run {@code runUid}'s journal on {@code host}, the host's {@code nvme} run through {@code hostTools}. */
    public static Result run(HostRoot host, ToolRunner hostTools, String runUid) {
        Optional<AcceptanceJournal.Entries> journal;
        try {
            journal = AcceptanceJournal.read(host, runUid);
        } catch (IOException e) {
            return new Result(List.of(), List.of(), List.of(), List.of(e.getMessage() + "; look at it on the node ("
                    + AcceptanceJournal.hostPath(runUid) + ") and undo what it names by hand"));
        }
        if (journal.isEmpty()) {
            return new Result(List.of(), List.of(), List.of("no journal: the run left nothing to undo"), List.of());
        }
        AcceptanceJournal.Entries entries = journal.get();
        List<String> gone = new ArrayList<>();
        List<String> removed = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        List<String> disconnected;
        try (NvmeConnections connections = new NvmeConnections(host, hostTools)) {
            String boot = AcceptanceJournal.bootId(host);
            boolean rebooted = !entries.bootId().isEmpty() && !boot.isEmpty() && !entries.bootId().equals(boot);
            for (AcceptanceJournal.Controller recorded : entries.controllers()) {
                String what = recorded.transport() + " controller " + (recorded.controller().isEmpty() ? "" : recorded.controller() + " ")
                        + "to " + recorded.nqn() + " at " + recorded.address() + ":" + recorded.port();
                List<NvmeController> ours = rebooted ? List.of() : NvmeControllers.list(host).stream()
                        .filter(c -> recorded.controller().isEmpty() || c.name().equals(recorded.controller()))
                        .filter(c -> !recorded.before().contains(c.name()))
                        .filter(c -> c.connects(recorded.transport(), recorded.nqn(), recorded.address(), recorded.port()))
                        .toList();
                if (ours.isEmpty()) {
                    gone.add("the " + what + (rebooted ? " went with the node's reboot" : " is no longer connected"));
                }
                for (NvmeController controller : ours) {
                    connections.adopt(controller.name());
                    connections.disconnect(controller.name());
                }
            }
            connections.close();
            disconnected = connections.disconnected();
            problems.addAll(connections.problems());
        }
        entries.file().ifPresent(file -> removeFile(host, file, removed, gone, problems));
        if (problems.isEmpty()) {
            try {
                AcceptanceJournal.remove(host, runUid);
            } catch (IOException e) {
                problems.add("undid everything, but could not remove the journal (" + e.getMessage() + "): rm "
                        + AcceptanceJournal.hostPath(runUid));
            }
        }
        return new Result(disconnected, removed, gone, problems);
    }

    /** Removes the run's file: a regular file, relative to its directory held open through no link ({@link HeldDirectory}). */
    private static void removeFile(HostRoot host, String file, List<String> removed, List<String> gone, List<String> problems) {
        int slash = file.lastIndexOf('/');
        String directory = file.substring(0, Math.max(slash, 1));
        HeldDirectory.Opened opened = HeldDirectory.open(host.root(), directory);
        if (opened.refusal().isPresent()) {
            problems.add("did not remove " + file + ": " + opened.refusal().get() + "; remove the run's file by hand if it is there");
            return;
        }
        if (opened.directory().isEmpty()) {
            gone.add(file + " is no longer there (its directory is gone)");
            return;
        }
        try (HeldDirectory held = opened.directory().get()) {
            Optional<String> kept = held.removeRegularFile(file.substring(slash + 1));
            if (kept.isPresent()) {
                problems.add("did not remove " + file + ": " + kept.get() + "; look at it by hand");
            } else {
                removed.add(file);
            }
        } catch (NoSuchFileException e) {
            gone.add(file + " is no longer there");
        }
    }
}
