package io.rdmastorage.probe.check;

import io.rdmastorage.contract.InventoryFact;
import io.rdmastorage.probe.host.HostRoot;
import io.rdmastorage.probe.host.ToolResult;
import io.rdmastorage.probe.parse.DpkgStatus;
import io.rdmastorage.probe.parse.OfedInfo;
import java.util.Map;
import java.util.Optional;

/**
 * The inventory facts of the host itself, whatever the profile checks: the kernel, the RDMA
 * user-space stack as installed (MLNX_OFED's bundle where {@code ofed_info} is there, else the
 * distribution's rdma-core package) and the RDMA kernel drivers' versions. The checks add what their
 * own gathering saw ({@link FactsCheck#inventory}).
 */
public final class HostInventory {

    static final String OSRELEASE = "/proc/sys/kernel/osrelease";
    static final String DPKG_STATUS = "/var/lib/dpkg/status";
    static final String RPM_DB = "/var/lib/rpm";
    static final String RDMA_CORE = "rdma-core";
    /** The RDMA drivers whose version is a fleet fact; MLNX_OFED's builds have a version file, in-tree ones none. */
    static final Map<InventoryFact, String> DRIVERS = Map.of(InventoryFact.MLX5_DRIVER, "mlx5_core",
            InventoryFact.IB_CORE_DRIVER, "ib_core");

    private HostInventory() {
    }

    public static Map<InventoryFact, String> gather(ProbeContext context) {
        HostRoot host = context.host();
        Inventory inventory = new Inventory();
        if (HostView.PROCFS.visible(host)) {
            host.readAttribute(OSRELEASE).ifPresent(k -> inventory.put(InventoryFact.KERNEL, k));
        }
        rdmaCore(context).ifPresent(v -> inventory.put(InventoryFact.RDMA_CORE, v));
        if (HostView.SYSFS.visible(host)) {
            DRIVERS.forEach((fact, module) -> {
                String dir = "/sys/module/" + module;
                if (!host.isDirectory(dir)) {
                    inventory.put(fact, "not loaded");
                } else {
                    inventory.put(fact, host.readAttribute(dir + "/version").filter(v -> !v.isEmpty()).orElse("in-tree"));
                }
            });
        }
        return inventory.asMap();
    }

    /**
     * {@code ofed_info -s} where MLNX_OFED is installed; else the package database under the host
     * root (dpkg's status file, or {@code rpm -q}); {@link InventoryFact#NOT_INSTALLED} when a
     * database answers without rdma-core; empty when there is none to ask.
     */
    static Optional<String> rdmaCore(ProbeContext context) {
        if (context.tools().locate("ofed_info").isPresent()) {
            ToolResult ofed = context.tools().run("ofed_info", "-s");
            Optional<String> bundle = ofed.succeeded() ? OfedInfo.bundle(ofed.stdout()) : Optional.empty();
            if (bundle.isPresent()) {
                return bundle;
            }
        }
        Optional<String> dpkg = context.host().read(DPKG_STATUS);
        if (dpkg.isPresent()) {
            return Optional.of(DpkgStatus.installedVersion(dpkg.get(), RDMA_CORE).orElse(InventoryFact.NOT_INSTALLED));
        }
        if (context.host().isDirectory(RPM_DB) && context.tools().locate("rpm").isPresent()) {
            ToolResult rpm = context.tools().run("rpm", "-q", "--queryformat", "%{VERSION}-%{RELEASE}", RDMA_CORE);
            if (rpm.succeeded() && !rpm.stdout().isBlank()) {
                return Optional.of(rpm.stdout().strip());
            }
            if (rpm.ran() && rpm.exitCode() == 1 && rpm.stdout().contains("is not installed")) {
                return Optional.of(InventoryFact.NOT_INSTALLED);
            }
        }
        return Optional.empty();
    }
}
