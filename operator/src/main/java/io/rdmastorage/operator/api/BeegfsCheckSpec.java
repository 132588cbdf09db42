package io.rdmastorage.operator.api;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Size;
import io.fabric8.generator.annotation.ValidationRule;
import io.rdmastorage.contract.spec.ProbeSpec;
import io.rdmastorage.contract.spec.Rules;
import java.util.List;

/** BeeGFS mounts whose clients must reach their servers over RDMA: the probe's {@code beegfs} section. */
public class BeegfsCheckSpec {

    @JsonPropertyDescription("BeeGFS mount points, e.g. /mnt/beegfs, whose clients must reach every storage and metadata server they are connected to over RDMA only (read from /proc/fs/beegfs/<clientID>/, the client matched to the mount by its cfgFile); empty = every BeeGFS mount of the node.")
    @Size(max = ProbeSpec.Beegfs.MAX_ITEMS)
    @ValidationRule(value = "self.all(m, self.exists_one(x, x == m))", message = "mount points must not repeat")
    private List<@Pattern(Rules.MOUNT_POINT_REGEX) @Size(max = Rules.MOUNT_POINT_MAX_LENGTH) String> mounts;

    @JsonPropertyDescription("The BeeGFS servers' TCP ports: the data path (RdmaTraffic, the acceptance path target) counts the bytes of the node's sockets to them as BeeGFS on TCP. Empty or absent: BeeGFS's defaults 8003 to 8008 (storage 8003, metadata 8005, management 8008); list the shifted ports where connPortShift or per-service ports are set.")
    @Size(max = ProbeSpec.Beegfs.MAX_ITEMS)
    @ValidationRule(value = "self.all(p, self.exists_one(x, x == p))", message = "ports must not repeat")
    private List<@Min(1) @Max(Rules.MAX_TCP_PORT) Integer> tcpPorts;

    public List<String> getMounts() {
        return mounts;
    }

    public void setMounts(List<String> mounts) {
        this.mounts = mounts;
    }

    public List<Integer> getTcpPorts() {
        return tcpPorts;
    }

    public void setTcpPorts(List<Integer> tcpPorts) {
        this.tcpPorts = tcpPorts;
    }
}
