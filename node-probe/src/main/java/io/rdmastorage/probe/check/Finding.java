package io.rdmastorage.probe.check;

import io.rdmastorage.contract.Status;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One thing a check's judge found: a problem (False), something it cannot tell (Unknown), or, for
 * the verdict when nothing is wrong, what True says. {@link Findings#combine} turns a check's
 * findings into its condition.
 *
 * @param message  the whole sentence when this finding gives the verdict: what is wrong and what to run
 * @param mention  how it is named after another finding gave the verdict ({@code mlx5_1/1 DOWN/Polling});
 *                 the reason when nothing shorter says more
 * @param details  facts that belong to this finding only (the command that failed): shown when it gives the verdict
 * @param device   the RDMA device the problem is on, when it is one device's ({@code mlx5_2}: its port is down, its
 *                 firmware logged a fatal error, its counters grew); null when it is the node's or the fabric's.
 *                 A False finding's device is listed in the check's {@code faultyDevices} ({@link FaultyDevices}),
 *                 from which the operator can fence that one NIC instead of the node.
 */
public record Finding(Status status, String reason, String message, String mention, Map<String, Object> details,
                      String device) {

    public Finding {
        details = Collections.unmodifiableMap(new LinkedHashMap<>(details));
    }

    public static Finding of(Status status, String reason, String message) {
        return new Finding(status, reason, message, reason, Map.of(), null);
    }

    public static Finding of(Status status, String reason, String message, String mention) {
        return new Finding(status, reason, message, mention, Map.of(), null);
    }

    /** The same finding, about one RDMA device. */
    public Finding onDevice(String rdmaDevice) {
        return new Finding(status, reason, message, mention, details, rdmaDevice);
    }

    /** What the condition says when no problem was found. */
    public static Finding passed(String reason, String message) {
        return of(Status.TRUE, reason, message);
    }

    public Finding withDetail(String key, Object value) {
        Map<String, Object> d = new LinkedHashMap<>(details);
        d.put(key, value);
        return new Finding(status, reason, message, mention, d, device);
    }
}
