package io.rdmastorage.probe.spec;

import io.rdmastorage.contract.spec.Rules;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Optional;

/**
 * IP address literals compared as addresses, not as text: {@code fe80::1} and
 * {@code fe80:0:0:0:0:0:0:1} are the same, and so are {@code 10.0.0.1} and {@code ::ffff:10.0.0.1}.
 * Never looks a name up: only literals that {@link Rules#isIpAddress} accepts reach {@link InetAddress}.
 */
public final class IpAddress {

    private IpAddress() {
    }

    /**
     * The canonical text of an address literal, or empty when the value is not one. Tolerates the
     * forms tools print around a literal: {@code [fe80::1]} brackets and a {@code %ib0} zone suffix
     * (dropped: one host does not use the same link-local address on two links to one target).
     */
    public static Optional<String> canonical(String value) {
        if (value == null) {
            return Optional.empty();
        }
        String s = value.strip();
        if (s.length() > 2 && s.startsWith("[") && s.endsWith("]")) {
            s = s.substring(1, s.length() - 1);
        }
        int zone = s.indexOf('%');
        if (zone > 0) {
            s = s.substring(0, zone);
        }
        if (!Rules.isIpAddress(s)) {
            return Optional.empty();
        }
        try {
            return Optional.of(literal(s).getHostAddress());
        } catch (UnknownHostException e) {
            return Optional.empty();
        }
    }

    /** The address of a literal that {@link Rules#isIpAddress} accepted, for a socket. */
    public static InetAddress literal(String address) throws UnknownHostException {
        if (!Rules.isIpAddress(address)) {
            throw new UnknownHostException(address + " is not an IP address literal");
        }
        // a literal: InetAddress only checks its format, there is no lookup
        return InetAddress.getByName(address);
    }

    /** Whether two texts are the same IP address; false when either is not an address literal. */
    public static boolean same(String a, String b) {
        Optional<String> left = canonical(a);
        return left.isPresent() && left.equals(canonical(b));
    }

    /** {@code 10.0.0.1:4420} or {@code [fe80::1]:4420}, as people write an address with a port. */
    public static String withPort(String address, int port) {
        return (address.contains(":") ? "[" + address + "]" : address) + ":" + port;
    }
}
