package io.rdmastorage.operator.api;


/** The name of a profile's RdmaStorageNode for a node: {@code <profile>.<node>}, hashed when too long. */
public final class StorageNodeName {

    /** Object names are DNS subdomains: at most 253 characters. */
    static final int MAX = 253;
    private static final int HASH_CHARS = 10;

    private StorageNodeName() {
    }

    public static String of(String profile, String node) {
        return fitted(profile + "." + node);
    }

    /** The name itself when it fits an object name, else cut with a hash of the whole kept. */
    public static String fitted(String name) {
        if (name.length() <= MAX) {
            return name;
        }
        String hash = Sha256.hex(name).substring(0, HASH_CHARS);
        String head = name.substring(0, MAX - HASH_CHARS - 1).replaceAll("[.-]+$", "");
        return head + "-" + hash;
    }
}
