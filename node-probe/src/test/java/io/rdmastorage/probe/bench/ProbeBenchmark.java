package io.rdmastorage.probe.bench;

import io.rdmastorage.probe.parse.VerbsConnections;
import io.rdmastorage.probe.testing.FixtureHost;
import io.rdmastorage.probe.testing.NodeScenarios;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * node-probe's performance figures (DESIGN.md "Numbers we hold ourselves to"), printed as a table:
 * parsing {@code mmfsadm test verbs conn} for a 10,000-node cluster, and the wall time of a whole
 * probe run on the healthy fixture node, JVM start included, next to a bare JVM that loads Jackson
 * and prints JSON (the floor).
 *
 * <p>A benchmark, not a test: it prints figures and judges nothing, so a busy machine cannot make
 * the build flaky. Run with {@code scripts/benchmark-probe.sh}.
 */
public final class ProbeBenchmark {

    private static final int PEERS = 10_000;
    private static final int PARSE_ROUNDS = 30;
    private static final int PROCESS_ROUNDS = 15;
    private static final String COLD_PARSE = "--cold-parse";

    public static void main(String[] args) throws Exception {
        if (args.length > 0 && args[0].equals(COLD_PARSE)) {
            System.out.println(parseVerbsConn(0).first());   // one parse in a fresh JVM, as in a probe run
            return;
        }
        Path jar = Path.of(args.length > 0 ? args[0] : "node-probe/target/node-probe.jar").toAbsolutePath();
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException(jar + " is missing; build it with mvn -pl node-probe package");
        }
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        System.out.printf(Locale.ROOT, "node-probe benchmark — %s, %d cores, %s%n%n",
                System.getProperty("java.vm.name") + " " + System.getProperty("java.version"),
                Runtime.getRuntime().availableProcessors(), System.getProperty("os.name"));

        ParseFigures parse = parseVerbsConn(PARSE_ROUNDS);
        Stats coldDefault = coldParse(java, List.of());
        Stats coldImage = coldParse(java, List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC"));
        Path work = Files.createTempDirectory("probe-bench");
        FixtureHost host = NodeScenarios.healthy(FixtureHost.at(work.resolve("root")));
        Path spec = Files.writeString(work.resolve("spec.json"), NodeScenarios.HEALTHY_SPEC);
        List<String> probeArgs = List.of("-jar", jar.toString(), "--host-root", host.root().toString(),
                "--exec-mode", "direct", "--node", "gpu-01", "--spec", spec.toString());

        // the floor: the benchmark's own class path has jackson-databind, which the probe jar leaves out
        Stats baseline = wall(List.of(java, "-cp", jacksonClassPath(), JacksonBaseline.class.getName()), 0);
        Stats probe = wall(concat(List.of(java), probeArgs), 0);
        Path archive = work.resolve("node-probe.jsa");
        run(concat(List.of(java, "-XX:ArchiveClassesAtExit=" + archive), probeArgs), null);
        Stats tuned = wall(concat(List.of(java, "-XX:SharedArchiveFile=" + archive, "-XX:TieredStopAtLevel=1",
                "-XX:+UseSerialGC"), probeArgs), 0);

        System.out.println("| measurement | median | min | max | target |");
        System.out.println("|---|---|---|---|---|");
        row("parse `mmfsadm test verbs conn`, 10,000 peers, match every peer: fresh JVM", coldDefault, "≤ 50 ms");
        row("same, fresh JVM with the image flags (C1, SerialGC)", coldImage, "≤ 50 ms");
        row("same, warmed up (%d rounds in one JVM)".formatted(PARSE_ROUNDS), parse.warm(), "≤ 50 ms");
        row("bare JVM: load Jackson, print JSON (floor)", baseline, "—");
        row("full probe run, healthy fixture node, `java -jar`", probe, "≤ 500 ms");
        row("same, image flags (CDS archive, C1, SerialGC)", tuned, "≤ 500 ms");
    }

    private record ParseFigures(double first, Stats warm) {
    }

    /** The first parse of a fresh JVM, {@link #PROCESS_ROUNDS} times: a probe parses once per run. */
    private static Stats coldParse(String java, List<String> flags) throws IOException, InterruptedException {
        double[] millis = new double[PROCESS_ROUNDS];
        for (int i = 0; i < PROCESS_ROUNDS; i++) {
            List<String> command = concat(concat(List.of(java), flags),
                    List.of("-cp", System.getProperty("java.class.path"), ProbeBenchmark.class.getName(), COLD_PARSE));
            Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes()).strip();
            if (p.waitFor() != 0) {
                throw new IllegalStateException("cold parse failed: " + out);
            }
            millis[i] = Double.parseDouble(out);
        }
        return Stats.of(millis);
    }

    private static ParseFigures parseVerbsConn(int rounds) {
        List<String> peers = new ArrayList<>(PEERS);
        StringBuilder out = new StringBuilder("VERBS RDMA connections:\n");
        for (int i = 0; i < PEERS; i++) {
            String name = "node-" + i;
            String ip = "10." + (i >> 16 & 255) + "." + (i >> 8 & 255) + "." + (i & 255);
            peers.add(name);
            // constructed: no public sample of `mmfsadm test verbs conn` exists (see samples/SOURCES.md)
            out.append(String.format(Locale.ROOT, "  %-12s %-15s mlx5_0/1 -> mlx5_0/1 state connected qps 4%n", name, ip));
        }
        String text = out.toString();
        double[] millis = new double[Math.max(rounds, 1)];
        double first = 0;
        int found = 0;
        int warmUp = rounds == 0 ? 1 : 10;
        for (int round = -warmUp; round < rounds; round++) {
            long start = System.nanoTime();
            VerbsConnections conns = VerbsConnections.parse(text);
            found = 0;
            for (String peer : peers) {
                found += conns.mentionsAny(List.of(peer)) ? 1 : 0;
            }
            double elapsed = (System.nanoTime() - start) / 1e6;
            if (round == -warmUp) {
                first = elapsed;
            } else if (round >= 0) {
                millis[round] = elapsed;
            }
        }
        if (found != PEERS) {
            throw new IllegalStateException("parser found " + found + " of " + PEERS + " peers");
        }
        return new ParseFigures(first, rounds == 0 ? null : Stats.of(millis));
    }

    private static Stats wall(List<String> command, int expectedExit) throws IOException, InterruptedException {
        run(command, expectedExit);   // warm the file cache
        double[] millis = new double[PROCESS_ROUNDS];
        for (int i = 0; i < PROCESS_ROUNDS; i++) {
            long start = System.nanoTime();
            run(command, expectedExit);
            millis[i] = (System.nanoTime() - start) / 1e6;
        }
        return Stats.of(millis);
    }

    private static void run(List<String> command, Integer expectedExit) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        int code = p.waitFor();
        if (expectedExit != null && code != expectedExit) {
            throw new IllegalStateException(String.join(" ", command) + " exited " + code);
        }
    }

    /** Jackson's jars and the baseline class: nothing else to slow the floor's start. */
    private static String jacksonClassPath() {
        return Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
                .filter(entry -> entry.contains("jackson") || entry.endsWith("test-classes"))
                .collect(Collectors.joining(File.pathSeparator));
    }

    private static List<String> concat(List<String> a, List<String> b) {
        List<String> all = new ArrayList<>(a);
        all.addAll(b);
        return all;
    }

    private static void row(String what, Stats s, String target) {
        System.out.printf(Locale.ROOT, "| %s | %.1f ms | %.1f ms | %.1f ms | %s |%n", what, s.median, s.min, s.max, target);
    }

    private record Stats(double median, double min, double max) {
        static Stats of(double[] millis) {
            double[] sorted = millis.clone();
            Arrays.sort(sorted);
            return new Stats(sorted[sorted.length / 2], sorted[0], sorted[sorted.length - 1]);
        }
    }
}
