package io.rdmastorage.operator.api;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Size;
import io.fabric8.generator.annotation.ValidationRule;
import io.rdmastorage.contract.spec.ProbeSpec;
import io.rdmastorage.contract.spec.Rules;
import java.util.List;

/**
 * Which transport really carried the storage bytes, from counters sampled over a window: the
 * probe's {@code traffic} section ({@link ProbeSpec.Traffic}, whose defaults and ranges these are).
 * The operator adds the window to the node probe pod's deadline.
 */
public class TrafficCheckSpec {

    @JsonPropertyDescription("How long the probe samples the counters, 1s–60s (default 10s), e.g. 10s, 1500ms, 1m.")
    @Default(ProbeSpec.Traffic.DEFAULT_WINDOW)
    @Pattern(Rules.WINDOW_REGEX)
    @Size(max = 12)
    @ValidationRule(value = PatternGuards.UNLESS_WINDOW + "(duration(self) >= duration('1s') && duration(self) <= duration('60s'))",
            message = "must be between 1s and 60s")
    private String window;

    @JsonPropertyDescription("RDMA ports to sample as device/port, e.g. mlx5_0/1; empty = every RDMA port.")
    @Size(max = Rules.MAX_LIST)
    @ValidationRule(value = RdmaCheckSpec.DEVICE_PORTS_RULE, message = RdmaCheckSpec.DEVICE_PORTS_RULE_MESSAGE)
    private List<@Pattern(Rules.DEVICE_PORT_REGEX) @Size(max = RdmaCheckSpec.DEVICE_PORT_MAX_LENGTH) String> devices;

    @JsonPropertyDescription("TCP bytes per second a storage peer may move (control traffic) before it is DataOnTcp (default 1 MiB/s).")
    @Default("" + ProbeSpec.Traffic.DEFAULT_MAX_TCP_BYTES_PER_SECOND)
    @Min(0)
    @Max(Integer.MAX_VALUE)
    private Integer maxTcpBytesPerSecond;

    @JsonPropertyDescription("Packets per second below which an RDMA port counts as idle (keep-alives; default 100).")
    @Default("" + ProbeSpec.Traffic.DEFAULT_MIN_RDMA_PACKETS_PER_SECOND)
    @Min(1)
    @Max(Integer.MAX_VALUE)
    private Integer minRdmaPacketsPerSecond;

    @JsonPropertyDescription("The lossless priority RoCE bytes must ride (ethtool -S prio bytes), 0–7; unset = not judged.")
    @Min(0)
    @Max(ProbeSpec.Traffic.MAX_PRIORITY)
    private Integer priority;

    @JsonPropertyDescription("How much an error counter (symbol errors, sequence errors, ACK timeouts, ...) may grow over the window (default 0).")
    @Default("" + ProbeSpec.Traffic.DEFAULT_MAX_ERROR_COUNT)
    @Min(0)
    @Max(Integer.MAX_VALUE)
    private Integer maxErrorCount;

    @JsonPropertyDescription("ECN-marked packets, CNPs or pause frames per second above which the fabric is congested (default 10000).")
    @Default("" + ProbeSpec.Traffic.DEFAULT_MAX_CONGESTION_PER_SECOND)
    @Min(0)
    @Max(Integer.MAX_VALUE)
    private Integer maxCongestionPerSecond;

    @JsonPropertyDescription("Percent of a storage client's rail bytes each of its RDMA rails (GPFS verbsPorts, LNet NIs, "
            + "NVMe-oF paths, NFS client addresses) must carry, 0–50; 0 (default) = only a rail that moved nothing while "
            + "its siblings moved is RailIdle.")
    @Default("" + ProbeSpec.Traffic.DEFAULT_MIN_RAIL_SHARE_PERCENT)
    @Min(0)
    @Max(ProbeSpec.Traffic.MAX_MIN_RAIL_SHARE_PERCENT)
    private Integer minRailSharePercent;

    public String getWindow() {
        return window;
    }

    public void setWindow(String window) {
        this.window = window;
    }

    public List<String> getDevices() {
        return devices;
    }

    public void setDevices(List<String> devices) {
        this.devices = devices;
    }

    public Integer getMaxTcpBytesPerSecond() {
        return maxTcpBytesPerSecond;
    }

    public void setMaxTcpBytesPerSecond(Integer maxTcpBytesPerSecond) {
        this.maxTcpBytesPerSecond = maxTcpBytesPerSecond;
    }

    public Integer getMinRdmaPacketsPerSecond() {
        return minRdmaPacketsPerSecond;
    }

    public void setMinRdmaPacketsPerSecond(Integer minRdmaPacketsPerSecond) {
        this.minRdmaPacketsPerSecond = minRdmaPacketsPerSecond;
    }

    public Integer getPriority() {
        return priority;
    }

    public void setPriority(Integer priority) {
        this.priority = priority;
    }

    public Integer getMaxErrorCount() {
        return maxErrorCount;
    }

    public void setMaxErrorCount(Integer maxErrorCount) {
        this.maxErrorCount = maxErrorCount;
    }

    public Integer getMaxCongestionPerSecond() {
        return maxCongestionPerSecond;
    }

    public void setMaxCongestionPerSecond(Integer maxCongestionPerSecond) {
        this.maxCongestionPerSecond = maxCongestionPerSecond;
    }

    public Integer getMinRailSharePercent() {
        return minRailSharePercent;
    }

    public void setMinRailSharePercent(Integer minRailSharePercent) {
        this.minRailSharePercent = minRailSharePercent;
    }
}
