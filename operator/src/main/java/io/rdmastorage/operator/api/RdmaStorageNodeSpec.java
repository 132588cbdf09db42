package io.rdmastorage.operator.api;

import io.fabric8.generator.annotation.Required;

/** Which profile and node an RdmaStorageNode reports on; written by the operator, never by users. */
public class RdmaStorageNodeSpec {

    @Required
    private String profile;
    @Required
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
