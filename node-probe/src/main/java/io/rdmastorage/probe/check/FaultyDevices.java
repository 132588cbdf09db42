package io.rdmastorage.probe.check;

import io.rdmastorage.contract.ReportSchema;
import io.rdmastorage.contract.Status;
import io.rdmastorage.probe.ports.PortView;
import io.rdmastorage.probe.ports.RdmaDevice;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;

/**
 * The RDMA devices a check's False findings are about ({@link ReportSchema#FAULTY_DEVICES}): named
 * by the judge ({@link #of}), then placed by the host's sysfs ({@link #locate}: PCI address and
 * netdevs, the attributes a NIC's DRA driver publishes it by). Unknown findings name no faulty
 * device: the operator fences a NIC only on evidence.
 */
final class FaultyDevices {

    private FaultyDevices() {
    }

    /** Each device named by a False finding, with the reasons about it, in the findings' order; empty when none. */
    static List<Map<String, Object>> of(List<Finding> findings) {
        Map<String, Set<String>> reasons = new LinkedHashMap<>();
        for (Finding f : findings) {
            if (f.status() == Status.FALSE && f.device() != null) {
                reasons.computeIfAbsent(f.device(), d -> new LinkedHashSet<>()).add(f.reason());
            }
        }
        List<Map<String, Object>> devices = new ArrayList<>();
        reasons.forEach((device, why) -> {
            Map<String, Object> entry = new LinkedHashMap<>();
            entry.put(ReportSchema.FD_DEVICE, device);
            entry.put(ReportSchema.FD_REASONS, List.copyOf(why));
            devices.add(entry);
        });
        return devices;
    }

    /**
     * The result with each faulty device's PCI address and netdevs from the host's devices; as it is
     * without faulty devices (the host's devices are then not read).
     */
    static CheckResult locate(CheckResult result, Supplier<PortView> host) {
        if (!(result.details().get(ReportSchema.FAULTY_DEVICES) instanceof List<?> entries)) {
            return result;
        }
        PortView view = host.get();
        List<Map<String, Object>> located = new ArrayList<>();
        for (Object e : entries) {
            @SuppressWarnings("unchecked")
            Map<String, Object> entry = new LinkedHashMap<>((Map<String, Object>) e);
            Optional<RdmaDevice> device = view.device((String) entry.get(ReportSchema.FD_DEVICE));
            device.flatMap(RdmaDevice::pciAddress).ifPresent(a -> entry.put(ReportSchema.FD_PCI_ADDRESS, a));
            device.map(RdmaDevice::netdevNames).filter(n -> !n.isEmpty())
                    .ifPresent(n -> entry.put(ReportSchema.FD_NETDEVS, List.copyOf(n)));
            located.add(entry);
        }
        Map<String, Object> details = new LinkedHashMap<>(result.details());
        details.put(ReportSchema.FAULTY_DEVICES, located);
        return new CheckResult(result.type(), result.status(), result.reason(), result.message(), details, result.inventory());
    }
}
