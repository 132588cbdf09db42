package io.rdmastorage.probe.vm;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A VM node's architecture: its cached image ({@code vm-node/build.sh}), its qemu, machine, kernel
 * command line and boot allowance. An arm64 guest is emulated instruction by instruction on this x86
 * machine (TCG), about three times slower than an amd64 one on a quiet host; its commands are allowed
 * six times an amd64 guest's limits, since the cold path runs it beside the operator's tests and the
 * builds (two cold runs had its probe killed at three times the amd64 limit).
 */
public enum Guest {
    // the TSC as clock, as on a real server: under TCG the kernel marks it unstable and falls back to
    // the HPET, and perftest's cycle-counter sample against a syscall clock grows too noisy on a loaded
    // host to time anything ("Correlation coefficient r^2 < 0.9", every statistic inf); with the TSC
    // both are one counter read in user space
    AMD64("amd64", List.of("qemu-system-x86_64"), "console=ttyS0 panic=-1 loglevel=4 tsc=reliable clocksource=tsc",
            Duration.ofMinutes(4), 1),
    // qemu's virt board (PCIe, so the same virtio-pci devices) with its PL011 serial; the arm64
    // generic timer is the clock user space reads, no TSC to choose
    ARM64("arm64", List.of("qemu-system-aarch64", "-machine", "virt"), "console=ttyAMA0 panic=-1 loglevel=4",
            Duration.ofMinutes(8), 6);

    private final String debianArch;
    private final List<String> qemu;
    private final String kernelCommandLine;
    private final Duration bootTimeout;
    /** How many times an amd64 guest's limit a command of this guest is allowed. */
    private final int limitFactor;

    Guest(String debianArch, List<String> qemu, String kernelCommandLine, Duration bootTimeout, int limitFactor) {
        this.debianArch = debianArch;
        this.qemu = qemu;
        this.kernelCommandLine = kernelCommandLine;
        this.bootTimeout = bootTimeout;
        this.limitFactor = limitFactor;
    }

    /** A guest command's time limit, set for an amd64 guest, allowed for this one. */
    public Duration allow(Duration amd64Limit) {
        return amd64Limit.multipliedBy(limitFactor);
    }

    /** Debian's name of the architecture: vm-node/build.sh's argument. */
    public String debianArch() {
        return debianArch;
    }

    /** The qemu binary and its machine. */
    List<String> qemu() {
        return qemu;
    }

    String kernelCommandLine() {
        return kernelCommandLine;
    }

    /** From qemu's start to the agent's first answer. */
    Duration bootTimeout() {
        return bootTimeout;
    }

    /**
     * The cached VM node's folder: runs vm-node/build.sh (a no-op when cached, else a build with its
     * progress on stderr) and returns the folder it printed last.
     */
    Path image(Path repository) throws IOException, InterruptedException {
        buildTheOthersInBackground(repository);
        Process build = new ProcessBuilder("bash", repository.resolve("vm-node/build.sh").toString(), debianArch)
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        List<String> lines = new ArrayList<>();
        try (BufferedReader out = new BufferedReader(new InputStreamReader(build.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line; (line = out.readLine()) != null; ) {
                lines.add(line);
            }
        }
        if (!build.waitFor(15, TimeUnit.MINUTES) || build.exitValue() != 0 || lines.isEmpty()) {
            build.destroyForcibly();
            throw new IllegalStateException("vm-node/build.sh failed (see its output above)");
        }
        return Path.of(lines.get(lines.size() - 1));
    }

    /**
     * On the cold path the first guest's image is built while the others a test run boots later
     * ({@code vmNode.guests}, Debian's names: node-probe-vm sets {@code arm64,amd64}) are not yet
     * needed: those are built beside it, at the lowest CPU priority (niceness 19, as every build started
     * ahead of need: they take what the first build and the tests leave), so the later classes find
     * them ready instead of building them then.
     * Their output goes to {@code vm-node-<arch>.log} in the build's target folder; a later
     * {@link #image} of such a guest waits for its build's lock. A cached image makes it a no-op.
     */
    private void buildTheOthersInBackground(Path repository) throws IOException {
        if (!BACKGROUND_BUILDS_STARTED.compareAndSet(false, true)) {
            return;
        }
        Path logs = Path.of(System.getProperty("vmNode.target", System.getProperty("java.io.tmpdir")));
        List<String> later = List.of(System.getProperty("vmNode.guests", "").split(","));
        for (Guest other : values()) {
            if (other != this && later.contains(other.debianArch)) {
                new ProcessBuilder("nice", "-n", "19", "bash", repository.resolve("vm-node/build.sh").toString(), other.debianArch)
                        .redirectErrorStream(true)
                        .redirectOutput(logs.resolve("vm-node-" + other.debianArch + ".log").toFile())
                        .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
                        .start();
            }
        }
    }

    private static final AtomicBoolean BACKGROUND_BUILDS_STARTED = new AtomicBoolean();
}
