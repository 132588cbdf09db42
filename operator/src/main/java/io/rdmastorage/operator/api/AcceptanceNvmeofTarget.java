package io.rdmastorage.operator.api;

import com.fasterxml.jackson.annotation.JsonClassDescription;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Size;
import io.fabric8.generator.annotation.ValidationRule;
import java.util.List;

/**
 * The NVMe-oF subsystem an acceptance run measures (nqn, address, port as a profile's target), the
 * transports to compare on it, and whether the run may connect a missing one.
 */
@JsonClassDescription("The NVMe-oF subsystem to measure (nqn, address, port), the transports to compare on it and whether the run may connect a missing one.")
public class AcceptanceNvmeofTarget extends NvmeofTarget {

    @JsonPropertyDescription("The transports to measure, in this order (default rdma, then tcp).")
    @Size(min = 1, max = 2)
    @ValidationRule(value = "self.all(t, self.exists_one(u, u == t))", message = "names a transport twice")
    private List<AcceptanceTransport> transports;

    @JsonPropertyDescription("Connect a transport that has no live controller to the target yet with nvme connect, measure, and disconnect it again; a controller the run did not create is never touched (default false: measure only what is connected).")
    @Default("false")
    private Boolean connect;

    public List<AcceptanceTransport> getTransports() {
        return transports;
    }

    public void setTransports(List<AcceptanceTransport> transports) {
        this.transports = transports;
    }

    public Boolean getConnect() {
        return connect;
    }

    public void setConnect(Boolean connect) {
        this.connect = connect;
    }
}
