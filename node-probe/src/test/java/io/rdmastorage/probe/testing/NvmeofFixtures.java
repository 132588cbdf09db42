package io.rdmastorage.probe.testing;

/**
 * NVMe-oF on a fixture host, laid out as the kernel does: {@code /sys/class/nvme/nvmeN} is a
 * relative symbolic link to the controller's device folder ({@code /sys/devices/virtual/nvme-fabrics/ctl/nvmeN}
 * for fabrics controllers, the PCI function's {@code nvme/nvmeN} for local drives), which holds
 * the {@code transport}, {@code address}, {@code subsysnqn} and {@code state} attributes.
 *
 * <p>The healthy node (gpu-01) has a local PCIe drive nvme0 and the target
 * {@value #TARGET_NQN} at {@value #TARGET_ADDRESS} port {@value #TARGET_PORT} connected over rdma as nvme1.
 * Every failure method lays out a whole node with that one defect, so it can be used alone.
 */
public final class NvmeofFixtures {

    public static final String TARGET_NQN = "nqn.2024-01.dev.wutz:target1";
    public static final String TARGET_ADDRESS = "10.68.20.10";
    public static final int TARGET_PORT = 4420;
    /** The profile's {@code nvmeof} section for the healthy node. */
    public static final String SECTION = "{\"targets\":[{\"nqn\":\"" + TARGET_NQN + "\",\"address\":\"" + TARGET_ADDRESS
            + "\",\"port\":" + TARGET_PORT + "}]}";
    /** A whole spec with only the {@code nvmeof} section. */
    public static final String SPEC = "{\"nvmeof\":" + SECTION + "}";

    /** The kernel's address attribute of an rdma controller: the options given at connect time. */
    public static final String TARGET_RDMA_ADDRESS = "traddr=" + TARGET_ADDRESS + ",trsvcid=" + TARGET_PORT + "\n";
    /** The node's source address of a tcp connection to the target. */
    public static final String TARGET_TCP_SOURCE = "10.68.20.21";
    /** nvme-tcp on newer kernels also reports the local source address (as in the gonvme sample). */
    public static final String TARGET_TCP_ADDRESS = "traddr=" + TARGET_ADDRESS + ",trsvcid=" + TARGET_PORT
            + ",src_addr=" + TARGET_TCP_SOURCE + "\n";

    /** PCI function of the local drive; the BDF is the one of the recorded pcie sysfs sample. */
    private static final String LOCAL_DRIVE_DEVICE = "/sys/devices/pci0000:e0/0000:e0:01.1/0000:e1:00.0";

    private NvmeofFixtures() {
    }

    /** nvme0 local PCIe drive + nvme1 over rdma to the target, live. */
    public static FixtureHost healthy(FixtureHost host) {
        localDrive(host);
        return fabricsController(host, "nvme1", "rdma", TARGET_RDMA_ADDRESS, TARGET_NQN, "live");
    }

    /** The silent fallback: the same target connected with {@code nvme connect -t tcp}. */
    public static FixtureHost targetOnTcp(FixtureHost host) {
        localDrive(host);
        return fabricsController(host, "nvme1", "tcp", TARGET_TCP_ADDRESS, TARGET_NQN, "live");
    }

    /** The rdma controller lost its path and the kernel is reconnecting (state from the recorded sysfs sample). */
    public static FixtureHost controllerConnecting(FixtureHost host) {
        localDrive(host);
        return fabricsController(host, "nvme1", "rdma", TARGET_RDMA_ADDRESS, TARGET_NQN,
                Samples.body("nvme/sysfs_nvme-ctrl_state-connecting_mayastor-design.txt").lines()
                        .reduce((first, second) -> second).orElseThrow() + "\n");
    }

    /** Only the local drive: nothing connects the target. */
    public static FixtureHost targetMissing(FixtureHost host) {
        localDrive(host);
        return removeController(host, "nvme1");
    }

    /** The local PCIe drive nvme0: transport pcie, address a PCI BDF (recorded sample), its own NQN. */
    public static FixtureHost localDrive(FixtureHost host) {
        String dir = LOCAL_DRIVE_DEVICE + "/nvme/nvme0";
        return host.file(dir + "/transport", "pcie\n")
                .file(dir + "/address", "0000:e1:00.0\n")
                .file(dir + "/subsysnqn", "nqn.2014.08.org.nvmexpress:144d144dS4EWNF0M812345      Samsung SSD 970 PRO 512GB\n")
                .file(dir + "/state", "live\n")
                .symlink("/sys/class/nvme/nvme0", "../.." + dir.substring("/sys".length()));
    }

    /**
     * One fabrics controller; {@code address} is the attribute's content as the kernel prints it,
     * e.g. {@code "traddr=10.68.21.10,trsvcid=4420\n"}. Replaces a controller of the same name.
     */
    public static FixtureHost fabricsController(FixtureHost host, String name, String transport, String address,
                                                String nqn, String state) {
        String dir = "/sys/devices/virtual/nvme-fabrics/ctl/" + name;
        return host.file(dir + "/transport", transport + "\n")
                .file(dir + "/address", address)
                .file(dir + "/subsysnqn", nqn + "\n")
                .file(dir + "/state", state.endsWith("\n") ? state : state + "\n")
                .symlink("/sys/class/nvme/" + name, "../../devices/virtual/nvme-fabrics/ctl/" + name)
                .symlink("/sys/class/nvme-fabrics/ctl", "../../devices/virtual/nvme-fabrics/ctl");
    }

    public static FixtureHost removeController(FixtureHost host, String name) {
        return host.delete("/sys/class/nvme/" + name).delete("/sys/devices/virtual/nvme-fabrics/ctl/" + name);
    }
}
