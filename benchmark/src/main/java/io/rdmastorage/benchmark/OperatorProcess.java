package io.rdmastorage.benchmark;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * {@code java <the image's JVM options> -jar operator.jar} as a process of its own (its heap, RSS
 * and CPU are its alone), acting as its service account through a kubeconfig; its /metrics polled
 * for the heap.
 */
final class OperatorProcess implements AutoCloseable {

    /** Often enough for the heap's peak under -Xmx256m; each scrape costs the operator CPU, as Prometheus's would. */
    private static final Duration POLL = Duration.ofSeconds(1);

    private final Process process;
    private final int port;
    private final Path log;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private final ScheduledExecutorService poller = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "operator-metrics-poller");
        t.setDaemon(true);
        return t;
    });
    private final AtomicLong peakHeap = new AtomicLong();
    private volatile String lastScrape = "";

    private OperatorProcess(Process process, int port, Path log) {
        this.process = process;
        this.port = port;
        this.log = log;
    }

    /**
     * @param jvmOptions the JVM's options, as the operator image starts it ({@link OperatorImage#jvmOptions})
     * @param jfr where to write a flight recording of the whole run (profiling), or null for none
     * @param settings more of the operator's environment (RSO_LEADER_ELECTION, say), set last
     */
    static OperatorProcess start(Path jar, List<String> jvmOptions, Path kubeconfig, String namespace, String probeImage,
                                 Path log, Path jfr, Map<String, String> settings) throws IOException {
        int port = freePort();
        List<String> command = new java.util.ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        command.addAll(jvmOptions);
        if (jfr != null) {
            command.add("-XX:StartFlightRecording=settings=profile,dumponexit=true,filename=" + jfr);
        }
        command.addAll(List.of("-jar", jar.toAbsolutePath().toString()));
        ProcessBuilder builder = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.to(log.toFile()));
        Map<String, String> env = builder.environment();
        env.put("KUBECONFIG", kubeconfig.toString());
        env.put("RSO_NAMESPACE", namespace);
        env.put("RSO_PROBE_IMAGE", probeImage);
        env.put("RSO_METRICS_PORT", Integer.toString(port));
        env.put("RSO_LOG_LEVEL", "WARN");
        env.remove("JAVA_TOOL_OPTIONS");
        env.putAll(settings);
        return new OperatorProcess(builder.start(), port, log);
    }

    long pid() {
        return process.pid();
    }

    /** Waits until /readyz answers 200 (informers started). */
    void awaitReady(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException("the operator exited with " + process.exitValue() + "; log:\n" + logTail());
            }
            try {
                if (get("/readyz").statusCode() == 200) {
                    return;
                }
            } catch (IOException e) {
                // not listening yet
            }
            Thread.sleep(200);
        }
        throw new IllegalStateException("the operator was not ready within " + timeout + "; log:\n" + logTail());
    }

    /** Polls /metrics from now on, keeping the peak heap in use. */
    void startPolling() {
        poller.scheduleWithFixedDelay(this::scrape, 0, POLL.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Resets the peak heap (e.g. between rounds) to the heap in use now. */
    void resetPeakHeap() {
        peakHeap.set(0);
        scrape();
    }

    private void scrape() {
        try {
            String body = get("/metrics").body();
            lastScrape = body;
            long heap = (long) Prometheus.sum(body, "jvm_memory_used_bytes", "area=\"heap\"");
            peakHeap.accumulateAndGet(heap, Math::max);
        } catch (IOException | RuntimeException e) {
            // a scrape during a full GC can time out; the next one counts
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The sum of one metric's samples in a scrape taken now; NaN when /metrics does not answer. */
    double metricNow(String name) {
        try {
            return Prometheus.sum(get("/metrics").body(), name, "");
        } catch (IOException e) {
            return Double.NaN;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Double.NaN;
        }
    }

    long peakHeapBytes() {
        return peakHeap.get();
    }

    /**
     * The live set: the heap in use right after a full collection ({@code jcmd <pid> GC.run}),
     * which unlike the used heap does not depend on how much garbage {@code -Xmx} lets the collector keep.
     */
    long liveHeapAfterFullGc() throws IOException, InterruptedException {
        Process jcmd = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "jcmd").toString(),
                Long.toString(process.pid()), "GC.run").redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .start();
        if (!jcmd.waitFor(60, TimeUnit.SECONDS)) {
            jcmd.destroyForcibly();
            return -1;
        }
        return (long) Prometheus.sum(get("/metrics").body(), "jvm_memory_used_bytes", "area=\"heap\"");
    }

    /** {@code jcmd <pid> GC.class_histogram}: instances and bytes per class of the live heap, largest first. */
    String classHistogram() throws IOException, InterruptedException {
        Process jcmd = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "jcmd").toString(),
                Long.toString(process.pid()), "GC.class_histogram").redirectErrorStream(true).start();
        String out = new String(jcmd.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        if (!jcmd.waitFor(60, TimeUnit.SECONDS)) {
            jcmd.destroyForcibly();
        }
        return out;
    }

    String lastScrape() {
        return lastScrape;
    }

    /** The operator's CPU time (user + system), from the OS. */
    Duration cpuTime() {
        return process.toHandle().info().totalCpuDuration().orElse(Duration.ZERO);
    }

    /**
     * CPU time (user + system) of the JVM's own threads that are alive now, from /proc: the JIT
     * compilers ("C1/C2 CompilerThread") and the collector with the VM thread (Serial GC collects
     * in the VM thread). What is left of {@link #cpuTime} is the operator's Java code, the client's
     * included. Threads that have ended are not counted, which none of these do.
     */
    Map<String, Duration> jvmThreadCpu() {
        Map<String, Duration> cpu = new java.util.LinkedHashMap<>(Map.of("JIT", Duration.ZERO, "GC", Duration.ZERO));
        long tick = 10;   // ms per clock tick (USER_HZ is 100 on Linux)
        try (var tasks = Files.list(Path.of("/proc", Long.toString(process.pid()), "task"))) {
            for (Path task : tasks.toList()) {
                String stat = Files.readString(task.resolve("stat"));
                String name = stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
                String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                // after the name: state is field 3 of stat(5), utime 14 and stime 15
                Duration used = Duration.ofMillis((Long.parseLong(fields[11]) + Long.parseLong(fields[12])) * tick);
                String group = name.contains("CompilerThre") ? "JIT"
                        : name.startsWith("VM Thread") || name.startsWith("GC ") || name.startsWith("G1 ") ? "GC" : null;
                if (group != null) {
                    cpu.merge(group, used, Duration::plus);
                }
            }
        } catch (IOException | RuntimeException e) {
            // not Linux, or gone: zeros
        }
        return cpu;
    }

    /** Peak resident set size (VmHWM) and current (VmRSS), in bytes, from /proc. */
    long[] rss() {
        long hwm = 0;
        long now = 0;
        try {
            for (String line : Files.readAllLines(Path.of("/proc", Long.toString(process.pid()), "status"))) {
                if (line.startsWith("VmHWM:")) {
                    hwm = kib(line);
                } else if (line.startsWith("VmRSS:")) {
                    now = kib(line);
                }
            }
        } catch (IOException e) {
            // not Linux, or gone
        }
        return new long[] {hwm, now};
    }

    private static long kib(String line) {
        String[] parts = line.trim().split("\\s+");
        return Long.parseLong(parts[1]) * 1024;
    }

    String logTail() {
        try {
            List<String> lines = Files.readAllLines(log);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
        } catch (IOException e) {
            return "(no log: " + e + ")";
        }
    }

    boolean alive() {
        return process.isAlive();
    }

    private HttpResponse<String> get(String path) throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    @Override
    public void close() throws InterruptedException {
        poller.shutdownNow();
        process.destroy();
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            process.waitFor();
        }
    }
}
