package io.rdmastorage.contract;

import io.rdmastorage.contract.checks.BeegfsRdma;
import io.rdmastorage.contract.checks.CephMessenger;
import io.rdmastorage.contract.checks.GdsReady;
import io.rdmastorage.contract.checks.GpfsVerbs;
import io.rdmastorage.contract.checks.LustreLnet;
import io.rdmastorage.contract.checks.NfsRdma;
import io.rdmastorage.contract.checks.NvmeofRdma;
import io.rdmastorage.contract.checks.RdmaDevices;
import io.rdmastorage.contract.checks.RdmaPortErrors;
import io.rdmastorage.contract.checks.RdmaTraffic;
import io.rdmastorage.contract.checks.RoceLossless;
import io.rdmastorage.contract.checks.VerbsLatency;
import io.rdmastorage.contract.spec.ProbeSpec;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * The checks (condition types of DESIGN.md), in report and status order. Each is described once,
 * in its class under {@code io.rdmastorage.contract.checks}; adding a check adds one line here
 * (see docs/adding-a-check.md).
 */
public enum CheckType {
    RDMA_DEVICES(RdmaDevices.DESCRIPTOR),
    GPFS_VERBS(GpfsVerbs.DESCRIPTOR),
    NVMEOF_RDMA(NvmeofRdma.DESCRIPTOR),
    GDS_READY(GdsReady.DESCRIPTOR),
    VERBS_LATENCY(VerbsLatency.DESCRIPTOR),
    CEPH_MESSENGER(CephMessenger.DESCRIPTOR),
    ROCE_LOSSLESS(RoceLossless.DESCRIPTOR),
    RDMA_TRAFFIC(RdmaTraffic.DESCRIPTOR),
    NFS_RDMA(NfsRdma.DESCRIPTOR),
    RDMA_PORT_ERRORS(RdmaPortErrors.DESCRIPTOR),
    LUSTRE_LNET(LustreLnet.DESCRIPTOR),
    BEEGFS_RDMA(BeegfsRdma.DESCRIPTOR);

    private final CheckDescriptor descriptor;

    CheckType(CheckDescriptor descriptor) {
        this.descriptor = descriptor;
    }

    public CheckDescriptor descriptor() {
        return descriptor;
    }

    public String conditionType() {
        return descriptor.conditionType();
    }

    /** The name of its spec section: {@code rdma}, {@code gpfs}, ... */
    public String section() {
        return descriptor.section();
    }

    /** Its section of {@code spec}; null when the spec does not ask for the check. */
    public Object sectionOf(ProbeSpec spec) {
        return spec.section(section());
    }

    /** Every condition type, in status order. */
    public static List<String> conditionTypes() {
        return Arrays.stream(values()).map(CheckType::conditionType).toList();
    }

    /** The check of a condition type; empty for a type no check has (Ready, or one from a newer probe). */
    public static Optional<CheckType> ofConditionType(String conditionType) {
        return Arrays.stream(values()).filter(t -> t.conditionType().equals(conditionType)).findFirst();
    }

    /** The checks measured that way, in status order. */
    public static List<CheckType> measuredBy(Measurement measurement) {
        return Arrays.stream(values()).filter(t -> t.descriptor.measuredBy() == measurement).toList();
    }

    @Override
    public String toString() {
        return conditionType();
    }
}
