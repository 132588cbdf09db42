package io.rdmastorage.operator.api;

import com.fasterxml.jackson.annotation.JsonClassDescription;
import com.fasterxml.jackson.annotation.JsonProperty;

/** The NVMe-oF transports an acceptance run compares. */
@JsonClassDescription("An NVMe-oF transport: rdma or tcp.")
public enum AcceptanceTransport {
    @JsonProperty("rdma")
    RDMA,
    @JsonProperty("tcp")
    TCP;

    /** As node-probe and nvme-cli write it. */
    public String value() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
