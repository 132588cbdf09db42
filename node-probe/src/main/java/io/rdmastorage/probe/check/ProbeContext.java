package io.rdmastorage.probe.check;

import io.rdmastorage.contract.spec.ProbeSpec;
import io.rdmastorage.probe.host.HostRoot;
import io.rdmastorage.probe.host.ToolRunner;
import java.time.Instant;

/**
 * Everything a check may look at.
 *
 * @param spec      the validated spec; {@link ProbeSpec#discover()} when none was given
 * @param discovery true when no spec was given: report what the node has
 * @param now       the probe's start time, for "recent" log lines
 */
public record ProbeContext(HostRoot host, ToolRunner tools, ProbeSpec spec, boolean discovery, String node, Instant now) {
}
