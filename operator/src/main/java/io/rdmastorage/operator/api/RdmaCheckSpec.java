package io.rdmastorage.operator.api;

import java.util.List;

/** RDMA devices that must be present and ACTIVE: the probe's {@code rdma} section. */
public class RdmaCheckSpec {

    /** HCA ports as device/port, e.g. mlx5_0/1; empty = every port the node has. */
    private List<String> devices;

    /** Also open each device and register memory through libibverbs. */
    private Boolean userspaceVerbs;

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
}
