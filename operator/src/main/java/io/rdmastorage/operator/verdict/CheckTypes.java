package io.rdmastorage.operator.verdict;

import io.rdmastorage.operator.api.RdmaStorageProfileSpec;
import java.util.ArrayList;
import java.util.List;

/**
 * The condition types of DESIGN.md ("Checks"), and which of them a profile asks for: one per
 * check section of its spec, always in the same order, so statuses list them the same way on
 * every node and every write (no diff noise for GitOps tools). Which kind of measurement writes
 * each type is {@link MeasurementKind}'s.
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

}
