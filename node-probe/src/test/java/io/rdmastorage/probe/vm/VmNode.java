package io.rdmastorage.probe.vm;

import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A Linux VM with a real RDMA stack (soft-RoCE, nvmet) for the tests: the kernel, initramfs, root
 * disk and probe rootfs disk {@code vm-node/build.sh} caches, booted under qemu TCG with no network device, a serial console
 * written to {@code console.log}, and a virtio-serial port on which the guest's {@code vm-agent}
 * runs one bash script per request ({@link AgentChannel}). A folder is shared
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

    private final Process qemu;
    private final Path workDir;
    private final AgentChannel channel;
    private final Thread shutdownHook;
    private final String kernelVersion;
    private final Guest guest;

    private VmNode(Guest guest, Process qemu, Path workDir, SocketChannel channel, String kernelVersion) {
        this.guest = guest;
        this.qemu = qemu;
        this.workDir = workDir;
        this.channel = new AgentChannel(channel, () -> log(workDir));
        this.kernelVersion = kernelVersion;
        this.shutdownHook = new Thread(qemu::destroyForcibly, "vm-node-kill");
        Runtime.getRuntime().addShutdownHook(shutdownHook);
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
        Path image = guest.image(repository);
        GuestTurn.take();
        String kernelVersion = Files.readString(image.resolve("kernel-version")).strip();
        Files.createDirectories(workDir);
        Path socket = workDir.resolve("agent.sock");
        Files.deleteIfExists(socket);
        List<String> command = new ArrayList<>(guest.qemu());
        command.addAll(List.of("-accel", "tcg,thread=multi", "-cpu", "max", "-smp", "2", "-m", "4G",
                "-nodefaults", "-no-user-config", "-display", "none", "-no-reboot"));
        // nothing leaves the VM: its links are the veth pairs the tests create inside, and at most the
        // API server's forward
        command.addAll(devices);
        // the guest's root and the probe image's root file system, each found by its label: snapshot=on keeps
        // what a boot writes there (a kubelet's state, the jar's CDS archive) out of the cached files, which
        // two guests may share
        for (String disk : List.of("root.ext4", "probe-rootfs.ext4")) {
            command.addAll(List.of("-drive", "file=" + image.resolve(disk) + ",if=virtio,format=raw,snapshot=on"));
        }
        command.addAll(List.of(
                "-serial", "file:" + workDir.resolve("console.log"),
                "-kernel", image.resolve("vmlinuz").toString(),
                "-initrd", image.resolve("initramfs.cpio").toString(),
                "-append", guest.kernelCommandLine(),
                "-device", "virtio-serial-pci",
                "-chardev", "socket,id=agent,path=" + socket + ",server=on,wait=off",
                "-device", "virtserialport,chardev=agent,name=vm-agent",
                "-virtfs", "local,path=" + share + ",mount_tag=share,security_model=none,readonly=on"));
        Process qemu = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(workDir.resolve("qemu.log").toFile()).start();
        long deadline = System.nanoTime() + guest.bootTimeout().toNanos();
        SocketChannel channel = null;
        try {
            while (channel == null) {
                if (!qemu.isAlive()) {
                    throw new IllegalStateException("qemu exited with " + qemu.exitValue() + ": " + log(workDir));
                }
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("qemu's command channel did not open in " + guest.bootTimeout() + log(workDir));
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
            node.awaitAgent(deadline, guest.bootTimeout());
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
        Path share = share(guest, target);
        deleteTree(share);
        Files.createDirectories(share);
        // its modification time kept: the JVM maps a CDS archive only with the jar it was made from (probe-cds.sh)
        Files.copy(jar, share.resolve("node-probe.jar"), StandardCopyOption.COPY_ATTRIBUTES);
        for (String file : List.of("vm-node/scenario.sh", "vm-node/kubelet-node.sh", "node-probe/Dockerfile",
                "node-probe/image-cds.sh", "scripts/dockerfile-array.sh")) {
            Files.copy(repository.resolve(file), share.resolve(Path.of(file).getFileName()));
        }
        long start = System.nanoTime();
        VmNode vm = boot(guest, repository, share, target.resolve("vm-node" + suffix(guest)), devices);
        System.err.printf("vm-node: kernel %s booted in %.1f s%n", vm.kernelVersion(), (System.nanoTime() - start) / 1e9);
        return vm;
    }

    /** What tells a guest's folders under {@code target} from another architecture's: nothing for amd64's. */
    private static String suffix(Guest guest) {
        return guest == Guest.AMD64 ? "" : "-" + guest.debianArch();
    }

    /** The folder shared into {@code guest} at /mnt/share. */
    private static Path share(Guest guest, Path target) {
        return target.resolve("vm-share" + suffix(guest));
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
        HostCdsArchive archive = HostCdsArchive.start(guest, repository, jar, target);
        VmNode vm;
        try {
            vm = bootWithScripts(guest, repository, jar, target, devices);
        } catch (IOException | InterruptedException | RuntimeException e) {
            archive.cancel();
            throw e;
        }
        try {
            archive.copyInto(share(guest, target), guest);
            String made = vm.run("bash /mnt/share/scenario.sh image", guest.allow(Duration.ofSeconds(180)))
                    .requireSuccess("scenario.sh image").stdout().strip();
            System.err.printf("vm-node: probe image ready after %.1f s (%s)%n", (System.nanoTime() - start) / 1e9, made);
            return vm;
        } catch (RuntimeException e) {
            vm.close();
            throw e;
        }
    }

    private void awaitAgent(long deadline, Duration bootTimeout) throws InterruptedException {
        if (!channel.awaitAgent(deadline, qemu::isAlive)) {
            throw new IllegalStateException("the VM's agent did not answer in " + bootTimeout + log(workDir));
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
        return channel.run(script, timeout);
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

    /** Kills the VM (it holds nothing that needs a clean shutdown: its disks' writes are thrown away). */
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
