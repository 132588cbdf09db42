package io.rdmastorage.operator.api;

/** When the operator manages a node's startup taint (node-readiness-controller's enforcement modes). */
public enum StartupTaintMode {
    /** Lifted once the node's verdict is True, never put back: a gate for joining nodes only. */
    BootstrapOnly,
    /** Lifted while the verdict is True, put back while it is False (never for Unknown). */
    Continuous
}
