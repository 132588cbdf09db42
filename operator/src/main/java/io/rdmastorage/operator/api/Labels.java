package io.rdmastorage.operator.api;

import java.util.LinkedHashMap;
import java.util.Map;

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
        labels.put(NODE, node);
        return labels;
    }

    /** {@code managed-by=...,rdmastorage.io/profile=<profile>}: selects every object of one profile. */
    public static String profileSelector(String profile) {
        return MANAGED_BY_SELECTOR + "," + PROFILE + "=" + profile;
    }
}
