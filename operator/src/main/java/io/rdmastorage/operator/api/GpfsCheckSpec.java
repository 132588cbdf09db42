package io.rdmastorage.operator.api;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Size;
import io.fabric8.generator.annotation.ValidationRule;
import io.rdmastorage.contract.spec.Rules;
import java.util.List;

/** GPFS verbs RDMA expectations: the probe's {@code gpfs} section. */
public class GpfsCheckSpec {

    @JsonPropertyDescription("The verbsPorts GPFS must use in effect (the effective value, not only the configured one), as device/port such as mlx5_0/1. Absent: not compared.")
    @Size(max = Rules.MAX_LIST)
    private List<@Pattern(Rules.DEVICE_PORT_REGEX) @Size(max = RdmaCheckSpec.DEVICE_PORT_MAX_LENGTH) String> verbsPorts;

    @JsonPropertyDescription("GPFS nodes that must be connected over RDMA, not TCP, by GPFS node name (such as nsd-01.example.com) or IP address; typically the NSD servers. Absent: not checked.")
    @Size(max = Rules.MAX_LIST)
    @ValidationRule(value = "self.all(p, p.matches(r'" + Rules.NODE_NAME_REGEX + "') || isIP(p))",
            message = "each peer must be a GPFS node name (a DNS name such as nsd-01.example.com) or an IP address")
    private List<@Size(min = 1, max = Rules.NODE_NAME_MAX_LENGTH) String> requiredPeers;

    @JsonPropertyDescription("When true, verbsRdmaSend must be enabled. Default false.")
    private Boolean requireVerbsRdmaSend;

    @JsonPropertyDescription("The smallest acceptable GPFS pagepool, a Kubernetes quantity in whole bytes such as 16Gi. Absent: not checked.")
    @Pattern(Rules.BYTE_QUANTITY_REGEX)
    @Size(max = 32)
    @ValidationRule(value = PatternGuards.UNLESS_BYTE_QUANTITY + "quantity(self).isGreaterThan(quantity('0'))", message = "must be a positive size such as 16Gi")
    // node-probe reads it as bytes in a long (ByteQuantity): refuse what does not fit, as it would
    @ValidationRule(value = PatternGuards.UNLESS_BYTE_QUANTITY + "quantity(self).isLessThan(quantity('8Ei'))", message = "must be less than 8Ei")
    // ... and in whole bytes: 1.5Gi is, 0.5 or 1.0001Ki are not. quantity's isInteger() is false for
    // any binary suffix, so the float is compared with its integer part: exact below 2^53 bytes (8Pi);
    // past 8Ei the rule above says why
    @ValidationRule(value = PatternGuards.UNLESS_BYTE_QUANTITY + "!quantity(self).isLessThan(quantity('8Ei')) || quantity(self).asApproximateFloat() "
            + "== double(int(quantity(self).asApproximateFloat()))",
            message = "must be a whole number of bytes, such as 1.5Gi (not 0.5 or 1.0001Ki)")
    private String minPagepool;

    public List<String> getVerbsPorts() {
        return verbsPorts;
    }

    public void setVerbsPorts(List<String> verbsPorts) {
        this.verbsPorts = verbsPorts;
    }

    public List<String> getRequiredPeers() {
        return requiredPeers;
    }

    public void setRequiredPeers(List<String> requiredPeers) {
        this.requiredPeers = requiredPeers;
    }

    public Boolean getRequireVerbsRdmaSend() {
        return requireVerbsRdmaSend;
    }

    public void setRequireVerbsRdmaSend(Boolean requireVerbsRdmaSend) {
        this.requireVerbsRdmaSend = requireVerbsRdmaSend;
    }

    public String getMinPagepool() {
        return minPagepool;
    }

    public void setMinPagepool(String minPagepool) {
        this.minPagepool = minPagepool;
    }
}
