package io.rdmastorage.contract.spec;

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.StringJoiner;
import java.util.regex.Pattern;

/**
 * Which RDMA devices of a node carry storage ({@code rdma.storageNics}): on a GB200/GB300 tray the
 * BlueField-3 storage NICs, beside ConnectX compute NICs whose faults are not storage's concern. A
 * device is a storage NIC when any selector matches it: its RDMA device name ({@code mlx5_4}), one
 * of its netdevs ({@code enP6p3s0f0np0}), or its PCI address with or without the domain
 * ({@code 0006:03:00.0}, {@code 03:00.*}). Each selector is a name or a glob ({@link Rules#NIC_PATTERN}).
 */
public record StorageNics(List<String> devices, List<String> netdevs, List<String> pciAddresses) {

    public StorageNics {
        devices = devices == null ? List.of() : List.copyOf(devices);
        netdevs = netdevs == null ? List.of() : List.copyOf(netdevs);
        pciAddresses = pciAddresses == null ? List.of() : List.copyOf(pciAddresses);
    }

    /** Whether the device of that name, netdevs and PCI address ({@code 0000:3b:00.0}) is a storage NIC. */
    public boolean selects(String device, Collection<String> deviceNetdevs, String pciAddress) {
        if (devices.stream().anyMatch(p -> glob(p).matcher(device).matches())) {
            return true;
        }
        if (netdevs.stream().anyMatch(p -> deviceNetdevs.stream().anyMatch(n -> glob(p).matcher(n).matches()))) {
            return true;
        }
        String full = pciAddress.toLowerCase(Locale.ROOT);
        // lspci writes the address without its domain when the machine has one PCI domain
        String shortForm = full.matches("^[0-9a-f]{4,}:.*:.*") ? full.substring(full.indexOf(':') + 1) : full;
        return pciAddresses.stream().map(p -> glob(p.toLowerCase(Locale.ROOT)))
                .anyMatch(g -> g.matcher(full).matches() || g.matcher(shortForm).matches());
    }

    /** The selectors as a profile writes them, for messages: {@code devices mlx5_4, mlx5_5; netdevs enP6*}. */
    public String describe() {
        StringJoiner s = new StringJoiner("; ");
        byField().forEach((field, values) -> {
            if (!values.isEmpty()) {
                s.add(field + " " + String.join(", ", values));
            }
        });
        return s.toString();
    }

    public void validate() throws InvalidSpecException {
        validate("rdma.storageNics");
    }

    /** @param field where the selectors stand in the document: a probe spec's rdma section or an acceptance run's spec */
    public void validate(String field) throws InvalidSpecException {
        if (devices.isEmpty() && netdevs.isEmpty() && pciAddresses.isEmpty()) {
            throw new InvalidSpecException(field, "names no storage NIC; give devices, netdevs or pciAddresses");
        }
        for (Map.Entry<String, List<String>> selectors : byField().entrySet()) {
            SpecValidator.eachMatches(field + "." + selectors.getKey(), selectors.getValue(),
                    v -> v.length() <= Rules.NIC_PATTERN_MAX_LENGTH && Rules.NIC_PATTERN.matcher(v).matches(),
                    "must be a name or a glob of letters, digits and _ . : - with * ? and [0-9] classes, at most "
                            + Rules.NIC_PATTERN_MAX_LENGTH + " characters");
        }
    }

    private Map<String, List<String>> byField() {
        Map<String, List<String>> fields = new LinkedHashMap<>();
        fields.put("devices", devices);
        fields.put("netdevs", netdevs);
        fields.put("pciAddresses", pciAddresses);
        return fields;
    }

    /** The glob as a regular expression: only {@code * ? [...]} are special, every other character is itself. */
    static Pattern glob(String pattern) {
        StringBuilder regex = new StringBuilder();
        for (int i = 0; i < pattern.length(); i++) {
            char c = pattern.charAt(i);
            switch (c) {
                case '*' -> regex.append(".*");
                case '?' -> regex.append('.');
                case '[' -> {
                    int end = pattern.indexOf(']', i);
                    String body = pattern.substring(i + 1, end);
                    regex.append('[').append(body.startsWith("!") ? "^" + body.substring(1) : body).append(']');
                    i = end;
                }
                default -> regex.append(Pattern.quote(String.valueOf(c)));
            }
        }
        return Pattern.compile(regex.toString());
    }
}
