package io.rdmastorage.probe.parse;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * An LNet NID, {@code address@network} ({@code 192.168.1.61@o2ib}, {@code mds01@tcp0},
 * {@code 0@lo}). The network is its LND type and number; number 0 is the same network with or without
 * it ({@code o2ib0} is {@code o2ib}), so it is kept in lnetctl's form, without the 0.
 */
public record LnetNid(String address, String network) {

    private static final Pattern NETWORK = Pattern.compile("([a-z][a-z0-9]*?)([0-9]*)");
    /** The RDMA LND: ko2iblnd (InfiniBand, RoCE, OPA through verbs). */
    public static final String O2IB = "o2ib";

    public static Optional<LnetNid> parse(String text) {
        int at = text.lastIndexOf('@');
        if (at <= 0 || at == text.length() - 1) {
            return Optional.empty();
        }
        String network = text.substring(at + 1).strip().toLowerCase(Locale.ROOT);
        var m = NETWORK.matcher(network);
        if (!m.matches()) {
            return Optional.empty();
        }
        String number = m.group(2).replaceFirst("^0+(?=.)", "");
        return Optional.of(new LnetNid(text.substring(0, at).strip(), m.group(1) + ("0".equals(number) ? "" : number)));
    }

    /** The network's LND type: {@code o2ib} for {@code o2ib1}, {@code tcp} for {@code tcp2}. */
    public String lnd() {
        return network.replaceFirst("[0-9]+$", "");
    }

    /** Over RDMA: an o2ib network. */
    public boolean rdma() {
        return lnd().equals(O2IB);
    }

    public boolean loopback() {
        return network.equals("lo");
    }

    /**
     * The server NIDs of a Lustre mount's device ({@code 192.168.1.61@o2ib,192.168.1.62@o2ib1:/ai200}):
     * the MGS NIDs before {@code :/fsname}, ',' between NIDs of one node and ':' between failover nodes.
     * Empty when the device names no NID (not a client mount: an MDT or OST device).
     */
    public static List<LnetNid> ofMountDevice(String device) {
        int fs = device.indexOf(":/");
        if (fs < 0) {
            return List.of();
        }
        List<LnetNid> nids = new ArrayList<>();
        for (String part : device.substring(0, fs).split("[,:]")) {
            parse(part).ifPresent(nids::add);
        }
        return nids;
    }

    /** The file system name of a Lustre mount's device: what follows {@code :/}, without a fileset's subdirectory. */
    public static Optional<String> fsname(String device) {
        int fs = device.indexOf(":/");
        return fs < 0 ? Optional.empty() : Optional.of(device.substring(fs + 2).replaceFirst("/.*", ""));
    }

    @Override
    public String toString() {
        return address + "@" + network;
    }
}
