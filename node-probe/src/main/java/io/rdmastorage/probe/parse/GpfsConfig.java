package io.rdmastorage.probe.parse;

import io.rdmastorage.contract.spec.DevicePort;
import io.rdmastorage.contract.spec.Rules;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The GPFS daemon's effective configuration, from {@code mmdiag --config -Y} (section {@code config},
 * fields {@code name}, {@code value}). Effective, not configured: {@code mmlsconfig} shows what the
 * daemon will use after its next restart, {@code mmdiag} what it uses now.
 *
 * @param values attribute name → raw value, as the daemon prints it
 */
public record GpfsConfig(Map<String, String> values) {

    public GpfsConfig {
        values = Collections.unmodifiableMap(new LinkedHashMap<>(values));
    }

    public static GpfsConfig from(GpfsYOutput output) {
        Map<String, String> values = new LinkedHashMap<>();
        for (GpfsYOutput.Row row : output.section("config")) {
            if (!row.get("name").isEmpty()) {
                values.put(row.get("name"), row.get("value").strip());
            }
        }
        return new GpfsConfig(values);
    }

    public Optional<String> value(String name) {
        return Optional.ofNullable(values.get(name));
    }

    /**
     * An on/off attribute ({@code verbsRdma enable}, {@code verbsRdmaSend yes}); empty when the
     * attribute is absent or its value is neither.
     */
    public Optional<Boolean> flag(String name) {
        return value(name).flatMap(GpfsConfig::onOff);
    }

    static Optional<Boolean> onOff(String value) {
        return switch (value.toLowerCase(Locale.ROOT)) {
            case "enable", "enabled", "yes", "true", "on", "1" -> Optional.of(true);
            case "disable", "disabled", "no", "false", "off", "0" -> Optional.of(false);
            default -> Optional.empty();
        };
    }

    /**
     * verbsPorts as device/port strings ({@code mlx5_0/1}): GPFS defaults a missing port to 1 and
     * the optional fabric number does not change which port is used, so both are normalised away.
     * A token that is not a port at all is kept as written, so that it shows up as a mismatch.
     */
    public List<String> verbsPorts() {
        List<String> ports = new ArrayList<>();
        for (String token : value("verbsPorts").orElse("").split("\\s+")) {
            if (token.isEmpty()) {
                continue;
            }
            if (Rules.DEVICE_PORT.matcher(token).matches()) {
                ports.add(DevicePort.parse(token).toString());
            } else if (Rules.DEVICE.matcher(token).matches()) {
                ports.add(new DevicePort(token, 1).toString());
            } else {
                ports.add(token);
            }
        }
        return ports;
    }

    /** pagepool in bytes: raw bytes in {@code -Y} output, or GPFS's binary K/M/G/T suffixes elsewhere. */
    public OptionalLong pagepoolBytes() {
        return value("pagepool").map(GpfsConfig::gpfsSize).orElse(OptionalLong.empty());
    }

    static OptionalLong gpfsSize(String value) {
        if (value.isEmpty()) {
            return OptionalLong.empty();
        }
        char last = Character.toUpperCase(value.charAt(value.length() - 1));
        int shift = switch (last) {
            case 'K' -> 10;
            case 'M' -> 20;
            case 'G' -> 30;
            case 'T' -> 40;
            default -> 0;
        };
        String digits = shift == 0 ? value : value.substring(0, value.length() - 1);
        if (digits.isEmpty() || digits.length() > 18 || !digits.chars().allMatch(Character::isDigit)) {
            return OptionalLong.empty();
        }
        long number = Long.parseLong(digits);
        return number > (Long.MAX_VALUE >> shift) ? OptionalLong.empty() : OptionalLong.of(number << shift);
    }
}
