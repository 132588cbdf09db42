package io.rdmastorage.operator.quarantine;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * A device a NIC driver publishes in a node's ResourceSlices, with just the attributes the match
 * needs (the configured ones, as strings): what a DeviceTaintRule selects by driver, pool and name.
 */
public record PublishedNic(String driver, String pool, String device, Map<String, String> attributes) {

    static final String RESOURCE_SLICES_API = "resource.k8s.io/v1";

    public PublishedNic {
        attributes = Map.copyOf(attributes);
    }

    /** The devices the given drivers publish for {@code node} (one list call, by the node's field selector). */
    static List<PublishedNic> onNode(KubernetesClient client, String node, Map<String, NicDriver> byName) {
        List<PublishedNic> nics = new ArrayList<>();
        for (GenericKubernetesResource slice : client.genericKubernetesResources(RESOURCE_SLICES_API, "ResourceSlice")
                .withField("spec.nodeName", node).list().getItems()) {
            nics.addAll(of(slice, byName));
        }
        return nics;
    }

    /** The devices of one ResourceSlice whose driver is one of {@code drivers}. */
    @SuppressWarnings("unchecked")
    static List<PublishedNic> of(GenericKubernetesResource slice, Map<String, NicDriver> drivers) {
        Map<String, Object> spec = (Map<String, Object>) slice.getAdditionalProperties().get("spec");
        if (spec == null || !(spec.get("driver") instanceof String driverName) || !drivers.containsKey(driverName)) {
            return List.of();
        }
        NicDriver driver = drivers.get(driverName);
        Set<String> wanted = new HashSet<>();
        wanted.addAll(driver.pciAddressAttributes());
        wanted.addAll(driver.netdevAttributes());
        wanted.addAll(driver.rdmaDeviceAttributes());
        String pool = spec.get("pool") instanceof Map<?, ?> p && p.get("name") instanceof String n ? n : "";
        List<PublishedNic> nics = new ArrayList<>();
        if (!(spec.get("devices") instanceof List<?> devices)) {
            return nics;
        }
        for (Object d : devices) {
            if (!(d instanceof Map<?, ?> device) || !(device.get("name") instanceof String name)) {
                continue;
            }
            Map<String, String> attributes = new LinkedHashMap<>();
            if (device.get("attributes") instanceof Map<?, ?> published) {
                for (String key : wanted) {
                    Object value = published.get(key);
                    if (value == null) {
                        value = published.get(unqualified(key, driverName));   // a driver may leave its own domain out
                    }
                    if (value instanceof Map<?, ?> typed && typed.get("string") instanceof String s) {
                        attributes.put(key, s);
                    }
                }
            }
            nics.add(new PublishedNic(driverName, pool, name, attributes));
        }
        return nics;
    }

    /** Whether this is the faulty device (or one of its functions): by PCI address, netdev or RDMA device name. */
    boolean is(FaultyDevice faulty, NicDriver driver) {
        if (faulty.pciAddress() != null && driver.pciAddressAttributes().stream().map(attributes::get)
                .anyMatch(a -> a != null && samePciAddress(a, faulty.pciAddress()))) {
            return true;
        }
        if (driver.netdevAttributes().stream().map(attributes::get).anyMatch(a -> a != null && faulty.netdevs().contains(a))) {
            return true;
        }
        return driver.rdmaDeviceAttributes().stream().map(attributes::get).anyMatch(faulty.device()::equals);
    }

    /** PCI addresses compare without case, and with the domain 0000 implied where one side leaves it out. */
    static boolean samePciAddress(String a, String b) {
        return withDomain(a).equals(withDomain(b));
    }

    private static String withDomain(String address) {
        String lower = address.toLowerCase(Locale.ROOT);
        return lower.chars().filter(c -> c == ':').count() == 1 ? "0000:" + lower : lower;
    }

    private static String unqualified(String key, String driver) {
        return key.startsWith(driver + "/") ? key.substring(driver.length() + 1) : key;
    }
}
