package io.rdmastorage.probe.parse;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * A mounted BeeGFS client's effective settings, {@code /proc/fs/beegfs/<clientID>/config}: one
 * {@code key = value} line each ({@code cfgFile = /etc/beegfs/beegfs-client.conf},
 * {@code connUseRDMA = 1}). What the module runs with, which the file on disk may no longer say.
 */
public record BeegfsClientConfig(Map<String, String> values) {

    public BeegfsClientConfig {
        values = Map.copyOf(values);
    }

    /** Empty when a line is not {@code key = value} or the file has no cfgFile line. */
    public static Optional<BeegfsClientConfig> parse(String text) {
        Map<String, String> values = new LinkedHashMap<>();
        for (String line : text.split("\r\n|\r|\n")) {
            if (line.isBlank()) {
                continue;
            }
            int eq = line.indexOf(" = ");
            if (eq <= 0) {
                return Optional.empty();
            }
            values.put(line.substring(0, eq).strip(), line.substring(eq + 3).strip());
        }
        return values.containsKey("cfgFile") ? Optional.of(new BeegfsClientConfig(values)) : Optional.empty();
    }

    public String cfgFile() {
        return values.get("cfgFile");
    }

    /** connUseRDMA as the module prints it (0 or 1); empty when absent. */
    public Optional<Boolean> useRdma() {
        return Optional.ofNullable(values.get("connUseRDMA")).map(v -> !v.equals("0") && !v.equalsIgnoreCase("false"));
    }

    /** connRDMAInterfacesFile; empty when unset. */
    public Optional<String> rdmaInterfacesFile() {
        return Optional.ofNullable(values.get("connRDMAInterfacesFile")).filter(v -> !v.isBlank());
    }
}
