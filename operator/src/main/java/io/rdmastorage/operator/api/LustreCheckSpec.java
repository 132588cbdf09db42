package io.rdmastorage.operator.api;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Size;
import io.fabric8.generator.annotation.ValidationRule;
import io.rdmastorage.contract.spec.ProbeSpec;
import io.rdmastorage.contract.spec.Rules;
import java.util.List;

/** Lustre mounts that must reach their servers over LNet o2ib: the probe's {@code lustre} section. */
public class LustreCheckSpec {

    /** Fewer than the usual list bound: the uniqueness rules' CEL cost grows with the square of it. */
    static final int MAX_ITEMS = 32;

    @JsonPropertyDescription("Lustre mount points, e.g. /mnt/lustre, each of which must be mounted through the servers' o2ib NIDs; empty = every Lustre client mount of the node.")
    @Size(max = LustreCheckSpec.MAX_ITEMS)
    @ValidationRule(value = "self.all(m, self.exists_one(x, x == m))", message = "mount points must not repeat")
    private List<@Pattern(Rules.MOUNT_POINT_REGEX) @Size(max = Rules.MOUNT_POINT_MAX_LENGTH) String> mounts;

    @JsonPropertyDescription("The o2ib LNet networks (o2ib, o2ib1, ...) that must be configured on the node with every local NI up and healthy; empty = the o2ib networks of the mounts' server NIDs. A tcp network is never RDMA and is refused.")
    @Size(max = LustreCheckSpec.MAX_ITEMS)
    @ValidationRule(value = "self.all(n, self.exists_one(x, x == n))", message = "networks must not repeat")
    private List<@Pattern(Rules.O2IB_NETWORK_REGEX) @Size(max = Rules.O2IB_NETWORK_MAX_LENGTH) String> networks;

    @JsonPropertyDescription("The lowest acceptable LNet health value of an o2ib local NI or peer NI (lnetctl ... -v 3; LNet's best is 1000 and every failure lowers it by lnet_health_sensitivity). Default 1000: any failure LNet still remembers is reported.")
    @Default("" + ProbeSpec.Lustre.FULL_HEALTH)
    @Min(0)
    @Max(ProbeSpec.Lustre.FULL_HEALTH)
    private Integer minHealthValue;

    @JsonPropertyDescription("LNet's TCP port (the lnet accept_port option): the data path (RdmaTraffic, the acceptance path target) counts the bytes of the node's sockets to it as Lustre on TCP. Default 988.")
    @Default("" + ProbeSpec.Lustre.DEFAULT_TCP_PORT)
    @Min(1)
    @Max(Rules.MAX_TCP_PORT)
    private Integer tcpPort;

    public List<String> getMounts() {
        return mounts;
    }

    public void setMounts(List<String> mounts) {
        this.mounts = mounts;
    }

    public List<String> getNetworks() {
        return networks;
    }

    public void setNetworks(List<String> networks) {
        this.networks = networks;
    }

    public Integer getMinHealthValue() {
        return minHealthValue;
    }

    public void setMinHealthValue(Integer minHealthValue) {
        this.minHealthValue = minHealthValue;
    }

    public Integer getTcpPort() {
        return tcpPort;
    }

    public void setTcpPort(Integer tcpPort) {
        this.tcpPort = tcpPort;
    }
}
