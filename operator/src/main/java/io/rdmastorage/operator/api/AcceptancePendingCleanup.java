package io.rdmastorage.operator.api;

import com.fasterxml.jackson.annotation.JsonClassDescription;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * What an acceptance run may change on its node, recorded in its status when its pod is created:
 * the controllers it may connect and the file it creates. It stays while the run may have left
 * any of it behind, and goes once the run's pod said it undid its changes or the run's cleanup pod
 * did (the CleanedUp condition).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonClassDescription("What the run may change on its node and has not been seen to undo yet: the NVMe-oF controllers it may connect and the file it creates. Recorded when its pod is created; cleared once the pod reported that it undid them or the run's cleanup pod did (see the CleanedUp condition).")
public class AcceptancePendingCleanup {

    @JsonPropertyDescription("The node the changes are on.")
    private String nodeName;

    @JsonPropertyDescription("The NVMe-oF controllers the run may connect (nvmeof with connect: true), one per transport.")
    private List<AcceptanceCleanupController> controllers = new ArrayList<>();

    @JsonPropertyDescription("The file a path run creates, its absolute path on the node.")
    private String file;

    @JsonPropertyDescription("The cleanup pod (namespace of the operator's probe pods), once the run ended without saying it undid its changes.")
    private String podName;

    public String getNodeName() {
        return nodeName;
    }

    public void setNodeName(String nodeName) {
        this.nodeName = nodeName;
    }

    public List<AcceptanceCleanupController> getControllers() {
        return controllers;
    }

    public void setControllers(List<AcceptanceCleanupController> controllers) {
        this.controllers = controllers;
    }

    public String getFile() {
        return file;
    }

    public void setFile(String file) {
        this.file = file;
    }

    public String getPodName() {
        return podName;
    }

    public void setPodName(String podName) {
        this.podName = podName;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof AcceptancePendingCleanup p && Objects.equals(nodeName, p.nodeName)
                && Objects.equals(controllers, p.controllers) && Objects.equals(file, p.file) && Objects.equals(podName, p.podName);
    }

    @Override
    public int hashCode() {
        return Objects.hash(nodeName, controllers, file, podName);
    }

    /** What the digest covers, in words. */
    @Override
    public String toString() {
        return "node " + nodeName + ", controllers " + controllers + ", file " + file + ", pod " + podName;
    }
}
