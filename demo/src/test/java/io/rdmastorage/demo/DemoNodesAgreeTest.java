package io.rdmastorage.demo;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.rdmastorage.contract.spec.ProbeSpec;
import io.rdmastorage.probe.testing.FixtureHost;
import io.rdmastorage.probe.testing.FixtureIdentity;
import io.rdmastorage.probe.testing.LustreFixtures;
import io.rdmastorage.probe.testing.NodeScenarios;
import io.rdmastorage.probe.testing.ProbeRun;
import io.rdmastorage.probe.testing.TrafficFixtures;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.RecordComponent;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every demo node agrees with itself: what its configuration checks say about a transport and what
 * its traffic window (RdmaTraffic) saw on the wire come from different sources of one fixture host
 * (mmdiag and mmfsadm, sysfs, lnetctl; the RDMA port counters, ss and mmdiag's MB), and the demo
 * must not show a node whose sources contradict each other. Each node is laid out as the demo does
 * it ({@link LocalDemo#layOut}) and probed with the demo profile's checks, less latency (it needs the
 * fabric of peers).
 */
class DemoNodesAgreeTest {

    private static final Pattern GPFS_ON_TCP = Pattern.compile("talks to (.+?) over TCP");
    /** A storage peer on TCP in RdmaTraffic's message (its first finding or an "also" one): GPFS node, or address:port (protocol). */
    private static final Pattern TCP_PEER = Pattern.compile(
            "(?:GPFS node (\\S+)|(\\S+):(\\d+) \\(([^)]+)\\)) (?:moved \\S+ \\S+ over TCP|\\S+ \\S+ on TCP)");

    @TempDir
    Path hosts;

    @Test
    void everyNodesTrafficShowsWhatItsChecksSay() {
        List<String> disagreements = new ArrayList<>();
        for (Map.Entry<String, String> node : LocalDemo.NODES.entrySet()) {
            FixtureHost host = LocalDemo.layOut(hosts.resolve(node.getKey()), node.getKey(), node.getValue());
            disagreements.addAll(disagreements(node.getKey(), host, probe(host, node.getKey())));
        }
        assertThat(disagreements).as("demo nodes whose sources contradict each other").isEmpty();
    }

    /**
     * The rules, both ways. A file system the checks put on TCP shows its bytes on TCP in the window
     * (GPFS: mmdiag's connection to each peer GpfsVerbs names; NVMe-oF: the tcp target's queue
     * sockets; Lustre: LNet's socklnd socket). Every storage peer the window saw on TCP is one of the
     * node's own connections (a GPFS peer GpfsVerbs has on TCP, a tcp controller in the node's
     * sysfs, a Lustre server LustreLnet reaches by a tcp NID).
     */
    static List<String> disagreements(String node, FixtureHost host, Map<String, JsonNode> checks) {
        List<String> found = new ArrayList<>();
        JsonNode traffic = checks.get("RdmaTraffic");
        String onWire = traffic.path("message").asText();
        List<String> gpfsOnTcp = gpfsPeersOnTcp(checks.get("GpfsVerbs"));
        for (String peer : gpfsOnTcp) {
            if (!onWire.contains("GPFS node " + peer + " ")) {
                found.add(node + ": GpfsVerbs has GPFS peer " + peer + " on TCP, but the traffic window shows no GPFS bytes to it "
                        + "on TCP: " + verdict(traffic));
            }
        }
        List<String> nvmeOnTcp = new ArrayList<>();
        for (JsonNode target : checks.get("NvmeofRdma").path("details").path("targets")) {
            if (target.path("result").asText().equals("TransportTcp")) {
                nvmeOnTcp.add(target.path("endpoint").asText());
            }
        }
        for (String endpoint : nvmeOnTcp) {
            if (!onWire.contains(endpoint + " (NVMe/TCP)")) {
                found.add(node + ": NvmeofRdma has " + endpoint + " on tcp, but the traffic window shows no NVMe/TCP bytes to it: "
                        + verdict(traffic));
            }
        }
        JsonNode lustre = checks.get("LustreLnet");
        boolean lustreOnTcp = lustre != null && lustre.path("details").path("peersOnTcp").size() > 0;
        if (lustreOnTcp && !onWire.contains("(Lustre)")) {
            found.add(node + ": LustreLnet reaches " + lustre.path("details").path("peersOnTcp") + " over TCP, but the traffic "
                    + "window shows no Lustre bytes on TCP: " + verdict(traffic));
        }
        Matcher peer = TCP_PEER.matcher(onWire);
        while (peer.find()) {
            if (peer.group(1) != null) {
                if (!gpfsOnTcp.contains(peer.group(1))) {
                    found.add(node + ": the traffic window shows GPFS bytes on TCP to " + peer.group(1) + ", but GpfsVerbs does "
                            + "not name that peer on TCP: " + verdict(checks.get("GpfsVerbs")));
                }
            } else if (peer.group(4).equals("NVMe/TCP")) {
                String endpoint = peer.group(2) + ":" + peer.group(3);
                if (!tcpControllers(host).contains(endpoint)) {
                    found.add(node + ": the traffic window shows NVMe/TCP bytes to " + endpoint + ", but no tcp controller of "
                            + "the node's /sys/class/nvme connects it (" + tcpControllers(host) + ")");
                }
            } else if (peer.group(4).equals("Lustre") && !lustreOnTcp) {
                found.add(node + ": the traffic window shows Lustre bytes on TCP, but LustreLnet has every server over o2ib: "
                        + verdict(lustre));
            }
        }
        return found;
    }

    /** The rules catch the gap they were written for: gpu-02's GPFS on TCP while its window showed only RDMA. */
    @Test
    void aGpfsFallbackWhoseWindowShowsOnlyRdmaDisagrees() {
        // the demo's gpu-02 before its traffic window was made to agree
        FixtureHost host = FixtureHost.at(hosts.resolve("gpu-02"), FixtureIdentity.forNodeName("gpu-02"));
        TrafficFixtures.overRdma(LustreFixtures.healthy(NodeScenarios.withFailure(host, "gpfs-tcp-fallback")));

        assertThat(disagreements("gpu-02", host, probe(host, "gpu-02"))).singleElement().asString()
                .startsWith("gpu-02: GpfsVerbs has GPFS peer gpu-01-ib on TCP, but the traffic window shows no GPFS bytes to it on TCP");
    }

    /** The GPFS peers GpfsVerbs names on TCP ("talks to gpu-01-ib, gpu-03-ib and 2 more over TCP"). */
    private static List<String> gpfsPeersOnTcp(JsonNode gpfs) {
        Matcher m = GPFS_ON_TCP.matcher(gpfs.path("message").asText());
        if (!gpfs.path("reason").asText().equals("TcpFallback") || !m.find()) {
            return List.of();
        }
        return Stream.of(m.group(1).replaceFirst(" and \\d+ more$", "").split(", ")).toList();
    }

    /** {@code address:port} of each fabrics controller over tcp in the host's sysfs. */
    private static List<String> tcpControllers(FixtureHost host) {
        try (Stream<Path> controllers = Files.list(host.path("/sys/class/nvme"))) {
            List<String> endpoints = new ArrayList<>();
            for (Path c : controllers.toList()) {
                if (Files.readString(c.resolve("transport")).strip().equals("tcp")) {
                    String address = Files.readString(c.resolve("address")).strip();
                    endpoints.add(address.replaceFirst(".*traddr=([^,]+).*", "$1") + ":"
                            + address.replaceFirst(".*trsvcid=([^,]+).*", "$1"));
                }
            }
            return endpoints;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String verdict(JsonNode check) {
        return check == null ? "(no check)" : check.path("type").asText() + " " + check.path("status").asText() + " "
                + check.path("reason").asText() + ": " + check.path("message").asText();
    }

    /** The node's report, check type → check, against the demo profile's checks less latency. */
    private static Map<String, JsonNode> probe(FixtureHost host, String node) {
        ProbeRun run = ProbeRun.run(List.of("--host-root", host.root().toString(), "--exec-mode", "direct", "--node", node,
                "--spec", "-"), probeSpec());
        Map<String, JsonNode> checks = new LinkedHashMap<>();
        run.report().path("checks").forEach(c -> checks.put(c.path("type").asText(), c));
        assertThat(checks).as(node + "'s report: " + run.stdout() + run.stderr()).containsKeys("RdmaDevices", "GpfsVerbs",
                "NvmeofRdma", "LustreLnet", "RdmaTraffic");
        return checks;
    }

    /** demo-profile.yaml's check sections (ProbeSpec's), less latency, as the probe's JSON spec. */
    static String probeSpec() {
        try {
            JsonNode profile = new ObjectMapper(new YAMLFactory()).readTree(LocalDemo.resource("/demo-profile.yaml")).path("spec");
            ObjectNode spec = new ObjectMapper().createObjectNode();
            for (RecordComponent section : ProbeSpec.class.getRecordComponents()) {
                if (!section.getName().equals("latency") && profile.has(section.getName())) {
                    spec.set(section.getName(), profile.get(section.getName()));
                }
            }
            return spec.toString();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
