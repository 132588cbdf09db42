package io.rdmastorage.operator.api;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A field of a check section that is the operator's own (how it pairs nodes, say) and not part of
 * the probe's spec: it stays out of the document node-probe reads. Every other field of a check
 * section is a field of the contract's spec model (ProbeContractTest holds them equal).
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.FIELD)
public @interface OperatorOnly {
}
