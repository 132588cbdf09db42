package io.rdmastorage.probe.testing;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Who a fixture host is: its host name, its GPFS daemon name, address and node number, and the GPU
 * node it talks to in the GPFS cluster (besides the NSD servers nsd-01 and nsd-02, node numbers 1
 * and 2). The outputs a host's tools print name this identity, so each simulated node of a cluster
 * speaks for itself. GPU nodes pair up as GPFS peers: gpu-01 with gpu-02, gpu-03 with gpu-04, ...
 *
 * @param number the node's index, 1 for gpu-01; its address is 10.10.0.(10 + number)
 */
public record FixtureIdentity(int number) {

    /** The node every fixture was recorded for, and the default of a {@link FixtureHost}. */
    public static final FixtureIdentity GPU_01 = gpu(1);
    private static final Pattern GPU_NAME = Pattern.compile("gpu-(\\d{2})");

    public FixtureIdentity {
        if (number < 1 || number > 98) {
            throw new IllegalArgumentException("a fixture GPU node is gpu-01 to gpu-98, not " + number);
        }
    }

    public static FixtureIdentity gpu(int number) {
        return new FixtureIdentity(number);
    }

    /** {@code gpu-07} → gpu(7); any other name is gpu-01 (the operator tests' gpu-a, gpu-b, ... share it). */
    public static FixtureIdentity forNodeName(String name) {
        Matcher m = GPU_NAME.matcher(name.strip());
        int number = m.matches() ? Integer.parseInt(m.group(1)) : 0;
        return number >= 1 && number <= 98 ? gpu(number) : GPU_01;
    }

    /** The Kubernetes node and host name, e.g. {@code gpu-01}. */
    public String hostname() {
        return "gpu-%02d".formatted(number);
    }

    /** The GPFS daemon node name, on the InfiniBand network: {@code gpu-01-ib}. */
    public String gpfsName() {
        return hostname() + "-ib";
    }

    public String address() {
        return "10.10.0." + (10 + number);
    }

    /** GPFS node number in {@code mmlscluster}: after the two NSD servers. */
    public int gpfsNodeNumber() {
        return number + 2;
    }

    /** GPFS's node id in {@code mmdiag --network}, e.g. {@code <c0n2>}. */
    public String gpfsNodeId() {
        return "<c0n" + (gpfsNodeNumber() - 1) + ">";
    }

    /** The GPU node this one talks to in the GPFS cluster. */
    public FixtureIdentity gpfsPeer() {
        return gpu(number % 2 == 1 ? number + 1 : number - 1);
    }
}
