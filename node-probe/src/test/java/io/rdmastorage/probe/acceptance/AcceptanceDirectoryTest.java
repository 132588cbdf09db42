package io.rdmastorage.probe.acceptance;

import static org.assertj.core.api.Assertions.assertThat;

import io.rdmastorage.probe.parse.ProcMounts;
import org.junit.jupiter.api.Test;

/** The free-space rule and which mount holds a directory; the command's checks on a fixture host are PathAcceptanceCommandTest's. */
class AcceptanceDirectoryTest {

    private static final long GIB = 1024L * 1024 * 1024;

    @Test
    void tooLittleFreeSpaceIsRefusedBeforeWriting() {
        assertThat(AcceptanceDirectory.freeSpaceRefusal("/mnt/nfs/", 3 * GIB, 100 * GIB, 4 * GIB)).hasValueSatisfying(m ->
                assertThat(m).isEqualTo("/mnt/nfs/ has 3072 MiB free, too little for the run's 4096 MiB file while leaving "
                        + "5 % of the file system free; lower path.fileSizeMiB or free space there"));
        // it fits, but would leave less than 5 % of the file system
        assertThat(AcceptanceDirectory.freeSpaceRefusal("/mnt/nfs/", 8 * GIB, 100 * GIB, 4 * GIB)).isPresent();
        assertThat(AcceptanceDirectory.freeSpaceRefusal("/mnt/nfs/", 10 * GIB, 100 * GIB, 4 * GIB)).isEmpty();
    }

    @Test
    void theDeepestMountByWholeDirectoriesHoldsADirectory() {
        ProcMounts mounts = ProcMounts.parse("/dev/vda1 / ext4 rw 0 0\n10.0.0.5:/export /mnt/nfs nfs4 rw 0 0\n"
                + "tmpfs /mnt/nfs2 tmpfs rw 0 0\n");

        assertThat(AcceptanceDirectory.holding(mounts, "/mnt/nfs/acceptance/")).map(ProcMounts.Mount::fsType).hasValue("nfs4");
        assertThat(AcceptanceDirectory.holding(mounts, "/mnt/nfs2/x")).map(ProcMounts.Mount::fsType).hasValue("tmpfs");
        assertThat(AcceptanceDirectory.holding(mounts, "/mnt/nfsx")).map(ProcMounts.Mount::fsType).hasValue("ext4");
    }
}
