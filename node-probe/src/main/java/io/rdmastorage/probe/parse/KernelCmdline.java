package io.rdmastorage.probe.parse;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * {@code /proc/cmdline}: the kernel's boot parameters, and what they ask of the IOMMU.
 *
 * @param parameters the parameters in order, as {@code key=value} or bare flags
 */
public record KernelCmdline(List<String> parameters) {

    /** What the boot parameters ask of the IOMMU. */
    public enum IommuRequest {
        /** intel_iommu=off, amd_iommu=off or iommu=off. */
        OFF,
        /** iommu=pt or iommu.passthrough=1: on, but devices use identity (untranslated) DMA. */
        PASSTHROUGH,
        /** intel_iommu=on, amd_iommu=on, iommu=on/force, iommu.passthrough=0. */
        ON,
        /** No IOMMU parameter: the kernel's and firmware's default applies. */
        UNSPECIFIED
    }

    public KernelCmdline {
        parameters = List.copyOf(parameters);
    }

    public static KernelCmdline parse(String text) {
        List<String> parameters = new ArrayList<>();
        for (String p : text.strip().split("\\s+")) {
            if (!p.isEmpty()) {
                parameters.add(p);
            }
        }
        return new KernelCmdline(parameters);
    }

    /** The value of the last {@code key=value} for this key, as the kernel reads it (the last one wins). */
    public Optional<String> value(String key) {
        String prefix = key + "=";
        String found = null;
        for (String p : parameters) {
            if (p.startsWith(prefix)) {
                found = p.substring(prefix.length());
            }
        }
        return Optional.ofNullable(found);
    }

    /** The IOMMU-related parameters, for messages: {@code intel_iommu=on iommu=pt}. */
    public List<String> iommuParameters() {
        return parameters.stream().filter(p -> p.toLowerCase(Locale.ROOT).contains("iommu")).toList();
    }

    public IommuRequest iommu() {
        // "off" disables the hardware outright, so it wins over a passthrough request
        if (hasOption("intel_iommu", "off") || hasOption("amd_iommu", "off") || hasOption("iommu", "off")) {
            return IommuRequest.OFF;
        }
        Optional<String> passthrough = value("iommu.passthrough").map(v -> v.toLowerCase(Locale.ROOT));
        if (hasOption("iommu", "pt") || passthrough.filter(v -> v.equals("1") || v.equals("y") || v.equals("on")).isPresent()) {
            return IommuRequest.PASSTHROUGH;
        }
        if (hasOption("intel_iommu", "on") || hasOption("amd_iommu", "on") || hasOption("iommu", "on")
                || hasOption("iommu", "force") || passthrough.isPresent()) {
            return IommuRequest.ON;
        }
        return IommuRequest.UNSPECIFIED;
    }

    /** intel_iommu and iommu take comma-separated option lists ({@code intel_iommu=on,sm_on}). */
    private boolean hasOption(String key, String option) {
        return value(key).map(v -> List.of(v.toLowerCase(Locale.ROOT).split(",")).contains(option)).orElse(false);
    }
}
