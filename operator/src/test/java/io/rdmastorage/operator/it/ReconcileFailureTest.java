package io.rdmastorage.operator.it;

import static io.rdmastorage.operator.it.OperatorEnvironment.await;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import io.fabric8.kubernetes.api.model.rbac.PolicyRuleBuilder;
import io.rdmastorage.operator.api.RdmaStorageNode;
import io.rdmastorage.operator.probe.ProbeSpecConfigMap;
import io.rdmastorage.operator.status.Timestamps;
import io.rdmastorage.operator.verdict.VerdictDigest;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A reconcile that keeps failing (issue 14, defect 1) must neither hide nor freeze anything: the
 * profile's Ready says so with the error, and a verdict that was True turns Unknown ResultExpired
 * once its evidence is older than the expiry, its node label following, although the failing
 * reconcile never gets as far as planning.
 */
class ReconcileFailureTest {

    private static final String PROFILE = "failing";
    private static final Duration WAIT = Duration.ofSeconds(90);

    private OperatorEnvironment env;

    @BeforeEach
    void start() {
        env = OperatorEnvironment.start("failing");
    }

    @AfterEach
    void stop() {
        env.stopOperator();
        env.close();
    }

    @Test
    void aReconcileThatKeepsFailingSaysSoAndStillExpiresVerdicts() {
        env.addNode("stale", null);
        env.startOperator();
        env.applyProfile(PROFILE, "interval: 1m\nprobeTimeout: 30s\nnodeLabels: true", OperatorEndToEndTest.CHECKS);
        await("verdict True", WAIT, () -> "True".equals(env.conditions(PROFILE, "stale").get("Ready").split("/")[0]));
        await("node labelled ready", WAIT, () -> "ready".equals(env.nodeLabels("stale").get("rdmastorage.io/" + PROFILE)));
        env.stopOperator();

        // every reconcile now fails at its first write: the probe spec ConfigMap may no longer be written
        List<PolicyRule> namespaceRules = new ArrayList<>();
        for (PolicyRule rule : OperatorEnvironment.SHIPPED_RBAC.namespace()) {
            namespaceRules.add(rule.getResources().contains("configmaps")
                    ? new PolicyRuleBuilder(rule).withVerbs("list", "watch").build() : rule);
        }
        env.grant(OperatorEnvironment.SHIPPED_RBAC.withNamespaceRules(namespaceRules));
        env.admin.configMaps().inNamespace(env.namespace).withName(ProbeSpecConfigMap.name(PROFILE)).delete();
        // and the verdict's evidence is older than 3 × interval, as if the failure had lasted that long
        RdmaStorageNode verdict = env.verdict(PROFILE, "stale");
        verdict.getStatus().setLastProbeTime(Timestamps.format(Instant.now().minus(Duration.ofMinutes(10))));
        // stamped as the operator would have written it: an edit it did not make is not trusted
        VerdictDigest.stamp(verdict.getMetadata().getName(), verdict.getStatus());
        env.admin.resources(RdmaStorageNode.class).resource(verdict).updateStatus();
        env.startOperator();

        await("profile says the reconcile fails and why", WAIT, () -> "ReconcileFailing".equals(profileReady().getReason())
                && profileReady().getMessage().contains("configmaps"));
        Condition ready = profileReady();
        assertThat(ready.getStatus()).isEqualTo("Unknown");
        assertThat(ready.getMessage()).contains("the API server answered 403 Forbidden").contains("cannot patch resource");
        await("verdict expired", WAIT, () -> env.conditions(PROFILE, "stale").get("Ready").startsWith("Unknown/"));
        Map<String, String> conditions = env.conditions(PROFILE, "stale");
        conditions.forEach((type, value) -> assertThat(value).as(type).startsWith("Unknown/"));
        assertThat(conditions.entrySet().stream().filter(e -> !"Ready".equals(e.getKey())))
                .allSatisfy(e -> assertThat(e.getValue()).as(e.getKey()).isEqualTo("Unknown/ResultExpired"));
        await("node labelled unknown", WAIT, () -> "unknown".equals(env.nodeLabels("stale").get("rdmastorage.io/" + PROFILE)));
    }

    private Condition profileReady() {
        return env.profileCondition(PROFILE, "Ready");
    }
}
