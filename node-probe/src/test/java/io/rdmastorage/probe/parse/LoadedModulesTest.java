package io.rdmastorage.probe.parse;

import static org.assertj.core.api.Assertions.assertThat;

import io.rdmastorage.probe.testing.Samples;
import org.junit.jupiter.api.Test;

class LoadedModulesTest {

    @Test
    void recordedLsmodListingWithPromptsPasted() {
        LoadedModules modules = LoadedModules.parse(Samples.body("gds/lsmod-nvidia_fs_issue31.txt"));

        assertThat(modules.names()).containsExactly("nvidia", "nvidia_fs", "nvme_core");
    }

    @Test
    void recordedLsmodOfAGdsCapableHost() {
        LoadedModules modules = LoadedModules.parse(Samples.body("gds/lsmod-nvidia_fs_stelline.txt"));

        assertThat(modules.loaded("nvidia_fs")).isTrue();
        assertThat(modules.loaded("mlx_compat")).isTrue();
        assertThat(modules.loaded("nvme_rdma")).isFalse();
    }

    @Test
    void procModulesFormatAndGarbage() {
        // /proc/modules lines as the kernel prints them (name, size, use count, users, state, address, taint):
        // constructed from the recorded lsmod listing above, which lsmod formats from this file
        LoadedModules modules = LoadedModules.parse("""
                nvidia_fs 258048 0 - Live 0xffffffffc1a00000 (OE)
                nvidia 11427840 4 nvidia_uvm,nvidia_peermem,nvidia_fs,nvidia_modeset, Live 0xffffffffc0c00000 (POE)
                Module                  Size  Used by
                \u0000\u0013 garbage ###
                """);

        assertThat(modules.names()).containsExactly("nvidia", "nvidia_fs");
    }
}
