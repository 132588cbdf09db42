package io.rdmastorage.probe.parse;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class NvfsHookSymbolsTest {

    @Test
    void findsRegistrationHooksAndTheirExportAliases() {
        // constructed in kallsyms' "address type name\t[module]" format
        String kallsyms = """
                ffffffffc0a43a20 T nvme_v1_register_nvfs_dma_ops\t[nvme]
                ffffffffc0a43a90 T nvme_v1_unregister_nvfs_dma_ops\t[nvme]
                ffffffffc0a4e0c8 r __ksymtab_nvme_v2_register_nvfs_dma_ops\t[nvme]
                ffffffffc0b12340 T nvme_rdma_v1_register_nvfs_dma_ops\t[nvme_rdma]
                ffffffffc0d00010 T rpcrdma_register_nvfs_dma_ops\t[rpcrdma]
                ffffffffc0c01000 t nvfs_blk_register_dma_ops\t[nvidia_fs]
                """;

        NvfsHookSymbols hooks = NvfsHookSymbols.scan(kallsyms);

        assertThat(hooks.registrationSymbols()).containsExactlyInAnyOrder("nvme_v1_register_nvfs_dma_ops",
                "nvme_v2_register_nvfs_dma_ops", "nvme_rdma_v1_register_nvfs_dma_ops", "rpcrdma_register_nvfs_dma_ops");
    }

    @Test
    void restrictedAddressesAndLastLineWithoutNewline() {
        // kptr_restrict zeroes addresses for unprivileged readers; built-in symbols have no [module]
        NvfsHookSymbols hooks = NvfsHookSymbols.scan("0000000000000000 T nvme_v1_register_nvfs_dma_ops");

        assertThat(hooks.exports("nvme_v1_register_nvfs_dma_ops")).isTrue();
    }

    @Test
    void stockKernelExportsNone() {
        String kallsyms = "ffffffffc0a41000 t nvme_pci_complete_rq\t[nvme]\n"
                + "ffffffffc0a41001 t nvme_v1_register_nvfs_dma_ops_helper\t[other]\n";

        assertThat(NvfsHookSymbols.scan(kallsyms).registrationSymbols()).isEmpty();
        assertThat(NvfsHookSymbols.scan("").registrationSymbols()).isEmpty();
    }

    @Test
    void largeSymbolTable() {
        StringBuilder big = new StringBuilder();
        for (int i = 0; i < 200_000; i++) {
            big.append("ffffffff8100").append(Integer.toHexString(i)).append(" t some_kernel_function_").append(i).append('\n');
        }
        big.append("ffffffffc0b12340 T nvme_rdma_v1_register_nvfs_dma_ops\t[nvme_rdma]\n");

        assertThat(NvfsHookSymbols.scan(big.toString()).registrationSymbols())
                .containsExactly("nvme_rdma_v1_register_nvfs_dma_ops");
    }
}
