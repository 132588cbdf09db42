package io.rdmastorage.operator.api;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Size;
import io.fabric8.generator.annotation.ValidationRule;
import io.rdmastorage.contract.spec.Rules;
import java.util.List;

/** NFS mounts that must use the rdma transport: the probe's {@code nfs} section. */
public class NfsCheckSpec {

    @JsonPropertyDescription("Mount points, e.g. /mnt/data, each of which must be mounted with proto=rdma; empty = every NFS mount of the node.")
    @Size(max = Rules.MAX_LIST)
    @ValidationRule(value = "self.all(m, self.exists_one(x, x == m))", message = "mount points must not repeat")
    private List<@Pattern(Rules.MOUNT_POINT_REGEX) @Size(max = Rules.MOUNT_POINT_MAX_LENGTH) String> mounts;

    public List<String> getMounts() {
        return mounts;
    }

    public void setMounts(List<String> mounts) {
        this.mounts = mounts;
    }
}
