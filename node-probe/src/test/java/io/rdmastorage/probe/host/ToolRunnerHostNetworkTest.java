package io.rdmastorage.probe.host;

import static org.assertj.core.api.Assertions.assertThat;

import io.rdmastorage.probe.testing.FixtureHost;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link ToolRunner#runInHostNetwork}: through nsenter into the host PID 1's network namespace when
 * that is another one than the probe's, as the tool itself otherwise.
 */
class ToolRunnerHostNetworkTest {

    @TempDir
    Path dir;

    private ToolRunner runner(FixtureHost fixture) {
        HostRoot host = new HostRoot(fixture.root());
        return new ToolRunner(host, new ToolLocator(host, Map.of()), ExecMode.DIRECT, Duration.ofSeconds(5));
    }

    private FixtureHost hostWithDcb() {
        return FixtureHost.at(dir.resolve("root")).tool("/usr/sbin/dcb").on("pfc", "show", "dev", "eth0").prints("prio-pfc 3:on\n").and();
    }

    /** The host's PID 1 in a namespace whose link differs from the probe's own (a pod's view of the node). */
    private static FixtureHost otherNamespace(FixtureHost host) throws Exception {
        Path ns = host.path("/proc/1/ns");
        Files.createDirectories(ns);
        Files.createSymbolicLink(ns.resolve("net"), Path.of("net:[1]"));   // no real namespace has inode 1
        return host;
    }

    @Test
    void inAnotherNamespaceTheToolRunsThroughNsenterShownAsItself() throws Exception {
        FixtureHost host = otherNamespace(hostWithDcb());
        // nsenter records its arguments and runs the rest, as the real one does after setns
        host.script("/usr/bin/nsenter", "#!/bin/sh\necho \"$@\" > " + FixtureHost.shQuote(host.path("/nsenter.args").toString())
                + "\nshift\nexec \"$@\"\n");

        ToolResult result = runner(host).runInHostNetwork("dcb", List.of("pfc", "show", "dev", "eth0"));

        assertThat(result.succeeded()).as(result.problem()).isTrue();
        assertThat(result.stdout()).isEqualTo("prio-pfc 3:on\n");
        assertThat(result.command()).isEqualTo("dcb pfc show dev eth0");
        assertThat(Files.readString(host.path("/nsenter.args")).strip()).isEqualTo("--net=" + host.path("/proc/1/ns/net")
                + " " + host.path("/usr/sbin/dcb") + " pfc show dev eth0");
    }

    @Test
    void withoutNsenterItCannotStartAndSaysWhy() throws Exception {
        ToolResult result = runner(otherNamespace(hostWithDcb())).runInHostNetwork("dcb", List.of("pfc", "show", "dev", "eth0"));

        assertThat(result.ending()).isEqualTo(ToolResult.Ending.START_FAILED);
        assertThat(result.problem()).isEqualTo("'dcb pfc show dev eth0' could not be started: nsenter (util-linux) not found "
                + "under the host root: needed to reach the host's network namespace");
    }

    @Test
    void aMissingToolIsNotFoundUnderItsOwnName() throws Exception {
        FixtureHost host = otherNamespace(FixtureHost.at(dir.resolve("root")));
        host.script("/usr/bin/nsenter", "#!/bin/sh\nexit 0\n");

        assertThat(runner(host).runInHostNetwork("mlnx_qos", List.of("-i", "eth0")).problem())
                .isEqualTo("mlnx_qos not found under the host root");
    }

    @Test
    void withoutTheHostsNamespaceLinkTheToolRunsItself() {
        // no proc/1/ns/net under the root (and no nsenter): nothing to enter, the tool runs as run() runs it
        ToolResult result = runner(hostWithDcb()).runInHostNetwork("dcb", List.of("pfc", "show", "dev", "eth0"));

        assertThat(result.succeeded()).as(result.problem()).isTrue();
        assertThat(result.stdout()).isEqualTo("prio-pfc 3:on\n");
    }

    /**
     * PID 1's namespace is there but cannot be read (measured on a build machine whose init even root
     * may not inspect: EACCES on readlink, nsenter "Permission denied"): the tool must not run in the
     * probe's own namespace, where it would see the pod's netdevs and sockets as the host's.
     */
    @Test
    void anUnreadableHostNamespaceIsNeverReplacedByTheProbesOwn() throws Exception {
        FixtureHost host = otherNamespace(hostWithDcb());
        host.script("/usr/bin/nsenter", "#!/bin/sh\necho entered > " + FixtureHost.shQuote(host.path("/nsenter.ran").toString()) + "\n");
        HostRoot root = new HostRoot(host.root());
        ToolRunner runner = new ToolRunner(root, new ToolLocator(root, Map.of()), ExecMode.DIRECT, Duration.ofSeconds(5), link -> {
            if (link.startsWith(host.root())) {
                throw new java.nio.file.AccessDeniedException(link.toString());
            }
            return Files.readSymbolicLink(link).toString();
        });

        ToolResult result = runner.runInHostNetwork("dcb", List.of("pfc", "show", "dev", "eth0"));

        assertThat(result.ending()).isEqualTo(ToolResult.Ending.START_FAILED);
        assertThat(result.stdout()).as("dcb did not run in the probe's namespace").isEmpty();
        assertThat(result.problem()).isEqualTo("'dcb pfc show dev eth0' could not be started: cannot read the host's network "
                + "namespace /proc/1/ns/net (permission denied), and the probe's own network namespace may not be the host's");
        assertThat(Files.exists(host.path("/nsenter.ran"))).isFalse();
        assertThat(runner.hostNetwork().problem()).isPresent();
    }
}
