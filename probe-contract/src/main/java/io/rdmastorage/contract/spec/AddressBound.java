package io.rdmastorage.contract.spec;

import java.util.Optional;

/**
 * One entry of the admin's {@code acceptance.nvmeofAddresses}: an address or CIDR range, and the
 * port a run may connect to there ({@code 10.68.20.0/24:4420}, {@code [fd00::7]:4420}); without a
 * port ({@code 10.68.20.10}, {@code fd00::/64}) any port of it. Literals only.
 *
 * @param range where
 * @param port  which port; empty: any
 */
public record AddressBound(AddressRange range, Optional<Integer> port) {

    /** {@code RANGE}, {@code IPV4RANGE:PORT} or {@code [IPV6RANGE]:PORT}. */
    public static AddressBound parse(String field, String value) throws InvalidSpecException {
        String range = value;
        String port = null;
        if (value.startsWith("[")) {
            int close = value.indexOf("]:");
            if (close < 0) {
                throw new InvalidSpecException(field, Rules.show(value) + " must be [IPV6]:PORT when it starts with [");
            }
            range = value.substring(1, close);
            port = value.substring(close + 2);
        } else if (value.indexOf(':') > 0 && value.indexOf(':') == value.lastIndexOf(':')) {
            // one colon: IPv4 and a port (an IPv6 literal has at least two)
            range = value.substring(0, value.indexOf(':'));
            port = value.substring(value.indexOf(':') + 1);
        }
        if (port != null && (!port.matches("[0-9]{1,5}") || Integer.parseInt(port) < 1 || Integer.parseInt(port) > 65535)) {
            throw new InvalidSpecException(field, Rules.show(value) + " has a port that is not 1-65535");
        }
        return new AddressBound(AddressRange.parse(field, range), Optional.ofNullable(port).map(Integer::parseInt));
    }

    /** Whether a run may connect to {@code address} (a literal) on {@code port}. */
    public boolean allows(String address, int port) {
        return range.contains(address) && this.port.map(p -> p == port).orElse(true);
    }
}
