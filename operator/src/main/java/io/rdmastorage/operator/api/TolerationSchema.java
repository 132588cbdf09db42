package io.rdmastorage.operator.api;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import com.fasterxml.jackson.annotation.JsonClassDescription;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Size;
import io.fabric8.generator.annotation.ValidationRule;

/**
 * The CRD schema of a profile's tolerations ({@code @SchemaFrom} on the field; the Java type stays
 * fabric8's {@code Toleration}): what the API server accepts in a pod, checked at admission. The
 * fabric8 model declares plain strings, so a toleration the API server refuses passed and then
 * failed every probe pod's create.
 */
@ValidationRule(value = "!has(self.operator) || self.operator != 'Exists' || !has(self.value) || self.value == ''",
        message = "value must be empty when operator is Exists")
@ValidationRule(value = "(has(self.key) && self.key != '') || (has(self.operator) && self.operator == 'Exists')",
        message = "operator must be Exists when key is empty")
@ValidationRule(value = "!has(self.tolerationSeconds) || (has(self.effect) && self.effect == 'NoExecute')",
        message = "tolerationSeconds needs effect NoExecute")
@JsonClassDescription("A toleration, as in a pod: the probe pods tolerate taints that match it.")
public final class TolerationSchema {

    /** A qualified name (optional DNS-subdomain prefix and slash, then a name of at most 63), or empty. */
    static final String QUALIFIED_NAME = "^((([a-z0-9]([-a-z0-9]*[a-z0-9])?)(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*)/)?"
            + "([A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?)$|^$";
    /** A label value: at most 63, alphanumeric at both ends, or empty. */
    static final String LABEL_VALUE = "^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$";

    public enum Operator { Exists, Equal }

    public enum Effect { NoSchedule, PreferNoSchedule, NoExecute }

    @Pattern(QUALIFIED_NAME)
    @Size(max = LabelSelectorSchema.MAX_KEY_LENGTH)
    @JsonPropertyDescription("The taint key to tolerate; empty with operator Exists tolerates every taint.")
    public String key;
    @JsonPropertyDescription("Exists (any value) or Equal (the value must equal value). Default Equal.")
    public Operator operator;
    @Pattern(LABEL_VALUE)
    @Size(max = LabelSelectorSchema.MAX_VALUE_LENGTH)
    @JsonPropertyDescription("The taint value to tolerate with operator Equal; empty with Exists.")
    public String value;
    @JsonPropertyDescription("The taint effect to tolerate: NoSchedule, PreferNoSchedule or NoExecute; empty tolerates all effects.")
    public Effect effect;
    @JsonPropertyDescription("With effect NoExecute: how many seconds a pod stays bound after the taint appears; absent: forever.")
    public Long tolerationSeconds;

    private TolerationSchema() {
    }
}
