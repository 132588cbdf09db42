package io.rdmastorage.operator.it;

import static io.rdmastorage.operator.it.OperatorEnvironment.await;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Taint;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.rdmastorage.operator.api.RdmaStorageNode;
import io.rdmastorage.operator.api.StorageNodeName;
import io.rdmastorage.probe.testing.RdmaFixtures;
import io.rdmastorage.testing.CommandResult;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A hand-edited RdmaStorageNode status is not trusted (issue "Reliability: no spec, edit or race
 * may freeze a verdict at True", defect 3): {@code kubectl patch --subresource=status} turning a
 * failing node's conditions True must not label it ready, lift its taint or set its Node condition
 * True, not even for an instant: the node keeps the markings of the operator's own verdict while the
 * operator discards the edit and probes the node again.
 */
class EditedVerdictTest {

    private static final String PROFILE = "edited";
    private static final String NODE = "tcp-fallback";
    private static final Duration WAIT = Duration.ofSeconds(90);
    private static final String OLD_FIRMWARE = "28.35.2000";

    private OperatorEnvironment env;

    @BeforeEach
    void start() {
        env = OperatorEnvironment.start("edited");
    }

    @AfterEach
    void stop() {
        env.close();
    }

    @Test
    void conditionsPatchedTrueByHandNeverMarkTheNodeReadyAndTheNodeIsProbedAgain() {
        env.addNode(NODE, "gpfs-tcp-fallback");
        env.startOperator();
        // an interval far away: only the operator's reaction to the edit can probe the node again
        env.applyProfile(PROFILE, "interval: 2h\nnodeLabels: true\ntaintNotReady: true\nnodeCondition: true",
                OperatorEndToEndTest.CHECKS);
        await("verdict False", WAIT, () -> env.conditions(PROFILE, NODE).get("Ready").startsWith("False/"));
        await("node labelled not-ready", WAIT, () -> "not-ready".equals(env.nodeLabels(NODE).get(key())));
        // the Node condition is a write of its own (the status subresource), after the label's
        await("Node condition False", WAIT, () -> nodeConditionFalse(env.admin.nodes().withName(NODE).get()));
        long round = env.verdict(PROFILE, NODE).getStatus().getProbeRound();

        List<Node> seen = new CopyOnWriteArrayList<>();
        try (Watch watch = env.admin.nodes().withName(NODE).watch(recorder(seen))) {
            CommandResult patch = env.plane.kubectl().run("patch", "rdmastoragenode", StorageNodeName.of(PROFILE, NODE),
                    "--subresource=status", "--type=json", "-p", allTrue(env.verdict(PROFILE, NODE)));
            assertThat(patch.exitCode()).as(patch.toString()).isZero();

            await("the node probed again", WAIT, () -> {
                RdmaStorageNode v = env.verdict(PROFILE, NODE);
                return v.getStatus().getProbeRound() != null && v.getStatus().getProbeRound() > round
                        && v.getStatus().getConditions().get(0).getStatus().equals("False");
            });
            await("node labelled not-ready again", WAIT, () -> "not-ready".equals(env.nodeLabels(NODE).get(key())));
        }

        assertThat(env.conditions(PROFILE, NODE).get("GpfsVerbs")).isEqualTo("False/TcpFallback");
        assertThat(seen).as("node states while the edit stood").isNotEmpty().allSatisfy(n -> {
            assertThat(n.getMetadata().getLabels().get(key())).as("label").isEqualTo("not-ready");
            assertThat(n.getSpec().getTaints() == null ? List.<Taint>of() : n.getSpec().getTaints())
                    .as("taint never lifted").anyMatch(t -> key().equals(t.getKey()));
            assertThat(nodeConditionFalse(n)).as("Node condition False: %s", n.getStatus().getConditions()).isTrue();
        });
    }

    /**
     * An inventory fact patched by hand is an edit like a condition: it must not move the fleet's
     * majority. Of three nodes, {@code odd} alone has an older HCA firmware and, with
     * {@code fleet.required}, is not ready; patching one healthy node's {@code status.inventory} to
     * that firmware would make it the majority, {@code odd} match the fleet and be labelled ready, and
     * the healthy {@code n-2} the odd one out. The operator discards the edited status instead and
     * probes that node again: {@code odd} never matches the fleet, {@code n-2} never stops matching.
     */
    @Test
    void inventoryPatchedByHandDoesNotMoveTheFleetsMajority() {
        String profile = "edited-fleet";
        String odd = "odd";
        env.addNode("n-1", null);
        env.addNode("n-2", null);
        RdmaFixtures.firmware(env.addNode(odd, null), OLD_FIRMWARE);
        env.startOperator();
        env.applyProfile(profile, "interval: 2h\nnodeLabels: true\nfleet:\n  required: true",
                "rdma:\n  devices: [\"mlx5_0/1\", \"mlx5_1/1\"]");
        await("the odd node found", WAIT, () -> "False".equals(matchesFleet(profile, odd))
                && "True".equals(matchesFleet(profile, "n-2")) && "True".equals(matchesFleet(profile, "n-1")));
        await("the odd node labelled not-ready", WAIT,
                () -> "not-ready".equals(env.nodeLabels(odd).get("rdmastorage.io/" + profile)));
        long round = env.verdict(profile, "n-1").getStatus().getProbeRound();

        List<RdmaStorageNode> seen = new CopyOnWriteArrayList<>();
        List<Node> oddSeen = new CopyOnWriteArrayList<>();
        try (Watch verdicts = env.admin.resources(RdmaStorageNode.class)
                .withLabel(RdmaStorageNode.PROFILE_LABEL, profile).watch(recorder(seen));
             Watch oddNode = env.admin.nodes().withName(odd).watch(recorder(oddSeen))) {
            CommandResult patch = env.plane.kubectl().run("patch", "rdmastoragenode", StorageNodeName.of(profile, "n-1"),
                    "--subresource=status", "--type=json", "-p",
                    "[{\"op\":\"replace\",\"path\":\"/status/inventory/hcaFirmware\",\"value\":\"" + OLD_FIRMWARE + "\"}]");
            assertThat(patch.exitCode()).as(patch.toString()).isZero();

            await("n-1 probed again, its own firmware back", WAIT, () -> {
                RdmaStorageNode v = env.verdict(profile, "n-1");
                return v.getStatus().getProbeRound() != null && v.getStatus().getProbeRound() > round
                        && RdmaFixtures.FIRMWARE.equals(v.getStatus().getInventory().get("hcaFirmware"))
                        && "True".equals(matchesFleet(profile, "n-1"));
            });
            await("the odd node the odd one again, labelled so", WAIT, () -> "False".equals(matchesFleet(profile, odd))
                    && "not-ready".equals(env.nodeLabels(odd).get("rdmastorage.io/" + profile)));
        }
        assertThat(seen).as("verdicts while the edit stood").isNotEmpty().allSatisfy(v -> {
            String node = v.getSpec().getNodeName();
            String matches = matchesFleet(v);
            if (node.equals(odd)) {
                assertThat(matches).as("the odd node never matches the fleet").isNotEqualTo("True");
            } else if (node.equals("n-2")) {
                assertThat(matches).as("n-2 never the odd one").isNotEqualTo("False");
            }
        });
        // while n-1 is probed again, the two others tie (Unknown, labelled so), but the odd node is never ready
        assertThat(oddSeen).as("the odd node's states while the edit stood").allSatisfy(n -> assertThat(
                n.getMetadata().getLabels().get("rdmastorage.io/" + profile)).isNotEqualTo("ready"));
        await("n-2 labelled ready", WAIT, () -> "ready".equals(env.nodeLabels("n-2").get("rdmastorage.io/" + profile)));
    }

    private static boolean nodeConditionFalse(Node n) {
        return n.getStatus().getConditions().stream().anyMatch(c -> key().equals(c.getType()) && "False".equals(c.getStatus()));
    }

    private String matchesFleet(String profile, String node) {
        RdmaStorageNode v = env.verdict(profile, node);
        return v == null ? null : matchesFleet(v);
    }

    private static String matchesFleet(RdmaStorageNode v) {
        return v.getStatus() == null ? null : v.getStatus().getConditions().stream()
                .filter(c -> c.getType().equals("MatchesFleet")).map(c -> c.getStatus()).findFirst().orElse(null);
    }

    private static String key() {
        return "rdmastorage.io/" + PROFILE;
    }

    /** A JSON patch setting every condition of the stored status True (its digest left as it was). */
    private static String allTrue(RdmaStorageNode verdict) {
        StringBuilder ops = new StringBuilder("[");
        for (int i = 0; i < verdict.getStatus().getConditions().size(); i++) {
            ops.append(i == 0 ? "" : ",").append("{\"op\":\"replace\",\"path\":\"/status/conditions/").append(i)
                    .append("/status\",\"value\":\"True\"}");
        }
        return ops.append("]").toString();
    }

    private static <T> Watcher<T> recorder(List<T> seen) {
        return new Watcher<>() {
            @Override
            public void eventReceived(Action action, T object) {
                seen.add(object);
            }

            @Override
            public void onClose(WatcherException cause) {
            }
        };
    }
}
