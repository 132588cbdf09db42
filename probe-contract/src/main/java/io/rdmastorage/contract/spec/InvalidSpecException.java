package io.rdmastorage.contract.spec;

/** A spec value that breaks a rule; the message names the field and the rule in one line. */
public final class InvalidSpecException extends Exception {

    private final String field;

    public InvalidSpecException(String field, String rule) {
        super(field + ": " + rule);
        this.field = field;
    }

    public String field() {
        return field;
    }
}
