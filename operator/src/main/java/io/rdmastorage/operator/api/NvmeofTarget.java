package io.rdmastorage.operator.api;

/** An NVMe-oF subsystem that must be connected over RDMA and live. */
public class NvmeofTarget {

    /** The subsystem NQN. */
    private String nqn;

    /** The target's IP address (the controller's traddr). */
    private String address;

    /** The target's port (trsvcid); 4420 when absent. */
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
