package io.rdmastorage.operator.it;

import io.rdmastorage.probe.vm.VmNode;
import io.rdmastorage.testing.CommandResult;
import io.rdmastorage.testing.ProbeLauncher;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;

/**
 * Runs a simulated node's probe container in the VM node (a real kernel's soft-RoCE and nvmet)
 * instead of on a fixture root: the VM plays each node in turn, set up as that node's state says
 * ({@code vm-node/scenario.sh connect rdma|tcp}), reading its namespace during the probe, and
 * node-probe runs as its pod with the pod's own arguments, spec and termination log. One probe at a
 * time: the VM has one kernel.
 */
final class VmNodeProbeLauncher implements ProbeLauncher {

    /** The options the simulated kubelet translated to local paths; the VM's pod gets its own. */
    private static final List<String> LOCAL_OPTIONS = List.of("--host-root", "--exec-mode", "--spec", "--output");

    private final VmNode vm;
    /** node name → the transport its NVMe-oF target is connected over. */
    private final Map<String, String> transports;

    VmNodeProbeLauncher(VmNode vm, Map<String, String> transports) {
        this.vm = vm;
        this.transports = transports;
    }

    @Override
    public synchronized CommandResult launch(List<String> args, Map<String, String> env) {
        String node = valueOf(args, "--node");
        String transport = transports.get(node);
        if (transport == null) {
            throw new IllegalStateException("the VM plays no node " + node);
        }
        String spec;
        try {
            spec = Files.readString(Path.of(valueOf(args, "--spec")), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        List<String> podArgs = new ArrayList<>();
        for (int i = 0; i < args.size(); i++) {
            if (LOCAL_OPTIONS.contains(args.get(i))) {
                i++;
            } else {
                podArgs.add(quote(args.get(i)));
            }
        }
        vm.run("bash /mnt/share/scenario.sh reset && bash /mnt/share/scenario.sh connect " + transport, Duration.ofSeconds(60))
                .requireSuccess("setting up " + node);
        // the node does storage I/O while it is probed (a read-only direct read of the connected
        // namespace), so the traffic window sees which transport carries it
        vm.run("dev=$(ls /dev/nvme*n1 | head -1)\n"
                + "setsid sh -c 'echo $$ > /tmp/dd.pid; exec timeout 150 dd if=\"$1\" of=/dev/null bs=1M iflag=direct' dd \"$dev\""
                + " > /tmp/dd.log 2>&1 < /dev/null &\n"
                + "for i in $(seq 50); do [ -s /tmp/dd.pid ] && break; sleep 0.1; done", Duration.ofSeconds(30))
                .requireSuccess("reading on " + node);
        VmNode.Result probe;
        try {
            probe = vm.run("bash /mnt/share/scenario.sh probe "
                    + Base64.getEncoder().encodeToString(spec.getBytes(StandardCharsets.UTF_8))
                    + " --termination-log /run/termination-log -- " + String.join(" ", podArgs)
                    + " --output /dev/termination-log", Duration.ofSeconds(120));
        } finally {
            vm.run("[ ! -s /tmp/dd.pid ] || kill \"$(cat /tmp/dd.pid)\" 2>/dev/null || true; rm -f /tmp/dd.pid", Duration.ofSeconds(10));
        }
        String terminationLog = vm.run("cat /run/termination-log", Duration.ofSeconds(10)).stdout();
        try {
            Files.writeString(Path.of(valueOf(args, "--output")), terminationLog, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new CommandResult(probe.exitCode(), probe.stdout(), probe.stderr());
    }

    private static String valueOf(List<String> args, String option) {
        int i = args.indexOf(option);
        if (i < 0 || i + 1 >= args.size()) {
            throw new IllegalStateException("the probe's arguments have no " + option + ": " + args);
        }
        return args.get(i + 1);
    }

    /** One argv element as a single-quoted bash word. */
    private static String quote(String arg) {
        return "'" + arg.replace("'", "'\\''") + "'";
    }
}
