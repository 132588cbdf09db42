package io.rdmastorage.operator.api;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import io.fabric8.generator.annotation.ValidationRule;
import java.util.List;

/**
 * One DRA driver that publishes NICs in ResourceSlices, and the device attributes by which one of
 * its devices is found for an RDMA device the probe names faulty: by PCI address, by netdev, by
 * RDMA device name. Each driver publishes its own attribute names (dranet: {@code dra.net/pciAddress};
 * the SR-IOV DRA driver: {@code sriovnetwork.k8snetworkplumbingwg.io/pfPciAddress} for the VFs of a PF).
 */
@ValidationRule(value = "(has(self.pciAddressAttributes) && size(self.pciAddressAttributes) > 0) "
        + "|| (has(self.netdevAttributes) && size(self.netdevAttributes) > 0) "
        + "|| (has(self.rdmaDeviceAttributes) && size(self.rdmaDeviceAttributes) > 0)",
        message = "a driver needs at least one attribute to find a device by")
public class NicDriverSpec {

    /** A DNS subdomain, as ResourceSlice.spec.driver. */
    public static final String DRIVER_REGEX = "^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$";
    /** A DRA qualified attribute name: an optional DNS-subdomain domain, then a C identifier. */
    public static final String ATTRIBUTE_REGEX = "^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?[A-Za-z_][A-Za-z0-9_]*$";
    static final int MAX_ATTRIBUTES = 8;
    static final int ATTRIBUTE_MAX_LENGTH = 63 + 1 + 32;

    @JsonPropertyDescription("The driver's name as its ResourceSlices give it (spec.driver), such as dra.net or sriovnetwork.k8snetworkplumbingwg.io.")
    @Required
    @Pattern(DRIVER_REGEX)
    @Size(min = 1, max = 63)
    private String driver;

    @JsonPropertyDescription("Attributes holding a device's PCI address (0000:8a:00.0): the device is the faulty NIC when one of them equals its PCI address. A VF's attribute naming its PF's address fences the PF's VFs with it.")
    @Size(max = MAX_ATTRIBUTES)
    private List<@Pattern(ATTRIBUTE_REGEX) @Size(min = 1, max = ATTRIBUTE_MAX_LENGTH) String> pciAddressAttributes;

    @JsonPropertyDescription("Attributes holding a device's network interface name: the device is the faulty NIC when one of them names one of its netdevs.")
    @Size(max = MAX_ATTRIBUTES)
    private List<@Pattern(ATTRIBUTE_REGEX) @Size(min = 1, max = ATTRIBUTE_MAX_LENGTH) String> netdevAttributes;

    @JsonPropertyDescription("Attributes holding a device's RDMA device name (mlx5_2): the device is the faulty NIC when one of them equals its name.")
    @Size(max = MAX_ATTRIBUTES)
    private List<@Pattern(ATTRIBUTE_REGEX) @Size(min = 1, max = ATTRIBUTE_MAX_LENGTH) String> rdmaDeviceAttributes;

    public NicDriverSpec() {
    }

    public NicDriverSpec(String driver, List<String> pciAddressAttributes, List<String> netdevAttributes,
                         List<String> rdmaDeviceAttributes) {
        this.driver = driver;
        this.pciAddressAttributes = pciAddressAttributes;
        this.netdevAttributes = netdevAttributes;
        this.rdmaDeviceAttributes = rdmaDeviceAttributes;
    }

    public String getDriver() {
        return driver;
    }

    public void setDriver(String driver) {
        this.driver = driver;
    }

    public List<String> getPciAddressAttributes() {
        return pciAddressAttributes;
    }

    public void setPciAddressAttributes(List<String> pciAddressAttributes) {
        this.pciAddressAttributes = pciAddressAttributes;
    }

    public List<String> getNetdevAttributes() {
        return netdevAttributes;
    }

    public void setNetdevAttributes(List<String> netdevAttributes) {
        this.netdevAttributes = netdevAttributes;
    }

    public List<String> getRdmaDeviceAttributes() {
        return rdmaDeviceAttributes;
    }

    public void setRdmaDeviceAttributes(List<String> rdmaDeviceAttributes) {
        this.rdmaDeviceAttributes = rdmaDeviceAttributes;
    }
}
