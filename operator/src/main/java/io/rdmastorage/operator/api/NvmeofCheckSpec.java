package io.rdmastorage.operator.api;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Size;
import io.rdmastorage.contract.spec.Rules;
import java.util.List;

/** NVMe-oF targets: the probe's {@code nvmeof} section. */
public class NvmeofCheckSpec {

    @JsonPropertyDescription("Targets that must be connected over rdma and live.")
    @Size(max = Rules.MAX_LIST)
    private List<NvmeofTarget> targets;

    public List<NvmeofTarget> getTargets() {
        return targets;
    }

    public void setTargets(List<NvmeofTarget> targets) {
        this.targets = targets;
    }
}
