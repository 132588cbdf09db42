package io.rdmastorage.operator.quarantine;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.Condition;
import io.rdmastorage.contract.ReportSchema;
import io.rdmastorage.operator.api.RdmaStorageNodeStatus;
import io.rdmastorage.operator.status.Conditions;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * An RDMA device a node's verdict is False about, as the probe named it in a False check's
 * {@link ReportSchema#FAULTY_DEVICES}: only False checks count (Unknown is no evidence).
 *
 * @param device     {@code mlx5_2}
 * @param pciAddress its PCI function's address; null when the probe saw none
 * @param netdevs    its network interfaces
 * @param checks     the False checks that name it
 * @param reasons    their reasons about it
 */
public record FaultyDevice(String device, String pciAddress, List<String> netdevs, List<String> checks, List<String> reasons) {

    public FaultyDevice {
        netdevs = List.copyOf(netdevs);
        checks = List.copyOf(checks);
        reasons = List.copyOf(reasons);
    }

    /** The faulty devices of a verdict, merged over its False checks, in check order. */
    public static List<FaultyDevice> of(RdmaStorageNodeStatus status) {
        Map<String, Builder> byDevice = new LinkedHashMap<>();
        if (status == null || status.getDetails() == null) {
            return List.of();
        }
        status.getDetails().forEach((check, details) -> {
            if (!isFalse(status, check)) {
                return;
            }
            JsonNode entries = details.path(ReportSchema.FAULTY_DEVICES);
            for (JsonNode e : entries) {
                String device = e.path(ReportSchema.FD_DEVICE).asText("");
                if (device.isEmpty()) {
                    continue;
                }
                Builder b = byDevice.computeIfAbsent(device, Builder::new);
                if (e.hasNonNull(ReportSchema.FD_PCI_ADDRESS)) {
                    b.pciAddress = e.get(ReportSchema.FD_PCI_ADDRESS).asText();
                }
                e.path(ReportSchema.FD_NETDEVS).forEach(n -> b.netdevs.add(n.asText()));
                e.path(ReportSchema.FD_REASONS).forEach(r -> b.reasons.add(r.asText()));
                b.checks.add(check);
            }
        });
        List<FaultyDevice> devices = new ArrayList<>();
        byDevice.values().forEach(b -> devices.add(new FaultyDevice(b.device, b.pciAddress, List.copyOf(b.netdevs),
                List.copyOf(b.checks), List.copyOf(b.reasons))));
        return devices;
    }

    /** The check's condition in the verdict, if it has one. */
    static Optional<Condition> condition(RdmaStorageNodeStatus status, String check) {
        return status == null ? Optional.empty() : Conditions.find(status.getConditions(), check);
    }

    private static boolean isFalse(RdmaStorageNodeStatus status, String check) {
        return condition(status, check).map(c -> "False".equals(c.getStatus())).orElse(false);
    }

    private static final class Builder {
        final String device;
        String pciAddress;
        final Set<String> netdevs = new LinkedHashSet<>();
        final Set<String> checks = new LinkedHashSet<>();
        final Set<String> reasons = new LinkedHashSet<>();

        Builder(String device) {
            this.device = device;
        }
    }
}
