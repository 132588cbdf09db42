package io.rdmastorage.operator.api;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Size;
import io.fabric8.generator.annotation.ValidationRule;
import io.rdmastorage.contract.spec.ProbeSpec;
import io.rdmastorage.contract.spec.Rules;
import java.util.List;

/** RDMA devices that must be present and ACTIVE: the probe's {@code rdma} section. */
public class RdmaCheckSpec {

    /** The longest device/port/fabric that Rules.DEVICE_PORT_REGEX matches: 64 + 1 + 3 + 1 + 3 (bounds CEL's cost). */
    public static final int DEVICE_PORT_MAX_LENGTH = 72;

    /** CEL for a list of device/port values: the port number within the HCA port range (the pattern cannot bound a number). */
    static final String DEVICE_PORTS_RULE = "self.all(d, !d.matches(r'" + Rules.DEVICE_PORT_REGEX + "') || "
            + "(int(d.split('/')[1]) >= " + Rules.MIN_HCA_PORT + " && int(d.split('/')[1]) <= " + Rules.MAX_HCA_PORT + "))";
    static final String DEVICE_PORTS_RULE_MESSAGE = "HCA port numbers must be between " + Rules.MIN_HCA_PORT
            + " and " + Rules.MAX_HCA_PORT;

    @JsonPropertyDescription("HCA ports that must be present and ACTIVE, as device/port such as mlx5_0/1 (port 1-255). Absent or empty: every RDMA port the node has.")
    @Size(max = Rules.MAX_LIST)
    @ValidationRule(value = DEVICE_PORTS_RULE, message = DEVICE_PORTS_RULE_MESSAGE)
    private List<@Pattern(Rules.DEVICE_PORT_REGEX) @Size(max = DEVICE_PORT_MAX_LENGTH) String> devices;

    @JsonPropertyDescription("When true, also open each device and register memory through libibverbs, as an application would. Default false.")
    private Boolean userspaceVerbs;

    @JsonPropertyDescription("The smallest acceptable active MTU of the ports in bytes: 256, 512, 1024, 2048 or 4096. On RoCE the network interface's MTU must carry it plus the RoCE headers (4096 needs at least 4200). Absent: not checked.")
    @ValidationRule(value = "self in [256, 512, 1024, 2048, 4096]", message = "minMtu must be one of 256, 512, 1024, 2048, 4096")
    private Integer minMtu;

    @JsonPropertyDescription("The slowest acceptable port rate, written as sysfs and perftest write it, such as 400 Gb/sec. Absent: not checked.")
    @Pattern(Rules.LINK_RATE_REGEX)
    @Size(max = 16)
    private String minRate;

    @JsonPropertyDescription("How far back the host's kernel log is searched for mlx5 fault lines (a fatal error or a lost "
            + "PCIe link, firmware errors, the driver's error state or failed recovery, command timeouts, insufficient PCIe "
            + "slot power, high temperature, cable module errors, transmit timeouts), 1s to 1440m such as 30m. Default 15m, "
            + "the default interval: about one round.")
    @Default(ProbeSpec.Rdma.DEFAULT_KERNEL_LOG_WINDOW)
    @Pattern(Rules.WINDOW_REGEX)
    @Size(max = 12)
    @ValidationRule(value = PatternGuards.UNLESS_WINDOW + "(duration(self) >= duration('1s') && duration(self) <= duration('1440m'))",
            message = "must be between 1s and 1440m")
    private String kernelLogWindow;

    @JsonPropertyDescription("Which RDMA devices carry storage (a GB200/GB300 tray's BlueField-3 storage NICs beside its "
            + "ConnectX compute NICs), by device name, netdev or PCI address. When given, RdmaDevices, RdmaTraffic, "
            + "RdmaPortErrors, RoceLossless, GdsReady's NIC placement and the fleet comparison judge only these devices; the "
            + "others' faults do not fail storage. Absent: every RDMA device of the node.")
    private StorageNicsSpec storageNics;

    public List<String> getDevices() {
        return devices;
    }

    public void setDevices(List<String> devices) {
        this.devices = devices;
    }

    public Boolean getUserspaceVerbs() {
        return userspaceVerbs;
    }

    public void setUserspaceVerbs(Boolean userspaceVerbs) {
        this.userspaceVerbs = userspaceVerbs;
    }

    public Integer getMinMtu() {
        return minMtu;
    }

    public void setMinMtu(Integer minMtu) {
        this.minMtu = minMtu;
    }

    public String getMinRate() {
        return minRate;
    }

    public void setMinRate(String minRate) {
        this.minRate = minRate;
    }

    public StorageNicsSpec getStorageNics() {
        return storageNics;
    }

    public void setStorageNics(StorageNicsSpec storageNics) {
        this.storageNics = storageNics;
    }

    public String getKernelLogWindow() {
        return kernelLogWindow;
    }

    public void setKernelLogWindow(String kernelLogWindow) {
        this.kernelLogWindow = kernelLogWindow;
    }
}
