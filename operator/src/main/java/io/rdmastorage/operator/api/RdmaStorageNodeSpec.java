package io.rdmastorage.operator.api;

/** Which profile and node an RdmaStorageNode reports on; written by the operator, never by users. */
public class RdmaStorageNodeSpec {

    private String profile;
    private String nodeName;

    public String getProfile() {
        return profile;
    }

    public void setProfile(String profile) {
        this.profile = profile;
    }

    public String getNodeName() {
        return nodeName;
    }

    public void setNodeName(String nodeName) {
        this.nodeName = nodeName;
    }
}
