package io.rdmastorage.probe.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A fixture host root: a plain folder laid out like a node's file system (sysfs and procfs
 * files, configuration files) plus stub host tools that print recorded outputs. node-probe runs
 * against it in {@code direct} exec mode.
 *
 * <p>Built at test time rather than kept as resources because the layout needs symbolic links and
 * executable bits that Maven's resource copying does not keep.
 */
public final class FixtureHost {

    private final Path root;
    private final FixtureIdentity identity;
    private final Map<String, StubTool> tools = new LinkedHashMap<>();

    private FixtureHost(Path root, FixtureIdentity identity) {
        this.root = root;
        this.identity = identity;
    }

    /**
     * A fixture host at {@code root}: the node its {@code /etc/hostname} names when it has one
     * (so a host laid out before is the same node again), else gpu-01.
     */
    public static FixtureHost at(Path root) {
        Path hostname = root.resolve("etc/hostname");
        try {
            return at(root, Files.exists(hostname) ? FixtureIdentity.forNodeName(Files.readString(hostname))
                    : FixtureIdentity.GPU_01);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A fixture host that is the node {@code identity}: its tools' outputs name that node. */
    public static FixtureHost at(Path root, FixtureIdentity identity) {
        try {
            Files.createDirectories(root);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new FixtureHost(root.toAbsolutePath(), identity);
    }

    public FixtureIdentity identity() {
        return identity;
    }

    public Path root() {
        return root;
    }

    /** Writes a host file, e.g. {@code file("/sys/class/infiniband/mlx5_0/ports/1/state", "4: ACTIVE\n")}. */
    public FixtureHost file(String hostPath, String content) {
        Path p = path(hostPath);
        try {
            Files.createDirectories(p.getParent());
            Files.writeString(p, content, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return this;
    }

    /** Writes a binary host file, e.g. a PCI function's {@code config}. */
    public FixtureHost bytes(String hostPath, byte[] content) {
        Path p = path(hostPath);
        try {
            Files.createDirectories(p.getParent());
            Files.write(p, content);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return this;
    }

    /** Writes a host file whose content is a recorded sample's body. */
    public FixtureHost sampleFile(String hostPath, String sample) {
        return file(hostPath, Samples.body(sample));
    }

    /** A symbolic link at {@code hostPath} pointing to {@code target} (relative or absolute host path). */
    public FixtureHost symlink(String hostPath, String target) {
        Path p = path(hostPath);
        try {
            Files.createDirectories(p.getParent());
            Files.deleteIfExists(p);
            Files.createSymbolicLink(p, Path.of(target));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return this;
    }

    public FixtureHost mkdir(String hostPath) {
        try {
            Files.createDirectories(path(hostPath));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return this;
    }

    public FixtureHost delete(String hostPath) {
        try (var walk = Files.walk(path(hostPath))) {
            for (Path p : walk.sorted((a, b) -> b.compareTo(a)).toList()) {
                Files.delete(p);
            }
        } catch (java.nio.file.NoSuchFileException e) {
            // already gone
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return this;
    }

    /**
     * The stub for a host tool at its host path ({@code /usr/lpp/mmfs/bin/mmfsadm}); call
     * {@link StubTool#on} for each argument list it answers. Written to disk on every change.
     */
    public StubTool tool(String hostPath) {
        return tools.computeIfAbsent(hostPath, p -> new StubTool(this, p));
    }

    /**
     * A host tool written as a whole /bin/sh script (dash: no bashisms), for stubs that need more
     * than answers to exact argument lists, such as {@link LatencyFabric}'s. A later {@link #tool}
     * stub at the same path replaces it.
     */
    public FixtureHost script(String hostPath, String script) {
        Path p = path(hostPath);
        try {
            Files.createDirectories(p.getParent());
            Files.writeString(p, script, StandardCharsets.UTF_8);
            Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwxr-xr-x"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return this;
    }

    /** A word for /bin/sh that stands for exactly {@code text}: single-quoted, inner quotes escaped. */
    public static String shQuote(String text) {
        return "'" + text.replace("'", "'\\''") + "'";
    }

    public Path path(String hostPath) {
        if (!hostPath.startsWith("/")) {
            throw new IllegalArgumentException("host path must be absolute: " + hostPath);
        }
        return root.resolve(hostPath.substring(1));
    }

    /** A stub executable: a /bin/sh script that answers exact argument lists with recorded output. */
    public static final class StubTool {
        private final FixtureHost host;
        private final String hostPath;
        private final List<Case> cases = new ArrayList<>();

        private StubTool(FixtureHost host, String hostPath) {
            this.host = host;
            this.hostPath = hostPath;
        }

        /** Starts an answer for exactly these arguments (an empty list = no arguments). */
        public Answer on(String... args) {
            return new Answer(this, String.join(" ", args));
        }

        /** Answers every argument list not matched otherwise. */
        public Answer otherwise() {
            return new Answer(this, null);
        }

        private StubTool add(Case c) {
            cases.removeIf(existing -> java.util.Objects.equals(existing.args, c.args));
            cases.add(c);
            write();
            return this;
        }

        public FixtureHost and() {
            return host;
        }

        private void write() {
            Path data = host.root.resolve(".stubs").resolve(hostPath.substring(1).replace('/', '_'));
            StringBuilder sh = new StringBuilder("#!/bin/sh\n# stub of " + hostPath + " for node-probe tests\ncase \"$*\" in\n");
            Case fallback = null;
            try {
                Files.createDirectories(data);
                for (int i = 0; i < cases.size(); i++) {
                    Case c = cases.get(i);
                    if (c.args == null) {
                        fallback = c;
                        continue;
                    }
                    sh.append("  ").append(shQuote(c.args)).append(")\n").append(body(c, data, i));
                }
                sh.append("  *)\n");
                sh.append(fallback != null ? body(fallback, data, cases.indexOf(fallback))
                        : "    echo \"" + hostPath + " (stub): unexpected arguments: $*\" >&2\n    exit 64\n    ;;\n");
                sh.append("esac\n");
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            host.script(hostPath, sh.toString());
        }

        private static String body(Case c, Path data, int index) throws IOException {
            StringBuilder b = new StringBuilder();
            if (c.shell != null) {
                return b.append(c.shell.strip().indent(4)).append("    ;;\n").toString();
            }
            if (c.hangSeconds > 0) {
                b.append("    exec sleep ").append(c.hangSeconds).append('\n');
            }
            if (c.stdout != null) {
                Path out = data.resolve(index + ".out");
                Files.writeString(out, c.stdout, StandardCharsets.UTF_8);
                b.append("    cat ").append(shQuote(out.toString())).append('\n');
            }
            if (c.stderr != null) {
                Path err = data.resolve(index + ".err");
                Files.writeString(err, c.stderr, StandardCharsets.UTF_8);
                b.append("    cat ").append(shQuote(err.toString())).append(" >&2\n");
            }
            return b.append("    exit ").append(c.exitCode).append("\n    ;;\n").toString();
        }
    }

    /** One answer of a stub tool; finish it with {@link #prints}, {@link #printsSample}, {@link #fails} or {@link #hangs}. */
    public static final class Answer {
        private final StubTool tool;
        private final String args;

        private Answer(StubTool tool, String args) {
            this.tool = tool;
            this.args = args;
        }

        public StubTool prints(String stdout) {
            return tool.add(new Case(args, stdout, null, 0, 0));
        }

        /**
         * Answers by running {@code shell}, /bin/sh code (dash: no bashisms), for an answer that
         * changes between calls (e.g. counters read at both ends of a window); it ends the answer
         * with its own exit status.
         */
        public StubTool runs(String shell) {
            return tool.add(new Case(args, null, null, 0, 0, shell));
        }

        public StubTool printsSample(String sample) {
            return prints(Samples.body(sample));
        }

        public StubTool printsSample(String sample, int exitCode) {
            return tool.add(new Case(args, Samples.body(sample), null, exitCode, 0));
        }

        public StubTool fails(int exitCode, String stderr) {
            return tool.add(new Case(args, null, stderr, exitCode, 0));
        }

        public StubTool exits(int exitCode, String stdout, String stderr) {
            return tool.add(new Case(args, stdout, stderr, exitCode, 0));
        }

        /** Sleeps for an hour: longer than any tool timeout. */
        public StubTool hangs() {
            return tool.add(new Case(args, null, null, 0, 3600));
        }
    }

    private record Case(String args, String stdout, String stderr, int exitCode, int hangSeconds, String shell) {
        Case(String args, String stdout, String stderr, int exitCode, int hangSeconds) {
            this(args, stdout, stderr, exitCode, hangSeconds, null);
        }
    }
}
