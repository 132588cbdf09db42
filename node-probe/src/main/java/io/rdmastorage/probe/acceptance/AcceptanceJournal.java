package io.rdmastorage.probe.acceptance;

import io.rdmastorage.contract.acceptance.CleanupSchema;
import io.rdmastorage.contract.json.Json;
import io.rdmastorage.contract.spec.ProbeSpec;
import io.rdmastorage.probe.host.HostRoot;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The write-ahead journal of an acceptance run: what the run is about to change on the node,
 * written to the host <em>before</em> it changes it, so that what a killed run leaves behind
 * (SIGKILL, an OOM kill, a reboot: no shutdown hook runs) can be undone by
 * {@code node-probe acceptance-cleanup} ({@link AcceptanceCleanup}) and by nothing else. One JSON
 * file per run, {@value #DIRECTORY}{@code /<run-uid>.json} on the host, replaced atomically
 * (written beside it, synced, renamed over it) at each step:
 * <ul>
 * <li>before {@code nvme connect}: the controller it is about to connect (transport, NQN, address,
 * port) and the controllers the node had just before; once it appeared, its name; once it was
 * disconnected again, the entry goes;</li>
 * <li>before a path run's file is created: the file's path on the node (only once the file was
 * found absent: a file that is there already is never the run's); once removed, the entry goes;</li>
 * <li>the host's boot id: after a reboot nothing the run connected is still connected, and a
 * controller of the same name is another's.</li>
 * </ul>
 * When nothing is left to undo the journal is removed. A journal that cannot be written stops the
 * change it was to announce: a run never changes the node without a record of it.
 * {@link #NONE} (no run UID given: the command run by hand) records nothing.
 */
public final class AcceptanceJournal {

    /** The journal's directory on the node, the one host directory the acceptance pods may write besides a path run's. */
    public static final String DIRECTORY = CleanupSchema.JOURNAL_DIRECTORY;
    /** Where the kernel says which boot this is. */
    static final String BOOT_ID = "/proc/sys/kernel/random/boot_id";
    static final String KIND = "AcceptanceJournal";
    /** A Kubernetes UID (or any name the command is given): it names a file, so nothing but these. */
    private static final Pattern RUN_UID = Pattern.compile("[A-Za-z0-9][A-Za-z0-9-]{0,63}");

    /** Records nothing: a run without a UID (node-probe run by hand, which cleans up only by its own hooks). */
    public static final AcceptanceJournal NONE = new AcceptanceJournal(null, "", "");

    /**
     * A controller the run connects.
     *
     * @param before     the controllers the node had just before {@code nvme connect}: never the run's
     * @param controller the controller that appeared for it; empty until known
     */
    public record Controller(String transport, String nqn, String address, int port, List<String> before, String controller) {
        public Controller {
            before = List.copyOf(before);
        }

        boolean sameTarget(String transport, ProbeSpec.Target target) {
            return this.transport.equals(transport) && nqn.equals(target.nqn()) && address.equals(target.address())
                    && port == target.port();
        }
    }

    /** What a journal says: the boot it was written in, the controllers and the file of the run not undone yet. */
    public record Entries(String bootId, List<Controller> controllers, Optional<String> file) {
        public Entries {
            controllers = List.copyOf(controllers);
        }

        boolean isEmpty() {
            return controllers.isEmpty() && file.isEmpty();
        }
    }

    private final HostRoot host;
    private final String runUid;
    private final String bootId;
    private final List<Controller> controllers = new ArrayList<>();
    private String file;

    private AcceptanceJournal(HostRoot host, String runUid, String bootId) {
        this.host = host;
        this.runUid = runUid;
        this.bootId = bootId;
    }

    /** The journal of run {@code runUid} on {@code host}, empty until the run announces a change. */
    public static AcceptanceJournal of(HostRoot host, String runUid) {
        return new AcceptanceJournal(host, checkedUid(runUid), bootId(host));
    }

    /** Whether {@code runUid} can name a journal. */
    public static boolean isRunUid(String runUid) {
        return runUid != null && RUN_UID.matcher(runUid).matches();
    }

    /** The journal's path on the node. */
    public static String hostPath(String runUid) {
        return DIRECTORY + "/" + checkedUid(runUid) + ".json";
    }

    /** The host's boot id, empty when unreadable. */
    static String bootId(HostRoot host) {
        return host.read(BOOT_ID).map(String::trim).orElse("");
    }

    /** Before {@code nvme connect}: the controller about to be connected; empty when recorded, else why not. */
    synchronized String connecting(String transport, ProbeSpec.Target target, List<String> before) {
        controllers.add(new Controller(transport, target.nqn(), target.address(), target.port(), before, ""));
        return write();
    }

    /**
     * A controller that appeared for {@code transport} to {@code target}. One connect may make more
     * than one (a target that answers on two paths): each after the first is recorded beside it,
     * with the same controllers from before.
     */
    synchronized void connected(String transport, ProbeSpec.Target target, String controller) {
        for (int i = 0; i < controllers.size(); i++) {
            Controller c = controllers.get(i);
            if (c.controller().isEmpty() && c.sameTarget(transport, target)) {
                controllers.set(i, new Controller(c.transport(), c.nqn(), c.address(), c.port(), c.before(), controller));
                write();
                return;
            }
        }
        controllers.stream().filter(c -> c.sameTarget(transport, target)).findFirst().ifPresent(c -> {
            controllers.add(new Controller(c.transport(), c.nqn(), c.address(), c.port(), c.before(), controller));
            write();
        });
    }

    /** No controller appeared for the connect announced: nothing of it to undo. */
    synchronized void notConnected(String transport, ProbeSpec.Target target) {
        controllers.removeIf(c -> c.controller().isEmpty() && c.sameTarget(transport, target));
        write();
    }

    /** {@code controller} is disconnected again. */
    synchronized void disconnected(String controller) {
        controllers.removeIf(c -> c.controller().equals(controller));
        write();
    }

    /** Before the file is created: its path on the node; empty when recorded, else why not. */
    synchronized String creating(String hostPath) {
        file = hostPath;
        return write();
    }

    /** The file is removed again, or was never created. */
    synchronized void removed() {
        file = null;
        write();
    }

    /**
     * Writes the journal as it stands, or removes it when nothing is left to undo; empty when
     * done, else why not (a journal that cannot be removed only costs a cleanup that finds nothing).
     */
    private String write() {
        if (host == null) {
            return "";
        }
        Path path = host.resolve(hostPath(runUid));
        try {
            if (controllers.isEmpty() && file == null) {
                Files.deleteIfExists(path);
                return "";
            }
            Files.createDirectories(path.getParent());
            Path next = path.resolveSibling(path.getFileName() + ".next");
            try (FileChannel channel = FileChannel.open(next, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                    StandardOpenOption.TRUNCATE_EXISTING)) {
                channel.write(StandardCharsets.UTF_8.encode(Json.write(document())));
                channel.force(true);
            }
            Files.move(next, path, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            return "";
        } catch (IOException | SecurityException e) {
            return "cannot write the run's journal " + hostPath(runUid) + " on the node (" + e.getMessage() + "), so the "
                    + "run does not change the node: without it a killed run's changes could not be undone";
        }
    }

    private Map<String, Object> document() {
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("kind", KIND);
        doc.put("runUid", runUid);
        doc.put("bootId", bootId);
        List<Object> list = new ArrayList<>();
        for (Controller c : controllers) {
            Map<String, Object> entry = new LinkedHashMap<>();
            entry.put("transport", c.transport());
            entry.put("nqn", c.nqn());
            entry.put("address", c.address());
            entry.put("port", c.port());
            entry.put("before", c.before());
            entry.put("controller", c.controller());
            list.add(entry);
        }
        doc.put("controllers", list);
        if (file != null) {
            doc.put("file", file);
        }
        return doc;
    }

    /** The journal of run {@code runUid} on {@code host}; empty when there is none (nothing to undo). */
    static Optional<Entries> read(HostRoot host, String runUid) throws IOException {
        Optional<String> text = host.read(hostPath(runUid));
        if (text.isEmpty()) {
            if (host.exists(hostPath(runUid))) {
                throw new IOException("cannot read " + hostPath(runUid));
            }
            return Optional.empty();
        }
        Object parsed;
        try {
            parsed = Json.parse(text.get());
        } catch (Json.JsonSyntaxException e) {
            throw new IOException(hostPath(runUid) + " is not a journal: " + e.getMessage());
        }
        if (!(parsed instanceof Map<?, ?> doc) || !KIND.equals(doc.get("kind")) || !runUid.equals(doc.get("runUid"))) {
            throw new IOException(hostPath(runUid) + " is not this run's journal");
        }
        List<Controller> controllers = new ArrayList<>();
        if (doc.get("controllers") instanceof List<?> list) {
            for (Object item : list) {
                if (!(item instanceof Map<?, ?> c) || !(c.get("port") instanceof Number port)) {
                    throw new IOException(hostPath(runUid) + " has a controller entry that is not one: " + item);
                }
                List<String> before = c.get("before") instanceof List<?> names ? names.stream().map(String::valueOf).toList()
                        : List.of();
                controllers.add(new Controller(text(c, "transport"), text(c, "nqn"), text(c, "address"), port.intValue(),
                        before, text(c, "controller")));
            }
        }
        Object file = doc.get("file");
        return Optional.of(new Entries(Objects.toString(doc.get("bootId"), ""), controllers,
                file instanceof String path && path.startsWith("/") ? Optional.of(path) : Optional.empty()));
    }

    /** Removes run {@code runUid}'s journal: everything in it was undone. */
    static void remove(HostRoot host, String runUid) throws IOException {
        Files.deleteIfExists(host.resolve(hostPath(runUid)));
    }

    private static String text(Map<?, ?> map, String key) {
        Object value = map.get(key);
        return value == null ? "" : value.toString();
    }

    private static String checkedUid(String runUid) {
        if (!isRunUid(runUid)) {
            throw new IllegalArgumentException("not a run UID: " + runUid);
        }
        return runUid;
    }
}
