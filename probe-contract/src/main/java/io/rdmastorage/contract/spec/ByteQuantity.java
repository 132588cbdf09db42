package io.rdmastorage.contract.spec;

import java.math.BigDecimal;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Kubernetes quantities for sizes ({@code 16Gi}, {@code 512M}, {@code 4294967296}) as bytes. */
public final class ByteQuantity {

    private static final Pattern QUANTITY = Pattern.compile(Rules.BYTE_QUANTITY_REGEX);
    private static final Map<String, Long> FACTORS = Map.ofEntries(
            Map.entry("", 1L), Map.entry("k", 1_000L), Map.entry("M", 1_000_000L), Map.entry("G", 1_000_000_000L),
            Map.entry("T", 1_000_000_000_000L), Map.entry("P", 1_000_000_000_000_000L),
            Map.entry("E", 1_000_000_000_000_000_000L),
            Map.entry("Ki", 1L << 10), Map.entry("Mi", 1L << 20), Map.entry("Gi", 1L << 30),
            Map.entry("Ti", 1L << 40), Map.entry("Pi", 1L << 50), Map.entry("Ei", 1L << 60));

    private ByteQuantity() {
    }

    public static Optional<Long> parse(String value) {
        Matcher m = QUANTITY.matcher(value);
        if (!m.matches()) {
            return Optional.empty();
        }
        try {
            BigDecimal bytes = new BigDecimal(m.group(1)).multiply(BigDecimal.valueOf(FACTORS.get(m.group(2) == null ? "" : m.group(2))));
            return Optional.of(bytes.longValueExact());
        } catch (ArithmeticException e) {
            return Optional.empty();
        }
    }

    /** 17179869184 → "16Gi": how people read pagepool sizes. */
    public static String format(long bytes) {
        String[] units = {"", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"};
        int unit = 0;
        double value = bytes;
        while (value >= 1024 && unit < units.length - 1) {
            value /= 1024;
            unit++;
        }
        return value == Math.rint(value) ? (long) value + units[unit] : String.format("%.1f%s", value, units[unit]);
    }
}
