package io.rdmastorage.probe.vm;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * The probe's class-data-sharing archive made on the host while a guest boots
 * ({@code scripts/probe-cds.sh}: the guest architecture's JVM in the probe image's root file system,
 * arm64's through qemu-user), so that {@code scenario.sh image} only checks that the guest's JVM maps
 * it instead of making it under TCG, which takes one minute in the amd64 guest and two in the arm64
 * one. Best effort: where the host cannot make it (no root, no qemu-user), the guest makes it as
 * before, and the log says which.
 */
final class HostCdsArchive {

    /** How long the archive may still take once the guest has booted, for an amd64 guest ({@link Guest#allow}). */
    private static final Duration AFTER_BOOT = Duration.ofSeconds(90);

    private final Process process;
    private final Path archive;
    private final Path log;
    private final long started;

    private HostCdsArchive(Process process, Path archive, Path log, long started) {
        this.process = process;
        this.archive = archive;
        this.log = log;
        this.started = started;
    }

    /** Starts making the archive of {@code jar} for {@code guest} under {@code target}. */
    static HostCdsArchive start(Guest guest, Path repository, Path jar, Path target) throws IOException {
        Path archive = target.resolve("node-probe-" + guest.debianArch() + ".jsa");
        Path log = target.resolve("probe-cds-" + guest.debianArch() + ".log");
        Files.createDirectories(target);
        Files.deleteIfExists(archive);
        Process process = new ProcessBuilder("bash", repository.resolve("scripts/probe-cds.sh").toString(), guest.debianArch(),
                jar.toAbsolutePath().toString(), archive.toString())
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        return new HostCdsArchive(process, archive, log, System.nanoTime());
    }

    /**
     * Waits for the archive and copies it into {@code share} as {@code node-probe.jsa}; leaves the
     * share as it is when the host made none, or not in time.
     */
    void copyInto(Path share, Guest guest) throws IOException, InterruptedException {
        if (!process.waitFor(guest.allow(AFTER_BOOT).toSeconds(), TimeUnit.SECONDS)) {
            cancel();
            System.err.printf("vm-node: the host's %s CDS archive not made in time; the guest makes it%n", guest.debianArch());
            return;
        }
        if (process.exitValue() != 0 || !Files.isRegularFile(archive)) {
            System.err.printf("vm-node: the host made no %s CDS archive (exit %d: %s); the guest makes it%n", guest.debianArch(),
                    process.exitValue(), Files.readString(log).strip());
            return;
        }
        Files.copy(archive, share.resolve("node-probe.jsa"), StandardCopyOption.REPLACE_EXISTING);
        System.err.printf("vm-node: %s CDS archive made on the host in %.1f s%n", guest.debianArch(),
                (System.nanoTime() - started) / 1e9);
    }

    /** Stops making it (the boot failed): the script and what it started. */
    void cancel() {
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
    }
}
