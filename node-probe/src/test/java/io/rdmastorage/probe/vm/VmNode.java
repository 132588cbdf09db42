package io.rdmastorage.probe.vm;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

/**
 * A Linux VM with a real RDMA stack (soft-RoCE, nvmet) for the tests: the kernel, initramfs and
 * probe rootfs disk {@code vm-node/build.sh} caches, booted under qemu TCG with no network device, a serial console
 * written to {@code console.log}, and a virtio-serial port on which the guest's {@code vm-agent}
 * runs one bash script per request (see {@code vm-node/guest/vm-agent}). A folder is shared
 * read-only into the guest at {@code /mnt/share} (9p): node-probe's jar and {@code vm-node/scenario.sh}.
 *
 * <p>Bounded: every command has a timeout in the guest and a slightly longer one here, boot has
 * one, and {@link #close()} (or a JVM shutdown hook) kills qemu, so nothing outlives the tests.
 * node-probe's VM test classes share one per JVM ({@link #shared()}).
 */
public final class VmNode implements AutoCloseable {

    /** What the guest printed for one script. */
    public record Result(int exitCode, String stdout, String stderr) {
        public Result requireSuccess(String what) {
            if (exitCode != 0) {
                throw new IllegalStateException(what + " failed in the VM (exit " + exitCode + "):\n" + stdout + stderr);
            }
            return this;
        }
    }

    /**
     * The guest's architecture: its qemu, machine, kernel command line and boot allowance. An
     * arm64 guest is emulated instruction by instruction on this x86 machine (TCG), about three
     * times slower than an amd64 one.
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
                Duration.ofMinutes(8), 3);

        private final String debianArch;
        private final List<String> qemu;
        private final String append;
        private final Duration bootTimeout;
        private final int slowdown;

        Guest(String debianArch, List<String> qemu, String append, Duration bootTimeout, int slowdown) {
            this.debianArch = debianArch;
            this.qemu = qemu;
            this.append = append;
            this.bootTimeout = bootTimeout;
            this.slowdown = slowdown;
        }

        /** A guest command's time limit, set for an amd64 guest, allowed for this one. */
        public Duration allow(Duration amd64Limit) {
            return amd64Limit.multipliedBy(slowdown);
        }

        /** Debian's name of the architecture: vm-node/build.sh's argument. */
        public String debianArch() {
            return debianArch;
        }
    }
    /** Added to a command's own timeout for the answer to come back over the channel. */
    private static final Duration CHANNEL_SLACK = Duration.ofSeconds(20);

    private final Process qemu;
    private final Path workDir;
    private final SocketChannel channel;
    private final BlockingQueue<String> answers = new LinkedBlockingQueue<>();
    private final AtomicLong ids = new AtomicLong();
    private final Thread shutdownHook;
    private final String kernelVersion;
    private final Guest guest;

    private VmNode(Guest guest, Process qemu, Path workDir, SocketChannel channel, String kernelVersion) {
        this.guest = guest;
        this.qemu = qemu;
        this.workDir = workDir;
        this.channel = channel;
        this.kernelVersion = kernelVersion;
        this.shutdownHook = new Thread(qemu::destroyForcibly, "vm-node-kill");
        Runtime.getRuntime().addShutdownHook(shutdownHook);
        Thread reader = new Thread(this::readAnswers, "vm-node-channel");
        reader.setDaemon(true);
        reader.start();
    }

    /**
     * Builds the VM node if its cache is absent (progress on stderr), boots it with {@code share}
     * shared into the guest, and waits until the guest answers on the command channel.
     */
    public static VmNode boot(Path repository, Path share, Path workDir) throws IOException, InterruptedException {
        return boot(repository, share, workDir, List.of("-nic", "none"));
    }

    /**
     * The guest's one network link for a real kubelet in the VM: qemu's user-mode network with
     * {@code restrict=on} (no route to the host or beyond) and a single guestfwd, 10.0.2.100:443 in
     * the guest, each connection of which qemu hands to {@code forwarder} (a command reading and
     * writing the connection on its stdio) — here one that connects to the host's loopback API server.
     */
    public static List<String> apiServerLink(String forwarder) {
        return List.of("-netdev", "user,id=api,restrict=on,net=10.0.2.0/24,guestfwd=tcp:10.0.2.100:443-cmd:" + forwarder,
                "-device", "virtio-net-pci,netdev=api");
    }

    /**
     * A raw disk image as the guest's {@code /dev/vda} (written in place, never flushed: a test's
     * scratch), for {@link #boot(Path, Path, Path, List)}'s {@code devices}.
     */
    public static List<String> disk(Path image) {
        return List.of("-drive", "file=" + image + ",if=virtio,format=raw,cache=unsafe");
    }

    /**
     * {@link #boot} with {@code devices}: qemu's options for the guest's links ({@code -nic none}, or
     * {@link #apiServerLink}) and any {@link #disk}.
     */
    public static VmNode boot(Path repository, Path share, Path workDir, List<String> devices) throws IOException, InterruptedException {
        return boot(Guest.AMD64, repository, share, workDir, devices);
    }

    /** {@link #boot(Path, Path, Path, List)} of a {@code guest} of another architecture. */
    public static VmNode boot(Guest guest, Path repository, Path share, Path workDir, List<String> devices)
            throws IOException, InterruptedException {
        Path image = build(repository, guest);
        GuestTurn.take();
        String kernelVersion = Files.readString(image.resolve("kernel-version")).strip();
        Files.createDirectories(workDir);
        Path socket = workDir.resolve("agent.sock");
        Files.deleteIfExists(socket);
        List<String> command = new ArrayList<>(guest.qemu);
        command.addAll(List.of("-accel", "tcg,thread=multi", "-cpu", "max", "-smp", "2", "-m", "4G",
                "-nodefaults", "-no-user-config", "-display", "none", "-no-reboot"));
        // nothing leaves the VM: its links are the veth pairs the tests create inside, and at most the
        // API server's forward
        command.addAll(devices);
        // the probe image's root file system (the guest mounts it by its label): snapshot=on keeps what a
        // boot writes there (the jar, its CDS archive) out of the cached file, which two guests may share
        command.addAll(List.of("-drive", "file=" + image.resolve("probe-rootfs.ext4") + ",if=virtio,format=raw,snapshot=on"));
        command.addAll(List.of(
                "-serial", "file:" + workDir.resolve("console.log"),
                "-kernel", image.resolve("vmlinuz").toString(),
                "-initrd", image.resolve("initramfs.cpio").toString(),
                "-append", guest.append,
                "-device", "virtio-serial-pci",
                "-chardev", "socket,id=agent,path=" + socket + ",server=on,wait=off",
                "-device", "virtserialport,chardev=agent,name=vm-agent",
                "-virtfs", "local,path=" + share + ",mount_tag=share,security_model=none,readonly=on"));
        Process qemu = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(workDir.resolve("qemu.log").toFile()).start();
        long deadline = System.nanoTime() + guest.bootTimeout.toNanos();
        SocketChannel channel = null;
        try {
            while (channel == null) {
                if (!qemu.isAlive()) {
                    throw new IllegalStateException("qemu exited with " + qemu.exitValue() + ": " + log(workDir));
                }
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("qemu's command channel did not open in " + guest.bootTimeout + log(workDir));
                }
                if (Files.exists(socket)) {
                    SocketChannel attempt = SocketChannel.open(StandardProtocolFamily.UNIX);
                    try {
                        attempt.connect(UnixDomainSocketAddress.of(socket));
                        channel = attempt;
                    } catch (IOException notYet) {
                        attempt.close();
                    }
                }
                if (channel == null) {
                    Thread.sleep(200);
                }
            }
            VmNode node = new VmNode(guest, qemu, workDir, channel, kernelVersion);
            node.awaitAgent(deadline, guest.bootTimeout);
            return node;
        } catch (IOException | InterruptedException | RuntimeException e) {
            qemu.destroyForcibly();
            if (channel != null) {
                channel.close();
            }
            throw e;
        }
    }

    private static VmNode shared;
    private static Exception sharedBootFailure;

    /**
     * One VM node for the whole JVM (failsafe runs a module's ITs in one), booted on first use with
     * {@link #bootWithBuiltProbe} and killed at exit by its shutdown hook: a boot under TCG takes
     * minutes, and {@code scenario.sh reset} gives each test a clean node. A failed boot is not
     * tried again for every class, and a VM that died is reported, not reused.
     */
    public static synchronized VmNode shared() throws IOException, InterruptedException {
        if (sharedBootFailure != null) {
            throw new IllegalStateException("the shared VM node failed to boot", sharedBootFailure);
        }
        if (shared == null) {
            try {
                shared = bootWithBuiltProbe();
            } catch (IOException | RuntimeException e) {
                sharedBootFailure = e;
                throw e;
            }
        }
        if (!shared.qemu.isAlive()) {
            throw new IllegalStateException("the shared VM node's qemu exited with " + shared.qemu.exitValue()
                    + log(shared.workDir));
        }
        return shared;
    }

    /** {@link #bootWithBuiltProbe(Guest)} on the amd64 guest. */
    public static VmNode bootWithBuiltProbe() throws IOException, InterruptedException {
        return bootWithBuiltProbe(Guest.AMD64);
    }

    /**
     * {@link #bootWithProbe} for the VM tests' module: the repository from {@code vmNode.repository}
     * (default: the module's parent), the jar the build packaged ({@code nodeProbe.jar}) and the
     * module's build folder ({@code vmNode.target}, default: the jar's folder).
     */
    public static VmNode bootWithBuiltProbe(Guest guest) throws IOException, InterruptedException {
        Path module = Path.of(System.getProperty("user.dir"));
        Path repository = Path.of(System.getProperty("vmNode.repository", module.resolveSibling("").toString()));
        Path jar = Path.of(System.getProperty("nodeProbe.jar", "target/node-probe.jar"));
        Path target = Path.of(System.getProperty("vmNode.target", jar.toAbsolutePath().getParent().toString()));
        return bootWithProbe(guest, repository, jar, target);
    }

    /**
     * Boots the VM node ready to run node-probe as its pod: shares {@code jar} in with
     * vm-node/scenario.sh and the image files it reads (the Dockerfile, image-cds.sh), and makes
     * the image's CDS archive ({@code scenario.sh image}). Folders under {@code target}.
     */
    public static VmNode bootWithProbe(Path repository, Path jar, Path target) throws IOException, InterruptedException {
        return bootWithProbe(repository, jar, target, List.of("-nic", "none"));
    }

    /**
     * Boots the VM node with {@code jar}, vm-node/scenario.sh, kubelet-node.sh and the image files they
     * read shared in, without the hand-built pod's CDS archive (a real kubelet runs the probe image,
     * which has its own). Folders under {@code target}.
     */
    public static VmNode bootWithScripts(Path repository, Path jar, Path target, List<String> devices)
            throws IOException, InterruptedException {
        return bootWithScripts(Guest.AMD64, repository, jar, target, devices);
    }

    private static VmNode bootWithScripts(Guest guest, Path repository, Path jar, Path target, List<String> devices)
            throws IOException, InterruptedException {
        String suffix = guest == Guest.AMD64 ? "" : "-" + guest.debianArch;
        Path share = target.resolve("vm-share" + suffix);
        deleteTree(share);
        Files.createDirectories(share);
        Files.copy(jar, share.resolve("node-probe.jar"));
        for (String file : List.of("vm-node/scenario.sh", "vm-node/kubelet-node.sh", "node-probe/Dockerfile",
                "node-probe/image-cds.sh", "scripts/dockerfile-array.sh")) {
            Files.copy(repository.resolve(file), share.resolve(Path.of(file).getFileName()));
        }
        long start = System.nanoTime();
        VmNode vm = boot(guest, repository, share, target.resolve("vm-node" + suffix), devices);
        System.err.printf("vm-node: kernel %s booted in %.1f s%n", vm.kernelVersion(), (System.nanoTime() - start) / 1e9);
        return vm;
    }

    /** {@link #bootWithProbe} with qemu's {@code devices} options (see {@link #boot(Path, Path, Path, List)}). */
    public static VmNode bootWithProbe(Path repository, Path jar, Path target, List<String> devices)
            throws IOException, InterruptedException {
        return bootWithProbe(Guest.AMD64, repository, jar, target, devices);
    }

    /** {@link #bootWithProbe(Path, Path, Path)} on a {@code guest} of another architecture, with no network device. */
    public static VmNode bootWithProbe(Guest guest, Path repository, Path jar, Path target) throws IOException, InterruptedException {
        return bootWithProbe(guest, repository, jar, target, List.of("-nic", "none"));
    }

    private static VmNode bootWithProbe(Guest guest, Path repository, Path jar, Path target, List<String> devices)
            throws IOException, InterruptedException {
        long start = System.nanoTime();
        VmNode vm = bootWithScripts(guest, repository, jar, target, devices);
        try {
            vm.run("bash /mnt/share/scenario.sh image", guest.allow(Duration.ofSeconds(180))).requireSuccess("scenario.sh image");
            System.err.printf("vm-node: probe image ready after %.1f s%n", (System.nanoTime() - start) / 1e9);
            return vm;
        } catch (RuntimeException e) {
            vm.close();
            throw e;
        }
    }

    /** Runs vm-node/build.sh (a no-op when cached) and returns the cache folder it printed last. */
    private static Path build(Path repository, Guest guest) throws IOException, InterruptedException {
        Process build = new ProcessBuilder("bash", repository.resolve("vm-node/build.sh").toString(), guest.debianArch)
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

    /** The agent restarts until the host side is connected: ping until it answers. */
    private void awaitAgent(long deadline, Duration bootTimeout) throws InterruptedException {
        while (true) {
            try {
                if (run("echo ready", Duration.ofSeconds(5), Duration.ofSeconds(3)).stdout().strip().equals("ready")) {
                    return;
                }
            } catch (IllegalStateException noAnswerYet) {
                if (System.nanoTime() > deadline || !qemu.isAlive()) {
                    throw new IllegalStateException("the VM's agent did not answer in " + bootTimeout + log(workDir));
                }
            }
        }
    }

    /** The NVMe fabrics controllers the guest's kernel has now: {@code nvme0 rdma}, one per line. */
    public String nvmeControllers() {
        return run("for c in /sys/class/nvme/nvme*; do [ -e \"$c/transport\" ] && echo \"${c##*/} $(cat $c/transport)\"; done; true",
                Duration.ofSeconds(30)).requireSuccess("list controllers").stdout();
    }

    public String kernelVersion() {
        return kernelVersion;
    }

    /** The guest's architecture (its commands' time limits scale with it: {@link Guest#allow}). */
    public Guest guest() {
        return guest;
    }

    /** Runs a bash script in the guest, killed there after {@code timeout}. */
    public Result run(String script, Duration timeout) {
        return run(script, timeout, timeout.plus(CHANNEL_SLACK));
    }

    private Result run(String script, Duration timeout, Duration wait) {
        String id = "r" + ids.incrementAndGet();
        String request = id + " " + Math.max(1, timeout.toSeconds()) + " "
                + Base64.getEncoder().encodeToString(script.getBytes(StandardCharsets.UTF_8)) + "\n";
        try {
            synchronized (channel) {
                ByteBuffer bytes = ByteBuffer.wrap(request.getBytes(StandardCharsets.US_ASCII));
                while (bytes.hasRemaining()) {
                    channel.write(bytes);
                }
            }
            long until = System.nanoTime() + wait.toNanos();
            while (true) {
                long left = until - System.nanoTime();
                String answer = left > 0 ? answers.poll(left, TimeUnit.NANOSECONDS) : null;
                if (answer == null) {
                    throw new IllegalStateException("no answer from the VM in " + wait + " to: " + script);
                }
                String[] fields = answer.split(" ", -1);
                if (fields.length == 4 && fields[0].equals(id)) {
                    return new Result(Integer.parseInt(fields[1]), decode(fields[2]), decode(fields[3]));
                }
                // an answer to an earlier request that timed out here: dropped
            }
        } catch (IOException e) {
            throw new UncheckedIOException("the VM's command channel failed" + log(workDir), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    private static String decode(String base64) {
        return new String(Base64.getDecoder().decode(base64), StandardCharsets.UTF_8);
    }

    private void readAnswers() {
        try (BufferedReader in = new BufferedReader(Channels.newReader(channel, StandardCharsets.US_ASCII))) {
            for (String line; (line = in.readLine()) != null; ) {
                answers.add(line);
            }
        } catch (IOException closed) {
            // the VM is gone; run() times out or has already been told
        }
    }

    /** The serial console so far: what the kernel and init printed. */
    public String console() {
        try {
            return Files.readString(workDir.resolve("console.log"), StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "";
        }
    }

    private static String log(Path workDir) {
        try {
            return "; console:\n" + Files.readString(workDir.resolve("console.log")) + "\nqemu:\n"
                    + Files.readString(workDir.resolve("qemu.log"));
        } catch (IOException e) {
            return "";
        }
    }

    /** Kills the VM (it holds nothing that needs a clean shutdown: its root is in RAM). */
    @Override
    public void close() throws IOException {
        try {
            channel.close();
        } finally {
            qemu.destroyForcibly();
            try {
                qemu.waitFor(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            try {
                Runtime.getRuntime().removeShutdownHook(shutdownHook);
            } catch (IllegalStateException shuttingDown) {
                // the hook is running or has run
            }
        }
    }

    /** Deletes a folder tree (the share and work folders of a test class). */
    static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
