package io.rdmastorage.operator.api;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Size;
import io.fabric8.generator.annotation.ValidationRule;
import io.rdmastorage.contract.spec.Rules;
import java.util.List;

/**
 * Which RDMA devices carry storage: the probe's {@code rdma.storageNics}
 * ({@link io.rdmastorage.contract.spec.StorageNics}). A device any selector matches is a storage NIC.
 */
@ValidationRule(value = "(has(self.devices) && size(self.devices) > 0) || (has(self.netdevs) && size(self.netdevs) > 0) "
        + "|| (has(self.pciAddresses) && size(self.pciAddresses) > 0)",
        message = "storageNics must name at least one device, netdev or PCI address")
public class StorageNicsSpec {

    @JsonPropertyDescription("RDMA device names of the storage NICs, or globs of them: mlx5_4, mlx5_[45] (* any characters, ? one, [0-9] one of a class).")
    @Size(max = Rules.MAX_LIST)
    private List<@Pattern(Rules.NIC_PATTERN_REGEX) @Size(min = 1, max = Rules.NIC_PATTERN_MAX_LENGTH) String> devices;

    @JsonPropertyDescription("Network interfaces of the storage NICs (a port's netdev, a bond's slave, an InfiniBand function's IPoIB interface), or globs: enP6p3s0f0np0, enP*np[01].")
    @Size(max = Rules.MAX_LIST)
    private List<@Pattern(Rules.NIC_PATTERN_REGEX) @Size(min = 1, max = Rules.NIC_PATTERN_MAX_LENGTH) String> netdevs;

    @JsonPropertyDescription("PCI addresses of the storage NICs' functions, with or without the domain as lspci -D and lspci write them, or globs: 0006:03:00.0, 03:00.*.")
    @Size(max = Rules.MAX_LIST)
    private List<@Pattern(Rules.NIC_PATTERN_REGEX) @Size(min = 1, max = Rules.NIC_PATTERN_MAX_LENGTH) String> pciAddresses;

    public List<String> getDevices() {
        return devices;
    }

    public void setDevices(List<String> devices) {
        this.devices = devices;
    }

    public List<String> getNetdevs() {
        return netdevs;
    }

    public void setNetdevs(List<String> netdevs) {
        this.netdevs = netdevs;
    }

    public List<String> getPciAddresses() {
        return pciAddresses;
    }

    public void setPciAddresses(List<String> pciAddresses) {
        this.pciAddresses = pciAddresses;
    }
}
