package io.rdmastorage.operator.quarantine;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.rdmastorage.operator.api.Labels;
import io.rdmastorage.operator.api.StorageNodeName;
import io.rdmastorage.operator.nodes.MarkingKey;
import java.net.HttpURLConnection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The operator's DeviceTaintRules as objects: one per published device it fences, named
 * {@code <profile>.<node>.<device>}, labelled with the profile and node (so it lists and deletes
 * only its own), and annotated with the RDMA device and the checks that found it faulty. The
 * taint's key is the profile's marking key ({@code rdmastorage.io/<profile>}), its value the reason.
 */
final class DeviceTaintRules {

    static final String KIND = "DeviceTaintRule";
    static final String RDMA_DEVICE_ANNOTATION = "rdmastorage.io/rdma-device";
    static final String CHECKS_ANNOTATION = "rdmastorage.io/checks";

    /** One rule as the operator wants it. */
    record Rule(String name, PublishedNic nic, FaultyDevice faulty, String key, String value, String effect) {

        GenericKubernetesResource object(String apiVersion, String profile, String node) {
            GenericKubernetesResource rule = new GenericKubernetesResource();
            rule.setApiVersion(apiVersion);
            rule.setKind(KIND);
            Map<String, String> annotations = new LinkedHashMap<>();
            annotations.put(RDMA_DEVICE_ANNOTATION, faulty.device());
            annotations.put(CHECKS_ANNOTATION, String.join(",", faulty.checks()));
            rule.setMetadata(new ObjectMetaBuilder().withName(name).withLabels(Labels.forNode(profile, node))
                    .withAnnotations(annotations).build());
            Map<String, Object> spec = new LinkedHashMap<>();
            spec.put("deviceSelector", Map.of("driver", nic.driver(), "pool", nic.pool(), "device", nic.device()));
            spec.put("taint", Map.of("key", key, "value", value, "effect", effect));
            rule.setAdditionalProperty("spec", spec);
            return rule;
        }

        /** Whether a stored rule already selects and taints as this one does. */
        @SuppressWarnings("unchecked")
        boolean matches(GenericKubernetesResource stored) {
            if (!(stored.getAdditionalProperties().get("spec") instanceof Map<?, ?> spec)) {
                return false;
            }
            Map<String, Object> selector = (Map<String, Object>) spec.get("deviceSelector");
            Map<String, Object> taint = (Map<String, Object>) spec.get("taint");
            return selector != null && taint != null
                    && nic.driver().equals(selector.get("driver")) && nic.pool().equals(selector.get("pool"))
                    && nic.device().equals(selector.get("device"))
                    && key.equals(taint.get("key")) && Objects.equals(value, taint.get("value")) && effect.equals(taint.get("effect"));
        }
    }

    private final KubernetesClient client;

    DeviceTaintRules(KubernetesClient client) {
        this.client = client;
    }

    static Rule rule(String profile, String node, PublishedNic nic, FaultyDevice faulty, String effect) {
        return new Rule(StorageNodeName.fitted(profile + "." + node + "." + nic.device()), nic, faulty,
                MarkingKey.of(profile), faulty.reasons().get(0), effect);
    }

    /** The operator's rules of one profile on one node. */
    List<GenericKubernetesResource> list(String apiVersion, String profile, String node) {
        return client.genericKubernetesResources(apiVersion, KIND).withLabels(Labels.forNode(profile, node)).list().getItems();
    }

    /** Every rule of one profile, on any node: for its cleanup. */
    List<GenericKubernetesResource> listProfile(String apiVersion, String profile) {
        return client.genericKubernetesResources(apiVersion, KIND).withLabels(Labels.forProfile(profile)).list().getItems();
    }

    /**
     * Creates the rule; false when a rule of that name exists that is not among the operator's (the
     * caller listed its own): someone else's rule is never taken over.
     */
    boolean create(String apiVersion, String profile, String node, Rule rule) {
        try {
            client.genericKubernetesResources(apiVersion, KIND).resource(rule.object(apiVersion, profile, node)).create();
            return true;
        } catch (KubernetesClientException e) {
            if (e.getCode() == HttpURLConnection.HTTP_CONFLICT) {
                return false;
            }
            throw e;
        }
    }

    /**
     * Brings one of the operator's own rules in line (another effect, another reason): deleted and
     * created anew, so the operator needs no update or patch on anyone's rules.
     */
    void replace(String apiVersion, String profile, String node, Rule rule) {
        delete(apiVersion, rule.name());
        create(apiVersion, profile, node, rule);
    }

    /** Deletes one of the operator's rules; one gone already is fine. */
    void delete(String apiVersion, String name) {
        try {
            client.genericKubernetesResources(apiVersion, KIND).withName(name).delete();
        } catch (KubernetesClientException e) {
            if (e.getCode() != HttpURLConnection.HTTP_NOT_FOUND) {
                throw e;
            }
        }
    }
}
