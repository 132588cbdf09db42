package io.rdmastorage.probe.parse;

import java.util.Locale;

/**
 * One entry of a RoCE port's GID table as sysfs shows it: {@code ports/<p>/gids/<i>}
 * ("0000:0000:0000:0000:0000:ffff:c000:0201"), {@code gid_attrs/types/<i>} ("RoCE v2", "IB/RoCE v1")
 * and {@code gid_attrs/ndevs/<i>} (the netdev, e.g. "veth0"). Unused slots read as the zero GID, and
 * their types and ndevs files fail to read (EINVAL), hence the empty strings.
 *
 * @param type as printed, or empty
 * @param ndev as printed, or empty
 */
public record RoceGid(int index, String gid, String type, String ndev) {

    public static RoceGid of(int index, String gid, String type, String ndev) {
        return new RoceGid(index, clean(gid), clean(type), clean(ndev));
    }

    /** The unused slot: all groups zero (or nothing readable). */
    public boolean zero() {
        return gid.replace(":", "").chars().allMatch(c -> c == '0');
    }

    /** RoCE v2 (routable, UDP): what rdma_cm and RoCE v2 storage clients pick. */
    public boolean roceV2() {
        return type.toLowerCase(Locale.ROOT).equals("roce v2");
    }

    private static String clean(String value) {
        return value == null ? "" : value.strip();
    }
}
