package io.rdmastorage.probe.check;

/** The condition types of DESIGN.md, one per check. */
public enum CheckType {
    RDMA_DEVICES("RdmaDevices"),
    GPFS_VERBS("GpfsVerbs"),
    NVMEOF_RDMA("NvmeofRdma"),
    GDS_READY("GdsReady"),
    VERBS_LATENCY("VerbsLatency"),
    CEPH_MESSENGER("CephMessenger");

    private final String conditionType;

    CheckType(String conditionType) {
        this.conditionType = conditionType;
    }

    public String conditionType() {
        return conditionType;
    }

    @Override
    public String toString() {
        return conditionType;
    }
}
