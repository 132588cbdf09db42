package io.rdmastorage.probe.host;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import io.rdmastorage.probe.testing.FixtureHost;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A host directory's listing: one that is not there, or cannot be listed, is not an empty one. */
class HostRootEntriesTest {

    @TempDir
    Path dir;

    @Test
    void aDirectoryThatIsNotThereHasNoListingNotAnEmptyOne() {
        FixtureHost.at(dir).mkdir("/sys/kernel/iommu_groups").file("/sys/class/iommu", "not a directory\n")
                .file("/sys/class/net/eth0/mtu", "1500\n");
        HostRoot host = new HostRoot(dir);

        assertThat(host.entries("/sys/kernel/iommu_groups")).hasValue(List.of());
        assertThat(host.entries("/sys/class/net")).hasValue(List.of("eth0"));
        assertThat(host.entries("/sys/class/infiniband")).isEmpty();
        assertThat(host.entries("/sys/class/iommu")).isEmpty();
        // list() reads both as no entries: for callers to whom absence is the evidence
        assertThat(host.list("/sys/class/infiniband")).isEmpty();
    }

    @Test
    void aDirectoryThatCannotBeListedHasNoListing() throws IOException {
        assumeFalse("root".equals(System.getProperty("user.name")),
                "root lists a directory whatever its mode");
        FixtureHost.at(dir).file("/sys/kernel/iommu_groups/0/type", "identity\n");
        Path groups = dir.resolve("sys/kernel/iommu_groups");
        Files.setPosixFilePermissions(groups, PosixFilePermissions.fromString("-wx------"));
        try {
            assertThat(new HostRoot(dir).entries("/sys/kernel/iommu_groups")).isEmpty();
        } finally {
            Files.setPosixFilePermissions(groups, PosixFilePermissions.fromString("rwx------"));
        }
    }
}
