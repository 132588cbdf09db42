package io.rdmastorage.probe.parse;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class NvidiaFsModulesTest {

    @Test
    void registeredDriversByName() {
        // constructed from nvfs-proc.c's "%s: %s" format; entries without a version print "(null)"
        NvidiaFsModules m = NvidiaFsModules.parse("nvme: (null)\nnvme_rdma: (null)\nwekafsio: 1\n");

        assertThat(m.registered("nvme")).isTrue();
        assertThat(m.registered("nvme_rdma")).isTrue();
        assertThat(m.registered("rpcrdma")).isFalse();
        assertThat(m.modules()).containsEntry("wekafsio", "1");
    }

    @Test
    void onlyThePseudoEntryOnAStockKernel() {
        // what gds-nvidia-fs issue reports show on hosts whose nvme driver never registered
        NvidiaFsModules m = NvidiaFsModules.parse("wekafsio: 1\n");

        assertThat(m.modules()).containsOnlyKeys("wekafsio");
        assertThat(m.registered("nvme")).isFalse();
    }

    @Test
    void toleratesBlankLinesCrlfAndGarbage() {
        NvidiaFsModules m = NvidiaFsModules.parse("\r\n  nvme: (null)\r\nnot a module line at all\r\n\r\n");

        assertThat(m.modules()).containsOnlyKeys("nvme");
        assertThat(NvidiaFsModules.parse("").modules()).isEmpty();
    }
}
