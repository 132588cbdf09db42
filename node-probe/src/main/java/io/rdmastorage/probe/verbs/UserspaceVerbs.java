package io.rdmastorage.probe.verbs;

import java.util.List;
import java.util.Map;

/**
 * User-space verbs as an RDMA application in this process would use them.
 *
 * <p>Unlike the rest of node-probe this does not look under {@code --host-root}: libibverbs reads
 * the probe container's own {@code /sys/class/infiniband_verbs} and opens its own
 * {@code /dev/infiniband/uverbs*}, so the answer depends on what the probe pod mounts (the
 * operator's pod spec), which is exactly what a storage pod on the same node would get too.
 */
public interface UserspaceVerbs {

    /**
     * Registered once per device. 1 MiB, not one page: it exceeds the 64 KiB RLIMIT_MEMLOCK that
     * container runtimes used to default to, so that classic misconfiguration fails here rather
     * than in the first real registration of GPFS or NVMe-oF.
     */
    long REGION_BYTES = 1L << 20;

    /**
     * Opens each device, queries the given ports, allocates a protection domain and registers
     * {@link #REGION_BYTES}; everything is released before returning. Never throws for a missing
     * library or device: the report says so.
     *
     * @param portsByDevice device name → port numbers to query, in the order to test them
     */
    VerbsReport probe(Map<String, List<Integer>> portsByDevice);

    /**
     * The real libibverbs, bound through jnr-ffi on first use only: a probe that is not asked
     * for user-space verbs never loads jnr-ffi or the native library (a lambda, not a method
     * reference: that would resolve the binding class as soon as this is called).
     */
    static UserspaceVerbs system() {
        return portsByDevice -> Libibverbs.probe(portsByDevice);
    }
}
