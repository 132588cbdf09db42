package io.rdmastorage.operator.api;

import com.fasterxml.jackson.annotation.JsonClassDescription;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import io.fabric8.generator.annotation.ValidationRule;
import io.rdmastorage.contract.spec.Rules;

/** An NVMe-oF subsystem that must be connected over RDMA and live. */
@JsonClassDescription("An NVMe-oF subsystem that must be connected over RDMA and live.")
public class NvmeofTarget {

    @JsonPropertyDescription("The subsystem NQN.")
    @Required
    @Pattern(Rules.NQN_REGEX)
    @Size(max = Rules.NQN_MAX_LENGTH)
    private String nqn;

    @JsonPropertyDescription("The target's IP address (the controller's traddr).")
    @Required
    @Size(max = 45)
    @ValidationRule(value = "isIP(self)", message = "must be an IPv4 or IPv6 address such as 10.68.20.10 (the controller's traddr)")
    private String address;

    @JsonPropertyDescription("The target's port (trsvcid); 4420 when absent.")
    @Default("4420")
    @Min(1)
    @Max(65535)
    private Integer port;

    public String getNqn() {
        return nqn;
    }

    public void setNqn(String nqn) {
        this.nqn = nqn;
    }

    public String getAddress() {
        return address;
    }

    public void setAddress(String address) {
        this.address = address;
    }

    public Integer getPort() {
        return port;
    }

    public void setPort(Integer port) {
        this.port = port;
    }
}
