package io.rdmastorage.probe.ports;

import io.rdmastorage.probe.host.HostRoot;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The character devices the kernel made for each RDMA device ({@code /sys/class/infiniband_verbs/uverbsN},
 * {@code /sys/class/infiniband_mad/umadN} and {@code issmN}, each with an {@code ibdev} attribute)
 * against what the host's {@code /dev/infiniband} holds. A port can read ACTIVE while its
 * {@code uverbsN} node is gone: every RDMA pod then fails with {@code lstat /dev/infiniband/uverbsN}
 * (NVSentinel #1546).
 *
 * @param devVisible whether the host's /dev is there at all (an empty mount point is not)
 * @param expected   RDMA device → the node names sysfs announces for it, in sysfs order
 * @param missing    RDMA device → those of its nodes that /dev/infiniband lacks
 */
public record DeviceNodes(boolean devVisible, Map<String, List<String>> expected, Map<String, List<String>> missing) {

    public static final String DEV_DIR = "/dev/infiniband";
    static final List<String> CLASSES = List.of("/sys/class/infiniband_verbs", "/sys/class/infiniband_mad");
    private static final Pattern NODE = Pattern.compile("(uverbs|umad|issm)[0-9]{1,4}");

    public DeviceNodes {
        expected = Map.copyOf(expected);
        missing = Map.copyOf(missing);
    }

    /** Nothing announced: the kernel's uverbs and umad classes are not there to compare with. */
    public static DeviceNodes none() {
        return new DeviceNodes(true, Map.of(), Map.of());
    }

    public static DeviceNodes read(HostRoot host) {
        Map<String, List<String>> expected = new LinkedHashMap<>();
        Map<String, List<String>> missing = new LinkedHashMap<>();
        for (String cls : CLASSES) {
            for (String node : host.list(cls)) {
                if (!NODE.matcher(node).matches()) {
                    continue;
                }
                host.readAttribute(cls + "/" + node + "/ibdev").filter(d -> !d.isEmpty()).ifPresent(device -> {
                    expected.computeIfAbsent(device, d -> new ArrayList<>()).add(node);
                    if (!host.exists(DEV_DIR + "/" + node)) {
                        missing.computeIfAbsent(device, d -> new ArrayList<>()).add(node);
                    }
                });
            }
        }
        return new DeviceNodes(host.hasEntries("/dev"), expected, missing);
    }

    /** The nodes of {@code device} that sysfs announces and /dev/infiniband lacks. */
    public List<String> missing(String device) {
        return missing.getOrDefault(device, List.of());
    }

    /** Whether sysfs announces any node for {@code device}. */
    public boolean announced(String device) {
        return expected.containsKey(device);
    }
}
