package io.rdmastorage.contract.spec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The nfs section's rule: mount points as the mount table writes them, nothing that escapes a path. */
class NfsSpecTest {

    private static ProbeSpec nfs(List<String> mounts) {
        return new ProbeSpec(null, null, null, null, null, null, null, new ProbeSpec.Nfs(mounts));
    }

    @Test
    void absoluteMountPointsAreAccepted() throws Exception {
        SpecValidator.validate(nfs(List.of("/data", "/mnt/gds-data_01", "/srv/nfs+rdma/user@site")));
        SpecValidator.validate(nfs(null));
        assertThat(new ProbeSpec.Nfs(null).mounts()).isEmpty();
    }

    @Test
    void relativeEscapingOrShellLikeValuesAreRefusedNamingTheEntry() {
        for (String bad : List.of("data", "/data/", "/data/../etc", "/.hidden", "/mnt/a b", "/mnt/a;reboot", "//data",
                "/" + "a".repeat(Rules.MOUNT_POINT_MAX_LENGTH))) {
            assertThatThrownBy(() -> SpecValidator.validate(nfs(List.of("/ok", bad)))).as(bad)
                    .hasMessageContaining("nfs.mounts[1]");
        }
        assertThatThrownBy(() -> SpecValidator.validate(nfs(List.of("/data", "/data")))).hasMessageContaining("nfs.mounts[1]")
                .hasMessageContaining("listed twice");
    }

    @Test
    void theGdsSectionKeepsItsShorterForm() {
        ProbeSpec.Gds gds = new ProbeSpec.Gds(List.of("nfs"), null, null, null);

        assertThat(gds.requireUserspaceRdma()).isFalse();
        assertThat(gds.verifyDataPath()).isFalse();
        assertThat(gds.requireIommuDisabled()).isTrue();
    }
}
