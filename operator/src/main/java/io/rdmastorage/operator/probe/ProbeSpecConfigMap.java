package io.rdmastorage.operator.probe;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.rdmastorage.operator.api.Labels;
import io.rdmastorage.operator.api.RdmaStorageProfile;
import io.rdmastorage.operator.config.OperatorConfig;
import java.util.Map;

/**
 * The ConfigMap that carries a profile's probe spec to its probe pods, as data: one per profile,
 * in the operator's namespace, key {@value #KEY}. Probe pods mount it at
 * {@value ProbePodFactory#SPEC_DIR}; node-probe reads it with {@code --spec}. No shell ever sees it.
 */
public final class ProbeSpecConfigMap {

    public static final String KEY = "spec.json";
    /** SHA-256 of the spec document: a spec change is visible on the object (and in a diff). */
    public static final String SPEC_HASH_ANNOTATION = "rdmastorage.io/spec-sha256";
    private static final String PREFIX = "rsp-";
    private static final String SUFFIX = "-spec";

    private ProbeSpecConfigMap() {
    }

    /**
     * {@code rsp-<profile>-spec}: profile names are DNS subdomains of at most 63 characters
     * (CRD), so this is a valid ConfigMap name of at most 72 characters.
     */
    public static String name(String profile) {
        return PREFIX + profile + SUFFIX;
    }

    public static ConfigMap build(RdmaStorageProfile profile, ProbeSpecDocument document, OperatorConfig config) {
        String profileName = profile.getMetadata().getName();
        return new ConfigMapBuilder()
                .withNewMetadata()
                    .withName(name(profileName))
                    .withNamespace(config.namespace())
                    .withLabels(Labels.forProfile(profileName))
                    .withAnnotations(Map.of(SPEC_HASH_ANNOTATION, document.sha256()))
                    .withOwnerReferences(ProfileOwnerReference.of(profile))
                .endMetadata()
                .withData(Map.of(KEY, document.json()))
                .build();
    }
}
