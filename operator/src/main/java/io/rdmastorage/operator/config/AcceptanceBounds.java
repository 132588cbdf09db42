package io.rdmastorage.operator.config;

import io.rdmastorage.contract.spec.AcceptanceSpec;
import io.rdmastorage.contract.spec.AddressBound;
import io.rdmastorage.contract.spec.ProbeSpec;
import io.rdmastorage.contract.spec.InvalidSpecException;
import io.rdmastorage.contract.spec.Rules;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Where acceptance runs may act, as the cluster admin configured it (the chart's
 * {@code acceptance} values, which its schema validates, reach the operator as {@code
 * RSO_ACCEPTANCE_*} variables). Whoever may create a run gets a privileged pod on a node; these
 * bounds, not the run's author, decide which nodes, directories and NVMe-oF targets.
 *
 * @param nodeSelector       labels a node must have to take runs (empty: no node takes runs, as an empty
 *                           {@code pathPrefixes} turns the path target off)
 * @param allowControlPlane  whether control-plane nodes (by any role label or taint that marks them) may take runs
 * @param pathPrefixes       directories a path run may write under; empty: the path target is off
 * @param nvmeofAddresses    addresses and CIDR ranges a run may connect to, each with a port or any
 *                           ({@link AddressBound}), besides the profiles' targets
 * @param maxFileSizeMiB     the largest file a path run may lay out
 * @param maxDurationSeconds the longest deadline a run may have
 */
public record AcceptanceBounds(Map<String, String> nodeSelector, boolean allowControlPlane, List<String> pathPrefixes,
                               List<String> nvmeofAddresses, int maxFileSizeMiB, int maxDurationSeconds) {

    public static final int DEFAULT_MAX_FILE_SIZE_MIB = 16384;
    public static final int DEFAULT_MAX_DURATION_SECONDS = 3600;
    /** The chart's defaults: no node takes runs until the admin names them, the path target off, only the profiles' NVMe-oF targets. */
    public static final AcceptanceBounds DEFAULT = new AcceptanceBounds(Map.of(), false, List.of(), List.of(),
            DEFAULT_MAX_FILE_SIZE_MIB, DEFAULT_MAX_DURATION_SECONDS);

    public AcceptanceBounds {
        nodeSelector = Map.copyOf(nodeSelector);
        pathPrefixes = List.copyOf(pathPrefixes);
        nvmeofAddresses = List.copyOf(nvmeofAddresses);
        try {
            for (String prefix : pathPrefixes) {
                if (!Rules.isAcceptanceDirectory(prefix)) {
                    throw new IllegalArgumentException("acceptance.pathPrefixes: " + Rules.show(prefix)
                            + " must be an absolute directory (letters, digits, ._@+-), not under /proc, /sys or /dev");
                }
            }
            for (String address : nvmeofAddresses) {
                AddressBound.parse("acceptance.nvmeofAddresses", address);
            }
        } catch (InvalidSpecException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
        if (maxFileSizeMiB < 1 || maxDurationSeconds < 1) {
            throw new IllegalArgumentException("acceptance.maxFileSizeMiB and maxDurationSeconds must be positive");
        }
    }

    /** From {@code RSO_ACCEPTANCE_*}: lists comma-separated, the node selector as {@code key=value,...}. */
    static AcceptanceBounds fromEnvironment(Map<String, String> env) {
        Map<String, String> selector = new LinkedHashMap<>();
        for (String pair : list(env.get("RSO_ACCEPTANCE_NODE_SELECTOR"))) {
            int eq = pair.indexOf('=');
            if (eq <= 0) {
                throw new IllegalArgumentException("RSO_ACCEPTANCE_NODE_SELECTOR: " + Rules.show(pair) + " is not key=value");
            }
            selector.put(pair.substring(0, eq), pair.substring(eq + 1));
        }
        return new AcceptanceBounds(selector,
                Boolean.parseBoolean(env.getOrDefault("RSO_ACCEPTANCE_ALLOW_CONTROL_PLANE", "false")),
                list(env.get("RSO_ACCEPTANCE_PATH_PREFIXES")), list(env.get("RSO_ACCEPTANCE_NVMEOF_ADDRESSES")),
                Integer.parseInt(env.getOrDefault("RSO_ACCEPTANCE_MAX_FILE_SIZE_MIB", Integer.toString(DEFAULT_MAX_FILE_SIZE_MIB))),
                Integer.parseInt(env.getOrDefault("RSO_ACCEPTANCE_MAX_DURATION_SECONDS",
                        Integer.toString(DEFAULT_MAX_DURATION_SECONDS))));
    }

    /** These bounds with the nodes that carry {@code labels} taking runs. */
    public AcceptanceBounds withNodeSelector(Map<String, String> labels) {
        return new AcceptanceBounds(labels, allowControlPlane, pathPrefixes, nvmeofAddresses, maxFileSizeMiB, maxDurationSeconds);
    }

    /** These bounds with the path target on under {@code prefixes}. */
    public AcceptanceBounds withPathPrefixes(String... prefixes) {
        return new AcceptanceBounds(nodeSelector, allowControlPlane, List.of(prefixes), nvmeofAddresses, maxFileSizeMiB,
                maxDurationSeconds);
    }

    /** The bounds node-probe checks again, with {@code profileTargets} (the targets the profiles name, whole) allowed too. */
    public AcceptanceSpec.Bounds forProbe(Collection<ProbeSpec.Target> profileTargets) {
        List<ProbeSpec.Target> targets = profileTargets.stream().distinct()
                .sorted(java.util.Comparator.comparing(ProbeSpec.Target::toString)).toList();
        return new AcceptanceSpec.Bounds(pathPrefixes, nvmeofAddresses, targets, maxFileSizeMiB, maxDurationSeconds);
    }

    private static List<String> list(String value) {
        return value == null || value.isBlank() ? List.of()
                : Arrays.stream(value.split(",")).map(String::trim).filter(s -> !s.isEmpty()).toList();
    }
}
