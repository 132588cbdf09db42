package io.rdmastorage.operator.api;

import com.fasterxml.jackson.annotation.JsonClassDescription;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import io.fabric8.generator.annotation.ValidationRule;
import io.rdmastorage.contract.spec.ProbeSpec;
import io.rdmastorage.contract.spec.Rules;
import java.util.List;

/**
 * The lossless traffic class of RoCE storage traffic: the probe's {@code roce} section
 * ({@link ProbeSpec.Roce}, whose ranges these are).
 */
@JsonClassDescription("The lossless traffic class of RoCE storage traffic.")
public class RoceCheckSpec {

    @JsonPropertyDescription("Required. The DSCP value the storage traffic carries, 0-63, such as 26 (the RDMA ToS is DSCP << 2).")
    @Required
    @Min(0)
    @Max(ProbeSpec.Roce.MAX_DSCP)
    private Integer dscp;

    @JsonPropertyDescription("Required. The lossless priority, 0-7 such as 3, that the DSCP must map to; PFC and ECN must be on for it.")
    @Required
    @Min(0)
    @Max(ProbeSpec.Roce.MAX_PRIORITY)
    private Integer priority;

    @JsonPropertyDescription("RoCE ports to check, as device/port such as mlx5_0/1. Absent or empty: every RDMA port whose link layer is Ethernet.")
    @Size(max = Rules.MAX_LIST)
    @ValidationRule(value = RdmaCheckSpec.DEVICE_PORTS_RULE, message = RdmaCheckSpec.DEVICE_PORTS_RULE_MESSAGE)
    private List<@Pattern(Rules.DEVICE_PORT_REGEX) @Size(max = RdmaCheckSpec.DEVICE_PORT_MAX_LENGTH) String> devices;

    @JsonPropertyDescription("Further priorities, 0-7, on which PFC may also be on; PFC must be off on every other priority. Absent: only priority.")
    @Size(max = ProbeSpec.Roce.MAX_PRIORITY + 1)
    @ValidationRule(value = "self.all(p, p >= 0 && p <= " + ProbeSpec.Roce.MAX_PRIORITY + ")",
            message = "PFC priorities must be between 0 and " + ProbeSpec.Roce.MAX_PRIORITY)
    private List<Integer> pfcPriorities;

    public Integer getDscp() {
        return dscp;
    }

    public void setDscp(Integer dscp) {
        this.dscp = dscp;
    }

    public Integer getPriority() {
        return priority;
    }

    public void setPriority(Integer priority) {
        this.priority = priority;
    }

    public List<String> getDevices() {
        return devices;
    }

    public void setDevices(List<String> devices) {
        this.devices = devices;
    }

    public List<Integer> getPfcPriorities() {
        return pfcPriorities;
    }

    public void setPfcPriorities(List<Integer> pfcPriorities) {
        this.pfcPriorities = pfcPriorities;
    }
}
