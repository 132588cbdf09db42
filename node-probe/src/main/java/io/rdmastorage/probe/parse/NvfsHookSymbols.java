package io.rdmastorage.probe.parse;

import java.util.Collections;
import java.util.Set;
import java.util.TreeSet;

/**
 * The nvidia-fs hooks a kernel exports, found in {@code /proc/kallsyms}: GDS-enabled storage drivers
 * export {@code <prefix>_register_nvfs_dma_ops} ({@code nvme_v1_}/{@code nvme_v2_} for NVMe,
 * {@code nvme_rdma_v1_} for NVMe-oF, {@code rpcrdma_} for NFS over RDMA); stock drivers export none.
 *
 * <p>kallsyms has hundreds of thousands of lines (10+ MB), so it is scanned for the one suffix with
 * {@link String#indexOf}, not split into lines or matched with a regular expression per line.
 * Symbol names are listed even where {@code kptr_restrict} zeroes the addresses.
 *
 * @param registrationSymbols the {@code *_register_nvfs_dma_ops} names, without {@code __ksymtab_}-style prefixes
 */
public record NvfsHookSymbols(Set<String> registrationSymbols) {

    static final String SUFFIX = "_register_nvfs_dma_ops";
    /** Export-table aliases of the same symbol, listed beside it in kallsyms. */
    private static final String[] EXPORT_PREFIXES = {"__ksymtab_", "__kstrtab_", "__kstrtabns_", "__kcrctab_"};

    public NvfsHookSymbols {
        // sorted, so that the report (and the status written from it) is the same on every run
        registrationSymbols = Collections.unmodifiableSortedSet(new TreeSet<>(registrationSymbols));
    }

    public static NvfsHookSymbols scan(String kallsyms) {
        Set<String> found = new TreeSet<>();
        int from = 0;
        int at;
        while ((at = kallsyms.indexOf(SUFFIX, from)) >= 0) {
            int end = at + SUFFIX.length();
            from = end;
            if (end < kallsyms.length() && !Character.isWhitespace(kallsyms.charAt(end))) {
                continue;   // a longer name that merely contains the suffix
            }
            int start = at;
            while (start > 0 && !Character.isWhitespace(kallsyms.charAt(start - 1))) {
                start--;
            }
            found.add(withoutExportPrefix(kallsyms.substring(start, end)));
        }
        return new NvfsHookSymbols(found);
    }

    public boolean exports(String symbol) {
        return registrationSymbols.contains(symbol);
    }

    private static String withoutExportPrefix(String symbol) {
        for (String prefix : EXPORT_PREFIXES) {
            if (symbol.startsWith(prefix)) {
                return symbol.substring(prefix.length());
            }
        }
        return symbol;
    }
}
