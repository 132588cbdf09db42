package io.rdmastorage.operator.quarantine;

import io.rdmastorage.operator.api.NicDriverSpec;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A DRA driver that publishes NICs, and the attributes one of its devices is found by.
 *
 * @param driver               ResourceSlice.spec.driver
 * @param pciAddressAttributes attributes holding a PCI address: the device's own, or its PF's
 * @param netdevAttributes     attributes holding a network interface name
 * @param rdmaDeviceAttributes attributes holding an RDMA device name
 */
public record NicDriver(String driver, List<String> pciAddressAttributes, List<String> netdevAttributes,
                        List<String> rdmaDeviceAttributes) {

    /** The standard attribute for a device's PCI address (Kubernetes 1.36 and later). */
    public static final String PCI_BUS_ID = "resource.kubernetes.io/pciBusID";

    /** dranet's attributes (its pkg/apis/attributes.go); rdmaDevice since its v1.1. */
    public static final NicDriver DRANET = new NicDriver("dra.net",
            List.of("dra.net/pciAddress", PCI_BUS_ID), List.of("dra.net/ifName"), List.of("dra.net/rdmaDevice"));

    /**
     * The SR-IOV DRA driver's (k8snetworkplumbingwg/dra-driver-sriov, which NVIDIA's Network Operator
     * ships): it publishes VFs, each with its own and its PF's address, so a faulty PF fences its VFs.
     */
    public static final NicDriver SRIOV = new NicDriver("sriovnetwork.k8snetworkplumbingwg.io",
            List.of("sriovnetwork.k8snetworkplumbingwg.io/pciAddress", "sriovnetwork.k8snetworkplumbingwg.io/pfPciAddress",
                    PCI_BUS_ID),
            List.of("sriovnetwork.k8snetworkplumbingwg.io/PFName"), List.of());

    public static final List<NicDriver> DEFAULTS = List.of(DRANET, SRIOV);

    public NicDriver {
        pciAddressAttributes = List.copyOf(pciAddressAttributes);
        netdevAttributes = List.copyOf(netdevAttributes);
        rdmaDeviceAttributes = List.copyOf(rdmaDeviceAttributes);
    }

    /** The drivers a profile names, or {@link #DEFAULTS}. */
    public static List<NicDriver> of(List<NicDriverSpec> specs) {
        if (specs == null || specs.isEmpty()) {
            return DEFAULTS;
        }
        return specs.stream().map(s -> new NicDriver(s.getDriver(), orEmpty(s.getPciAddressAttributes()),
                orEmpty(s.getNetdevAttributes()), orEmpty(s.getRdmaDeviceAttributes()))).toList();
    }

    /** The drivers by name (the first of a name wins), as a slice's {@code spec.driver} finds them. */
    static Map<String, NicDriver> byName(List<NicDriver> drivers) {
        Map<String, NicDriver> byName = new LinkedHashMap<>();
        drivers.forEach(d -> byName.putIfAbsent(d.driver(), d));
        return byName;
    }

    private static List<String> orEmpty(List<String> list) {
        return list == null ? List.of() : list;
    }
}
