package io.rdmastorage.probe.check;

import io.rdmastorage.contract.CheckType;
/**
 * One condition type: combines parsed host facts with the spec into a verdict. Implementations
 * never throw for host trouble (missing tool, garbage output): that is a verdict too.
 */
public interface Check {

    CheckType type();

    /**
     * Whether this check has anything to judge: its spec section is present, or, without a spec,
     * the node has the subsystem (a GPFS install, a ceph.conf, ...).
     */
    boolean applies(ProbeContext context);

    CheckResult run(ProbeContext context);
}
