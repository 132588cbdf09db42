package io.rdmastorage.probe.host;

import static org.assertj.core.api.Assertions.assertThat;

import io.rdmastorage.probe.testing.FixtureHost;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HostRootReadTailTest {

    @TempDir
    Path dir;

    @Test
    void tailStartsAtAWholeLine() {
        FixtureHost.at(dir).file("/var/log/x.log", "first line\nsecond line\nthird\n");
        HostRoot host = new HostRoot(dir);

        assertThat(host.readTail("/var/log/x.log", 15)).hasValue("third\n");
        assertThat(host.readTail("/var/log/x.log", 1000)).hasValue("first line\nsecond line\nthird\n");
        assertThat(host.readTail("/var/log/x.log", 3)).hasValue("");
    }

    @Test
    void missingFileOrDirectoryIsEmpty() {
        FixtureHost.at(dir).mkdir("/var/log");
        HostRoot host = new HostRoot(dir);

        assertThat(host.readTail("/var/log/none.log", 100)).isEmpty();
        assertThat(host.readTail("/var/log", 100)).isEmpty();
    }

    @Test
    void absoluteLinksStayInsideTheRoot() {
        FixtureHost.at(dir).file("/var/adm/ras/mmfs.log.2024", "a\nb\n").symlink("/var/adm/ras/mmfs.log.latest",
                "/var/adm/ras/mmfs.log.2024");

        assertThat(new HostRoot(dir).readTail("/var/adm/ras/mmfs.log.latest", 100)).hasValue("a\nb\n");
    }
}
