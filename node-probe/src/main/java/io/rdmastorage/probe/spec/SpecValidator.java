package io.rdmastorage.probe.spec;

import java.util.List;
import java.util.function.Predicate;

/** Checks every value of a {@link ProbeSpec} before any of it is used; the first broken rule wins. */
public final class SpecValidator {

    static final int MAX_LIST = Rules.MAX_LIST;
    private static final String DEVICE_PORT_RULE = "must be <device>/<port> such as mlx5_0/1";

    private SpecValidator() {
    }

    public static ProbeSpec validate(ProbeSpec spec) throws InvalidSpecException {
        if (spec.rdma() != null) {
            eachMatches("rdma.devices", spec.rdma().devices(), v -> Rules.DEVICE_PORT.matcher(v).matches(), DEVICE_PORT_RULE);
            for (int i = 0; i < spec.rdma().devices().size(); i++) {
                portInRange("rdma.devices[" + i + "]", DevicePort.parse(spec.rdma().devices().get(i)).port());
            }
        }
        if (spec.gpfs() != null) {
            ProbeSpec.Gpfs gpfs = spec.gpfs();
            eachMatches("gpfs.verbsPorts", gpfs.verbsPorts(), v -> Rules.DEVICE_PORT.matcher(v).matches(), DEVICE_PORT_RULE);
            eachMatches("gpfs.requiredPeers", gpfs.requiredPeers(), v -> Rules.isNodeName(v) || Rules.isIpAddress(v),
                    "must be a GPFS node name or IP address");
            if (gpfs.minPagepool() != null
                    && ByteQuantity.parse(gpfs.minPagepool()).filter(b -> b > 0).isEmpty()) {
                throw new InvalidSpecException("gpfs.minPagepool",
                        Rules.show(gpfs.minPagepool()) + " must be a positive size such as 16Gi or 512Mi");
            }
        }
        if (spec.nvmeof() != null) {
            List<ProbeSpec.Target> targets = spec.nvmeof().targets();
            bounded("nvmeof.targets", targets);
            for (int i = 0; i < targets.size(); i++) {
                ProbeSpec.Target t = targets.get(i);
                String field = "nvmeof.targets[" + i + "]";
                required(field + ".nqn", t.nqn());
                if (!Rules.isNqn(t.nqn())) {
                    throw new InvalidSpecException(field + ".nqn", Rules.show(t.nqn())
                            + " must be an NVMe Qualified Name such as nqn.2014-08.org.example:target1 (at most 223 characters)");
                }
                required(field + ".address", t.address());
                if (!Rules.isIpAddress(t.address())) {
                    throw new InvalidSpecException(field + ".address", Rules.show(t.address())
                            + " must be an IPv4 or IPv6 address (the controller's traddr)");
                }
                if (t.port() < 1 || t.port() > 65535) {
                    throw new InvalidSpecException(field + ".port", t.port() + " must be between 1 and 65535");
                }
            }
        }
        if (spec.gds() != null) {
            eachMatches("gds.filesystems", spec.gds().filesystems(), ProbeSpec.GDS_FILESYSTEMS::contains,
                    "must be one of " + String.join(", ", ProbeSpec.GDS_FILESYSTEMS));
        }
        if (spec.latency() != null) {
            ProbeSpec.Latency l = spec.latency();
            required("latency.device", l.device());
            if (!Rules.DEVICE.matcher(l.device()).matches()) {
                throw new InvalidSpecException("latency.device", Rules.show(l.device()) + " must be an RDMA device name such as mlx5_0");
            }
            portInRange("latency.port", l.port());
            range("latency.size", l.size(), 1, 8 * 1024 * 1024);
            range("latency.iterations", l.iterations(), 5, 10_000_000);
            if (!(l.maxTypicalMicros() > 0 && l.maxTypicalMicros() <= 1_000_000)) {
                throw new InvalidSpecException("latency.maxTypicalMicros", l.maxTypicalMicros() + " must be > 0 and ≤ 1000000");
            }
            // transportComparison is a plain switch: any boolean will do
        }
        return spec;
    }

    private static void eachMatches(String field, List<String> values, Predicate<String> rule, String ruleText)
            throws InvalidSpecException {
        bounded(field, values);
        for (int i = 0; i < values.size(); i++) {
            String v = values.get(i);
            if (v == null || !rule.test(v)) {
                throw new InvalidSpecException(field + "[" + i + "]", (v == null ? "null" : Rules.show(v)) + " " + ruleText);
            }
        }
    }

    private static void bounded(String field, List<?> values) throws InvalidSpecException {
        if (values.size() > MAX_LIST) {
            throw new InvalidSpecException(field, "has " + values.size() + " entries; at most " + MAX_LIST + " are allowed");
        }
    }

    private static void required(String field, String value) throws InvalidSpecException {
        if (value == null || value.isEmpty()) {
            throw new InvalidSpecException(field, "is required");
        }
    }

    private static void portInRange(String field, int port) throws InvalidSpecException {
        range(field, port, Rules.MIN_HCA_PORT, Rules.MAX_HCA_PORT);
    }

    private static void range(String field, int value, int min, int max) throws InvalidSpecException {
        if (value < min || value > max) {
            throw new InvalidSpecException(field, value + " must be between " + min + " and " + max);
        }
    }
}
