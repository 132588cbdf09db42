package io.rdmastorage.operator.api;

import com.fasterxml.jackson.annotation.JsonClassDescription;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import java.util.Objects;

/** An NVMe-oF controller an acceptance run may connect on its node (nvmeof with connect: true). */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonClassDescription("An NVMe-oF controller the run may connect on its node (nvmeof with connect: true); only one the run connected itself is ever disconnected.")
public class AcceptanceCleanupController {

    @JsonPropertyDescription("rdma or tcp.")
    private String transport;

    @JsonPropertyDescription("The subsystem's NQN.")
    private String nqn;

    @JsonPropertyDescription("The target's IP address.")
    private String address;

    @JsonPropertyDescription("The target's port.")
    private Integer port;

    public AcceptanceCleanupController() {
    }

    public AcceptanceCleanupController(String transport, String nqn, String address, Integer port) {
        this.transport = transport;
        this.nqn = nqn;
        this.address = address;
        this.port = port;
    }

    public String getTransport() {
        return transport;
    }

    public void setTransport(String transport) {
        this.transport = transport;
    }

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

    @Override
    public boolean equals(Object o) {
        return o instanceof AcceptanceCleanupController c && Objects.equals(transport, c.transport) && Objects.equals(nqn, c.nqn)
                && Objects.equals(address, c.address) && Objects.equals(port, c.port);
    }

    @Override
    public int hashCode() {
        return Objects.hash(transport, nqn, address, port);
    }

    @Override
    public String toString() {
        return transport + " " + nqn + " at " + address + ":" + port;
    }
}
