package io.rdmastorage.probe.testing;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * Whole fixture nodes: every area of a node (gpu-01 unless its {@link FixtureHost} is another
 * {@link FixtureIdentity}) laid out together, healthy or with one failure mode.
 * The operator's simulated nodes use these, so a scenario here is what a node looks like to the
 * operator's tests as well.
 */
public final class NodeScenarios {

    /**
     * The DESIGN.md example profile's checks, less what cannot pass on a fixture root: the latency
     * section (it needs a peer) and {@code rdma.userspaceVerbs} (libibverbs looks at the probe
     * process's own devices, never the fixture root).
     */
    public static final String HEALTHY_SPEC = """
            {"rdma": {"devices": ["mlx5_0/1", "mlx5_1/1"]},
             "gpfs": %s,
             "nvmeof": %s,
             "gds": {"filesystems": ["gpfs"], "requireIommuDisabled": true, "requireNicGpuSameSwitch": true},
             "ceph": {}}
            """.formatted(GpfsFixtures.HEALTHY_SPEC, NvmeofFixtures.SECTION);

    /**
     * {@link #HEALTHY_SPEC}'s sections as the check part of a profile's {@code spec} in YAML, one
     * line per section ({@code gpfs: {...}}: JSON is YAML), for tests that apply profiles.
     */
    public static String healthyProfileChecks() {
        try {
            StringBuilder yaml = new StringBuilder();
            ObjectMapper json = new ObjectMapper();
            json.readTree(HEALTHY_SPEC).fields().forEachRemaining(section ->
                    yaml.append(section.getKey()).append(": ").append(section.getValue()).append('\n'));
            return yaml.toString();
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("HEALTHY_SPEC is not JSON", e);
        }
    }

    /** Scenario name → what it does to a healthy node; names are what tests and demos refer to. */
    public static final Map<String, UnaryOperator<FixtureHost>> FAILURES = Map.ofEntries(
            Map.entry("gpfs-tcp-fallback", GpfsFixtures::tcpFallback),
            Map.entry("gpfs-verbs-disabled", GpfsFixtures::verbsRdmaDisabled),
            Map.entry("gpfs-verbs-ports-typo", GpfsFixtures::verbsPortsTypo),
            Map.entry("gpfs-not-running", GpfsFixtures::notRunning),
            Map.entry("nvmeof-on-tcp", NvmeofFixtures::targetOnTcp),
            Map.entry("nvmeof-connecting", NvmeofFixtures::controllerConnecting),
            Map.entry("nvmeof-target-missing", NvmeofFixtures::targetMissing),
            Map.entry("gds-iommu-enabled", GdsFixtures::iommuEnabled),
            Map.entry("gds-nvidia-fs-missing", GdsFixtures::nvidiaFsMissing),
            Map.entry("gds-filesystem-unsupported", GdsFixtures::filesystemUnsupported),
            Map.entry("gds-acs-redirect", GdsFixtures::acsRedirect),
            Map.entry("rdma-port-down", RdmaFixtures::portDown),
            Map.entry("rdma-no-subnet-manager", RdmaFixtures::railWithoutSubnetManager),
            Map.entry("ceph-async-rdma", NodeScenarios::cephAsyncRdma),
            Map.entry("host-sys-not-mounted", NodeScenarios::sysNotMounted),
            Map.entry("gds-iommu-disputed", GdsFixtures::iommuDisputed),
            Map.entry("lustre-o2ib-down", LustreFixtures::o2ibDown));

    private NodeScenarios() {
    }

    /** The host's node with everything working: passes {@link #HEALTHY_SPEC}. */
    public static FixtureHost healthy(FixtureHost host) {
        RdmaFixtures.healthy(host);
        GpfsFixtures.healthy(host);
        NvmeofFixtures.healthy(host);
        GdsFixtures.healthy(host);
        host.file("/etc/hostname", host.identity().hostname() + "\n");
        host.file("/etc/ceph/ceph.conf", "[global]\nfsid = 7d5e6a2c-0c0b-4a57-9a7e-3f1c2f0b9d10\nms_type = async+posix\n");
        return host;
    }

    /**
     * The probe pod's view of a healthy node whose host root was mounted without its submounts:
     * {@code /sys} is an empty mount point (as a container prints "libnuma: Warning: /sys not
     * mounted or invalid"). Nothing is wrong with the node; the probe cannot see its devices.
     */
    public static FixtureHost sysNotMounted(FixtureHost host) {
        return host.delete("/sys").mkdir("/sys");
    }

    /**
     * {@link #HEALTHY_SPEC} with a lustre section for {@link LustreFixtures#POINT}: for nodes that
     * also carry a Lustre client ({@link LustreFixtures#healthy} or the {@code lustre-} scenarios).
     */
    public static final String LUSTRE_SPEC = HEALTHY_SPEC.strip().replaceFirst("}$", ", \"lustre\": "
            + LustreFixtures.SPEC.substring(LustreFixtures.SPEC.indexOf(':') + 1, LustreFixtures.SPEC.length() - 1) + "}");

    /** The healthy node with one failure mode from {@link #FAILURES} applied. */
    public static FixtureHost withFailure(FixtureHost host, String scenario) {
        UnaryOperator<FixtureHost> failure = FAILURES.get(scenario);
        if (failure == null) {
            throw new IllegalArgumentException("no scenario " + scenario + "; known: " + FAILURES.keySet());
        }
        return failure.apply(healthy(host));
    }

    /** The cluster messenger over the experimental async+rdma (recorded ceph.conf). */
    public static FixtureHost cephAsyncRdma(FixtureHost host) {
        return host.sampleFile("/etc/ceph/ceph.conf", "ceph/ceph-conf_async+rdma_cluster-only_bond.txt");
    }
}
