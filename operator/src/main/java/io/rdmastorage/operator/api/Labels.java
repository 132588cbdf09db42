package io.rdmastorage.operator.api;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Pattern;

/** Label keys and values on everything the operator creates, so it can find (and clean up) its own objects. */
public final class Labels {

    public static final String MANAGED_BY = "app.kubernetes.io/managed-by";
    public static final String MANAGED_BY_VALUE = "rdma-storage-operator";
    public static final String COMPONENT = "app.kubernetes.io/component";
    public static final String COMPONENT_NODE_PROBE = "node-probe";
    /** The profile an object belongs to (profile names are ≤ 63 characters, so always a valid value). */
    public static final String PROFILE = RdmaStorageNode.PROFILE_LABEL;
    /** The node an object is about. */
    public static final String NODE = RdmaStorageNode.NODE_LABEL;
    /** The probe round of a probe pod. */
    public static final String ROUND = "rdmastorage.io/round";

    /** {@code app.kubernetes.io/managed-by=rdma-storage-operator}, for label selectors. */
    public static final String MANAGED_BY_SELECTOR = MANAGED_BY + "=" + MANAGED_BY_VALUE;

    private static final int MAX_VALUE = 63;
    private static final int HASH_CHARS = 10;
    private static final Pattern LABEL_VALUE = Pattern.compile("[A-Za-z0-9]([-_.A-Za-z0-9]{0,61}[A-Za-z0-9])?");

    private Labels() {
    }

    /** managed-by and profile: the labels of a profile's objects; a new, mutable map. */
    public static Map<String, String> forProfile(String profile) {
        Map<String, String> labels = new LinkedHashMap<>();
        labels.put(MANAGED_BY, MANAGED_BY_VALUE);
        labels.put(PROFILE, profile);
        return labels;
    }

    /** managed-by, profile and node: the labels of a profile's per-node objects; a new, mutable map. */
    public static Map<String, String> forNode(String profile, String node) {
        Map<String, String> labels = forProfile(profile);
        labels.put(NODE, nodeValue(node));
        return labels;
    }

    /**
     * A node name as a label value: the name itself when it fits (≤ 63 characters, the usual case),
     * otherwise its head and a hash of the whole, since node names may have up to 253 characters.
     * Objects keep the full name in their spec ({@code spec.nodeName}); the label is for selection.
     */
    public static String nodeValue(String node) {
        if (LABEL_VALUE.matcher(node).matches()) {
            return node;
        }
        String hash = Sha256.hex(node).substring(0, HASH_CHARS);
        String head = node.replaceAll("[^-_.A-Za-z0-9]", "-");
        head = head.substring(0, Math.min(head.length(), MAX_VALUE - HASH_CHARS - 1)).replaceAll("[^A-Za-z0-9]+$", "");
        return head.isEmpty() ? hash : head + "-" + hash;
    }

    /** {@code managed-by=...,rdmastorage.io/profile=<profile>}: selects every object of one profile. */
    public static String profileSelector(String profile) {
        return MANAGED_BY_SELECTOR + "," + PROFILE + "=" + profile;
    }
}
