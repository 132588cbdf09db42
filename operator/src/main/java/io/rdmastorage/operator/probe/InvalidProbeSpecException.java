package io.rdmastorage.operator.probe;

/**
 * A profile's check spec that node-probe would refuse: names the field ({@code gpfs.verbsPorts[1]})
 * and the rule it breaks. The CRD schema should have refused it already; this is the second line,
 * so that such a value never reaches a privileged pod.
 */
public final class InvalidProbeSpecException extends Exception {

    private final String field;
    private final String rule;

    public InvalidProbeSpecException(String field, String rule) {
        super(field + ": " + rule);
        this.field = field;
        this.rule = rule;
    }

    /** The field's path in the profile's spec, e.g. {@code nvmeof.targets[0].nqn}. */
    public String field() {
        return field;
    }

    /** What the value must be, with the refused value quoted. */
    public String rule() {
        return rule;
    }
}
