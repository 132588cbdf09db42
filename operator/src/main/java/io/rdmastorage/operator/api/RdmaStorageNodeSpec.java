package io.rdmastorage.operator.api;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import com.fasterxml.jackson.annotation.JsonClassDescription;
import io.fabric8.generator.annotation.Required;

/** Which profile and node an RdmaStorageNode reports on; written by the operator, never by users. */
@JsonClassDescription("Which profile and node this verdict is for; written by the operator.")
public class RdmaStorageNodeSpec {

    @Required
    @JsonPropertyDescription("The RdmaStorageProfile this verdict is for.")
    private String profile;
    @Required
    @JsonPropertyDescription("The node this verdict is for.")
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
