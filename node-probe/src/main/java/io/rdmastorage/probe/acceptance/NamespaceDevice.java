package io.rdmastorage.probe.acceptance;

import io.rdmastorage.probe.parse.NvmeController;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The block device through which fio reaches a controller's first namespace, from the entries of
 * {@code /sys/class/nvme/nvmeC/}. Without NVMe multipath the namespace is {@code nvmeCnN} and only
 * this controller carries its I/O. With multipath it is a path {@code nvmeScCnN} of the head
 * {@code nvmeSnN}, and the head sends I/O down every path it has: a run on it measures this
 * transport only when no other controller is a path of the same head ({@link #sharedWith}).
 *
 * @param device     {@code /dev/nvme1n1}
 * @param sharedWith the other controllers that are paths of the same multipath head, as
 *                   {@code nvme0 (rdma)}; empty when the device is this controller's alone
 */
public record NamespaceDevice(String device, List<String> sharedWith) {

    private static final Pattern PLAIN = Pattern.compile("nvme(\\d+)n(\\d+)");
    private static final Pattern PATH = Pattern.compile("nvme(\\d+)c(\\d+)n(\\d+)");

    public NamespaceDevice {
        sharedWith = List.copyOf(sharedWith);
    }

    /**
     * @param controller the controller to measure through
     * @param entries    every controller's directory entries, by controller name
     * @param all        every controller, for the transports of the ones that share the head
     * @return empty while the controller has no namespace yet (the kernel scans them after connect)
     */
    public static Optional<NamespaceDevice> of(NvmeController controller, Map<String, List<String>> entries,
                                               List<NvmeController> all) {
        for (String entry : entries.getOrDefault(controller.name(), List.of()).stream().sorted().toList()) {
            if (PLAIN.matcher(entry).matches()) {
                return Optional.of(new NamespaceDevice("/dev/" + entry, List.of()));
            }
            Matcher path = PATH.matcher(entry);
            if (path.matches()) {
                String head = "nvme" + path.group(1) + "n" + path.group(3);
                return Optional.of(new NamespaceDevice("/dev/" + head, otherPaths(controller, head, entries, all)));
            }
        }
        return Optional.empty();
    }

    private static List<String> otherPaths(NvmeController controller, String head, Map<String, List<String>> entries,
                                           List<NvmeController> all) {
        List<String> others = new ArrayList<>();
        for (NvmeController other : all) {
            if (other.name().equals(controller.name())) {
                continue;
            }
            for (String entry : entries.getOrDefault(other.name(), List.of())) {
                Matcher path = PATH.matcher(entry);
                if (path.matches() && head.equals("nvme" + path.group(1) + "n" + path.group(3))) {
                    others.add(other.name() + " (" + (other.transport().isEmpty() ? "?" : other.transport()) + ")");
                    break;
                }
            }
        }
        return others;
    }
}
