package io.rdmastorage.operator.api;

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
public final class LabelSelectorSchema {

    /** A qualified label key: an optional DNS-subdomain prefix (253), a slash, a name (63). */
    static final int MAX_KEY_LENGTH = 317;
    static final int MAX_VALUE_LENGTH = 63;

    @Size(max = Rules.MAX_LIST)
    public Map<String, String> matchLabels;

    @Size(max = Rules.MAX_LIST)
    public List<Requirement> matchExpressions;

    /** The operators of Kubernetes label selectors (Gt/Lt are node-affinity only). */
    public enum Operator { In, NotIn, Exists, DoesNotExist }

    @ValidationRule(value = "self.operator in ['In', 'NotIn'] ? (has(self.values) && size(self.values) > 0)"
            + " : (!has(self.values) || size(self.values) == 0)",
            messageExpression = "'values must be ' + (self.operator in ['In', 'NotIn'] ? 'non-empty' : 'empty')"
                    + " + ' for operator ' + self.operator")
    public static final class Requirement {
        @Required
        @Size(min = 1, max = MAX_KEY_LENGTH)
        public String key;
        @Required
        public Operator operator;
        @Size(max = Rules.MAX_LIST)
        public List<@Size(max = MAX_VALUE_LENGTH) String> values;
    }

    private LabelSelectorSchema() {
    }
}
