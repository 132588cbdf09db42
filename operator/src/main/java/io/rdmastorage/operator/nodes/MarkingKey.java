package io.rdmastorage.operator.nodes;

import io.fabric8.kubernetes.api.model.Toleration;
import io.fabric8.kubernetes.api.model.TolerationBuilder;
import java.util.regex.Pattern;

/**
 * The one key under which a profile marks a node: {@code rdmastorage.io/<profile>} is the label
 * key, the taint key and the Node condition type. One key per profile keeps the markings of
 * different profiles apart and makes "what did this profile set?" a lookup, not a guess.
 */
public final class MarkingKey {

    public static final String PREFIX = "rdmastorage.io/";

    /** The name part of a qualified label key: at most 63 characters, alphanumeric at both ends. */
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?");

    private MarkingKey() {
    }

    /**
     * The key for a profile. The CRD limits profile names to 63 characters of a DNS subdomain, so
     * this never fails for a profile the API server accepted; we check anyway because an invalid
     * key would only surface as a 422 on every node patch.
     *
     * @throws IllegalArgumentException when the profile name cannot be the name part of a label key
     */
    public static String of(String profile) {
        if (profile == null || !NAME.matcher(profile).matches()) {
            throw new IllegalArgumentException("profile name cannot be the name part of a label key "
                    + "(at most 63 characters [A-Za-z0-9-_.], alphanumeric at both ends): " + profile);
        }
        return PREFIX + profile;
    }

    /**
     * A toleration of this profile's taint, for the probe pods of the same profile: a node fenced
     * because of a failed check must still be re-probed, or it could never recover.
     */
    public static Toleration toleration(String profile) {
        return new TolerationBuilder()
                .withKey(of(profile))
                .withOperator("Exists")
                .withEffect(DesiredMarkings.TAINT_EFFECT)
                .build();
    }
}
