package io.rdmastorage.contract.spec;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Optional;

/**
 * An IP address or a CIDR range ({@code 10.68.20.0/24}, {@code fd00::/8}, {@code 192.0.2.1}): what
 * the cluster admin lets acceptance runs connect to. Literals only: nothing here looks a name up.
 */
public record AddressRange(byte[] network, int prefixLength) {

    /** {@code ADDRESS} or {@code ADDRESS/PREFIX}, IPv4 or IPv6. */
    public static AddressRange parse(String field, String value) throws InvalidSpecException {
        int slash = value.indexOf('/');
        String address = slash < 0 ? value : value.substring(0, slash);
        if (!Rules.isIpAddress(address)) {
            throw new InvalidSpecException(field, Rules.show(value) + " must be an IP address or a CIDR range such as 10.68.20.0/24");
        }
        byte[] bytes = bytes(address);
        int length = bytes.length * 8;
        if (slash >= 0) {
            String prefix = value.substring(slash + 1);
            if (!prefix.matches("[0-9]{1,3}") || Integer.parseInt(prefix) > length) {
                throw new InvalidSpecException(field, Rules.show(value) + " has a prefix length that is not 0-" + length);
            }
            length = Integer.parseInt(prefix);
        }
        return new AddressRange(bytes, length);
    }

    /** Whether {@code address} (a literal) lies in the range; an address of the other family never does. */
    public boolean contains(String address) {
        if (!Rules.isIpAddress(address)) {
            return false;
        }
        byte[] candidate = bytes(address);
        if (candidate.length != network.length) {
            return false;
        }
        for (int bit = 0; bit < prefixLength; bit++) {
            int mask = 0x80 >>> (bit % 8);
            if ((candidate[bit / 8] & mask) != (network[bit / 8] & mask)) {
                return false;
            }
        }
        return true;
    }

    /**
     * Why no acceptance run may ever connect to {@code address}, whatever a profile or the admin
     * names: the node itself (loopback: a local service such as etcd), link-local (a cloud's
     * metadata service) and the unspecified address. Empty when it is none of those.
     */
    public static Optional<String> neverAllowed(String address) {
        if (!Rules.isIpAddress(address)) {
            return Optional.empty();
        }
        InetAddress ip = inet(address);
        if (ip.isLoopbackAddress()) {
            return Optional.of(address + " is a loopback address (a service of the node itself)");
        }
        if (ip.isLinkLocalAddress()) {
            return Optional.of(address + " is a link-local address (such as a cloud's metadata service)");
        }
        if (ip.isAnyLocalAddress()) {
            return Optional.of(address + " is the unspecified address");
        }
        return Optional.empty();
    }

    private static byte[] bytes(String literal) {
        return inet(literal).getAddress();
    }

    /** A validated literal: InetAddress parses it without a lookup (an IPv4-mapped IPv6 address becomes IPv4). */
    private static InetAddress inet(String literal) {
        try {
            return InetAddress.getByName(literal);
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("not an address literal: " + literal, e);
        }
    }

    @Override
    public String toString() {
        return inet(network).getHostAddress() + "/" + prefixLength;
    }

    private static InetAddress inet(byte[] address) {
        try {
            return InetAddress.getByAddress(address);
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException(e);
        }
    }
}
