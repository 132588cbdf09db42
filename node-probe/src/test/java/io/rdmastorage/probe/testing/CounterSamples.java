package io.rdmastorage.probe.testing;

import io.rdmastorage.probe.parse.EthtoolStats;
import java.util.Map;

/** The recorded before/after pairs of counters/ samples, cut into their two readings. */
public final class CounterSamples {

    public static final String RXE = "counters/sysfs_rxe-hw_counters_before-after-nvme-rdma-read_vm-6.1.txt";
    public static final String SS_READ = "counters/ss-tin_nvme-tcp-sockets_before-after-64MiB-read_tcp_diag_vm-6.1.txt";
    /** Constructed in the recorded layout: a Lustre socket (988) and BeeGFS storage/metadata sockets (8003, 8005). */
    public static final String SS_LUSTRE_BEEGFS = "counters/ss-tin_lustre-988-and-beegfs-8003-8005-sockets_before-after_constructed.txt";
    public static final String PRIO = "counters/ethtool-S_grep-prio_before-after_all-roce-traffic-in-prio0_byteps-issue179_fragment.txt";

    private CounterSamples() {
    }

    /** rxe0's hw_counters (name → value) before or after the recorded 64 MiB read over NVMe/RDMA. */
    public static Map<String, Long> rxe0(boolean after) {
        String body = Samples.body(RXE);
        int cut = body.indexOf("=== rdma after");
        String part = after ? body.substring(cut) : body.substring(0, cut);
        // "path: value" lines read as name: value once the directory is cut off
        return EthtoolStats.parse(part.substring(part.indexOf("/sys/class/infiniband/rxe0/"))
                .replace("/sys/class/infiniband/rxe0/ports/1/hw_counters/", ""));
    }

    /** The ss -tin table of the NVMe/TCP queue sockets before or after the recorded 64 MiB read. */
    public static String ssRead(boolean after) {
        return ss(SS_READ, after);
    }

    /** One of the ss samples' tables, before or after, split at its "=== ss tcp after" line. */
    public static String ss(String sample, boolean after) {
        String body = Samples.body(sample);
        int cut = body.indexOf("=== ss tcp after");
        return after ? body.substring(cut) : body.substring(0, cut);
    }

    /** ethtool -S | grep prio before or after the byteps issue's RDMA benchmark (everything in priority 0). */
    public static Map<String, Long> prio(boolean after) {
        String body = Samples.body(PRIO);
        int cut = body.indexOf("After:");
        return EthtoolStats.parse(after ? body.substring(cut) : body.substring(0, cut));
    }
}
