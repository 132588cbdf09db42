package io.rdmastorage.operator.api;

import java.util.List;

/** GPFS verbs RDMA expectations: the probe's {@code gpfs} section. */
public class GpfsCheckSpec {

    /** The effective verbsPorts expected, as device/port. */
    private List<String> verbsPorts;

    /** GPFS node names or IPs that must be reached over RDMA (e.g. NSD servers). */
    private List<String> requiredPeers;

    /** verbsRdmaSend must be enabled. */
    private Boolean requireVerbsRdmaSend;

    /** Minimum pagepool, as a Kubernetes quantity such as 16Gi. */
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
