package io.rdmastorage.operator.it;

import static io.rdmastorage.operator.it.OperatorEnvironment.await;
import static org.assertj.core.api.Assertions.assertThat;

import io.rdmastorage.operator.api.RdmaStorageProfile;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A profile that selects nodes by another profile's verdict label (issue 27): the operator's own
 * label write is the only event there is for the second profile, which used to stay stale until an
 * unrelated event (at the latest its next wake-up, 10 minutes on). Now the label change that moves
 * a node into its selection reconciles it at once.
 */
class ProfileLabelChainTest {

    private static final String BASE = "chain-base";
    private static final String CHAINED = "chain-on-base";
    private static final Duration WAIT = Duration.ofSeconds(60);
    /** Far below the chained profile's own next wake-up (ProfilePlanner.MAX_WAIT, 10 minutes). */
    private static final Duration FOLLOWS_WITHIN = Duration.ofSeconds(30);

    private OperatorEnvironment env;

    @BeforeEach
    void start() {
        env = OperatorEnvironment.start("chain");
    }

    @AfterEach
    void stop() {
        env.close();
    }

    @Test
    void aProfileSelectingByAnotherProfilesVerdictFollowsTheLabelAtOnce() {
        env.addNode("n1", null);
        env.startOperator();
        env.plane.kubectl().applyYaml(GpuPool.profileYaml(CHAINED, env.cluster.id(),
                        "matchExpressions: [{key: rdmastorage.io/" + BASE + ", operator: In, values: [ready]}]",
                        "interval: 1h", OperatorEndToEndTest.CHECKS))
                .orThrow("kubectl apply profile " + CHAINED);
        await("the chained profile reconciled, selecting no node yet", WAIT, () -> matched(CHAINED) == 0);

        env.applyProfile(BASE, "interval: 1h\nprobeTimeout: 30s\nnodeLabels: true", OperatorEndToEndTest.CHECKS);
        await("the base profile labelled n1 ready", WAIT, () -> "ready".equals(env.nodeLabels("n1").get("rdmastorage.io/" + BASE)));

        await("the chained profile selects n1", FOLLOWS_WITHIN, () -> matched(CHAINED) == 1);
        await("the chained profile's verdict on n1", FOLLOWS_WITHIN, () -> env.verdict(CHAINED, "n1") != null
                && env.verdict(CHAINED, "n1").getStatus() != null);
        assertThat(env.verdict(CHAINED, "n1").getSpec().getNodeName()).isEqualTo("n1");
    }

    private int matched(String profile) {
        RdmaStorageProfile p = env.profile(profile);
        if (p == null || p.getStatus() == null || p.getStatus().getNodes() == null) {
            return -1;
        }
        return p.getStatus().getNodes().getMatched();
    }
}
