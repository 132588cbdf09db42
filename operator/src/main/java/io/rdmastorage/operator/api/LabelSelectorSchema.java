package io.rdmastorage.operator.api;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import com.fasterxml.jackson.annotation.JsonClassDescription;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import io.fabric8.generator.annotation.ValidationRule;
import io.rdmastorage.contract.spec.Rules;
import java.util.List;
import java.util.Map;

/**
 * The CRD schema of every label selector in a profile ({@code @SchemaFrom} on the field; the Java
 * type stays fabric8's {@code LabelSelector}). The fabric8 model declares no required operator,
 * no operator enum and no rule on {@code values}, so an expression without operator passed
 * admission and then failed every reconcile. This schema says what Kubernetes accepts in its own
 * selectors, and bounds the lists so the API server can afford the CEL rule.
 */
@JsonClassDescription("A label selector: matchLabels and matchExpressions must all match.")
public final class LabelSelectorSchema {

    /** A qualified label key: an optional DNS-subdomain prefix (253), a slash, a name (63). */
    static final int MAX_KEY_LENGTH = 317;
    static final int MAX_VALUE_LENGTH = 63;

    @Size(max = Rules.MAX_LIST)
    @JsonPropertyDescription("Labels a node must have, key: value; each is the same as a matchExpressions entry with operator In and that one value.")
    public Map<String, String> matchLabels;

    @Size(max = Rules.MAX_LIST)
    @JsonPropertyDescription("Requirements on the node's labels, all of which must hold.")
    public List<Requirement> matchExpressions;

    /** The operators of Kubernetes label selectors (Gt/Lt are node-affinity only). */
    public enum Operator { In, NotIn, Exists, DoesNotExist }

    /**
     * The values rule. It holds where {@code operator} is absent, which {@code required} refuses on
     * its own: a rule that read {@code self.operator} there would not fail but err ("no such key"),
     * and the API server ratchets failures on unchanged fields, never errors. A profile stored
     * without operator before this schema (as fabric8's model allowed) would then refuse every
     * write, its status, even the removal of its finalizer, and stay Terminating for ever.
     */
    public static final String VALUES_RULE = "!has(self.operator) || (self.operator in ['In', 'NotIn']"
            + " ? (has(self.values) && size(self.values) > 0) : (!has(self.values) || size(self.values) == 0))";

    @ValidationRule(value = VALUES_RULE,
            messageExpression = "'values must be ' + (self.operator in ['In', 'NotIn'] ? 'non-empty' : 'empty')"
                    + " + ' for operator ' + self.operator")
@JsonClassDescription("A requirement on one label: key, operator and values.")
    public static final class Requirement {
        @Required
        @Size(min = 1, max = MAX_KEY_LENGTH)
        @JsonPropertyDescription("Required. The label key, such as topology.kubernetes.io/zone.")
        public String key;
        @Required
        @JsonPropertyDescription("Required. In or NotIn (the label's value is or is not one of values), Exists or DoesNotExist (values must be empty).")
        public Operator operator;
        @Size(max = Rules.MAX_LIST)
        @JsonPropertyDescription("Label values; non-empty for In and NotIn, empty for Exists and DoesNotExist.")
        public List<@Size(max = MAX_VALUE_LENGTH) String> values;
    }

    private LabelSelectorSchema() {
    }
}
