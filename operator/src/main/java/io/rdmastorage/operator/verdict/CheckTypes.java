package io.rdmastorage.operator.verdict;

import io.rdmastorage.operator.api.RdmaStorageProfileSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The condition types of DESIGN.md ("Checks"), and which of them a profile asks for: one per
 * check section of its spec, always in the same order, so statuses list them the same way on
 * every node and every write (no diff noise for GitOps tools).
 */
public final class CheckTypes {

    public static final String READY = "Ready";
    public static final String RDMA_DEVICES = "RdmaDevices";
    public static final String GPFS_VERBS = "GpfsVerbs";
    public static final String NVMEOF_RDMA = "NvmeofRdma";
    public static final String GDS_READY = "GdsReady";
    public static final String VERBS_LATENCY = "VerbsLatency";
    public static final String CEPH_MESSENGER = "CephMessenger";

    /** Every check type, in status order. */
    public static final List<String> ALL = List.of(RDMA_DEVICES, GPFS_VERBS, NVMEOF_RDMA, GDS_READY, VERBS_LATENCY,
            CEPH_MESSENGER);

    /**
     * Check types a profile may ask for that the operator cannot measure yet, with the message their
     * condition carries (reason {@link Reasons#NOT_MEASURED_YET}, status Unknown). VerbsLatency needs
     * a pair of probe pods (latency-server on one node, latency-client on another); the check round
     * runs one pod per node, so it never measures latency. When pairwise probing lands, delete the
     * entry: the VerbsLatency entries of the reports then flow into conditions and
     * {@code status.latency} like every other check, and count towards {@code Ready}.
     *
     * <p>A type listed here does not count towards {@code Ready} (which is True when every
     * <em>checked</em> type is True): otherwise no node of a profile with a latency section could
     * ever be Ready, nor be labelled as verified. Its own condition stays Unknown, visibly.
     */
    public static final Map<String, String> NOT_MEASURED_YET = Map.of(VERBS_LATENCY,
            "pairwise verbs latency probing is not available yet: this operator version runs one probe pod per node, "
                    + "and latency needs two (node-probe latency-server and latency-client). Measure it by hand with "
                    + "`node-probe latency-server` on one node and `node-probe latency-client --peer <its address>` on "
                    + "another; this condition does not count towards Ready");

    private CheckTypes() {
    }

    /** The condition types the profile's check sections ask for, in {@link #ALL} order. */
    public static List<String> expected(RdmaStorageProfileSpec spec) {
        List<String> types = new ArrayList<>(ALL.size());
        if (spec.getRdma() != null) {
            types.add(RDMA_DEVICES);
        }
        if (spec.getGpfs() != null) {
            types.add(GPFS_VERBS);
        }
        if (spec.getNvmeof() != null) {
            types.add(NVMEOF_RDMA);
        }
        if (spec.getGds() != null) {
            types.add(GDS_READY);
        }
        if (spec.getLatency() != null) {
            types.add(VERBS_LATENCY);
        }
        if (spec.getCeph() != null) {
            types.add(CEPH_MESSENGER);
        }
        return List.copyOf(types);
    }

    /** The expected types that decide {@code Ready}: {@link #expected} less {@link #NOT_MEASURED_YET}. */
    public static List<String> judged(List<String> expected) {
        return expected.stream().filter(t -> !NOT_MEASURED_YET.containsKey(t)).toList();
    }

    public static boolean measuredYet(String type) {
        return !NOT_MEASURED_YET.containsKey(type);
    }
}
