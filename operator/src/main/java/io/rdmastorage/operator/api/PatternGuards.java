package io.rdmastorage.operator.api;

import io.rdmastorage.contract.spec.Rules;

/**
 * Prefixes of the CEL rules that parse a string ({@code duration()}, {@code quantity()}): the rule
 * holds on a value its field's {@code pattern} refuses, and parses only what the pattern admits.
 * A parse of such a value would be an evaluation error, and the API server's validation ratcheting
 * forgives failures on unchanged fields, not errors: an object stored before its pattern existed
 * would have every write refused, its status, its finalizer's removal and so its deletion. The
 * pattern still refuses the value in a new or changed object.
 */
final class PatternGuards {

    private PatternGuards() {
    }

    /** For a Go duration field ({@link RdmaStorageProfileSpec#DURATION_PATTERN}). */
    static final String UNLESS_DURATION = "!self.matches(r'" + RdmaStorageProfileSpec.DURATION_PATTERN + "') || ";
    /** For a sampling window field ({@link Rules#WINDOW_REGEX}). */
    static final String UNLESS_WINDOW = "!self.matches(r'" + Rules.WINDOW_REGEX + "') || ";
    /** For a byte quantity field ({@link Rules#BYTE_QUANTITY_REGEX}). */
    static final String UNLESS_BYTE_QUANTITY = "!self.matches(r'" + Rules.BYTE_QUANTITY_REGEX + "') || ";
}
