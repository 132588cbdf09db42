package io.rdmastorage.probe.parse;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The {@code address} attribute of an NVMe controller in sysfs. Fabrics controllers print a
 * comma-separated {@code key=value} list: {@code traddr=10.68.20.10,trsvcid=4420}, with newer
 * kernels adding {@code host_traddr=}, {@code host_iface=} or {@code src_addr=}; nvme-cli 1.x shows
 * the same list space-separated, so both separators are accepted. PCIe controllers print a bare
 * PCI address ({@code 0000:e1:00.0}) and FC ones WWN pairs; those have no fields.
 *
 * @param fields keys in lower case, in order; unknown keys are kept
 * @param raw    the attribute as read, stripped, for people
 */
public record NvmeFabricsAddress(Map<String, String> fields, String raw) {

    public NvmeFabricsAddress {
        fields = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(fields));
    }

    public static NvmeFabricsAddress parse(String text) {
        String raw = text == null ? "" : text.strip();
        Map<String, String> fields = new LinkedHashMap<>();
        int i = 0;
        int n = raw.length();
        while (i < n) {
            // one token runs to the next comma or white space; IPv6 literals contain neither
            int end = i;
            while (end < n && raw.charAt(end) != ',' && !Character.isWhitespace(raw.charAt(end))) {
                end++;
            }
            int eq = raw.indexOf('=', i);
            if (eq > i && eq < end - 1) {
                fields.putIfAbsent(raw.substring(i, eq).toLowerCase(Locale.ROOT), raw.substring(eq + 1, end));
            }
            i = end + 1;
        }
        return new NvmeFabricsAddress(fields, raw);
    }

    /** The target's transport address (an IP for rdma and tcp). */
    public Optional<String> traddr() {
        return Optional.ofNullable(fields.get("traddr"));
    }

    /** The target's service id: the port for rdma and tcp; absent when the connect used the default. */
    public Optional<String> trsvcid() {
        return Optional.ofNullable(fields.get("trsvcid"));
    }

    /** The port as a number, or {@code defaultPort} when no trsvcid is given; empty when it is not a port. */
    public Optional<Integer> port(int defaultPort) {
        Optional<String> svc = trsvcid();
        if (svc.isEmpty()) {
            return Optional.of(defaultPort);
        }
        String s = svc.get();
        if (s.isEmpty() || s.length() > 5 || !s.chars().allMatch(Character::isDigit)) {
            return Optional.empty();
        }
        int port = Integer.parseInt(s);
        return port >= 1 && port <= 65535 ? Optional.of(port) : Optional.empty();
    }
}
