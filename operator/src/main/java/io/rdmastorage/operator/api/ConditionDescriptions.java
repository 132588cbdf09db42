package io.rdmastorage.operator.api;

import com.fasterxml.jackson.annotation.JsonClassDescription;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;

/**
 * The descriptions of a status condition's properties (fabric8's {@code Condition}, the Kubernetes
 * metav1.Condition), which the fabric8 model does not carry: {@link SchemaDescriptions} applies them
 * to every {@code conditions} list of the CRDs. Never instantiated; its fields only name properties.
 */
@JsonClassDescription("One condition: a type (such as Ready) with its status, the reason in one word and a message for people.")
@SuppressWarnings("unused")
final class ConditionDescriptions {

    @JsonPropertyDescription("The condition's type, in CamelCase, such as Ready.")
    private String type;
    @JsonPropertyDescription("True, False or Unknown.")
    private String status;
    @JsonPropertyDescription("Why the condition has its status, one CamelCase word (docs/troubleshooting.md lists every reason and what to do about it).")
    private String reason;
    @JsonPropertyDescription("What was seen, for people: the facts behind the status, and what to do about it.")
    private String message;
    @JsonPropertyDescription("When the status last changed (RFC 3339).")
    private String lastTransitionTime;
    @JsonPropertyDescription("The metadata.generation of the object the condition was set for.")
    private Long observedGeneration;

    private ConditionDescriptions() {
    }
}
