package io.rdmastorage.operator.it;

import static io.rdmastorage.operator.it.OperatorEnvironment.await;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import io.rdmastorage.operator.api.RdmaStorageAcceptance;
import io.rdmastorage.operator.api.RdmaStorageProfile;
import io.rdmastorage.testing.AuditLog;
import io.rdmastorage.testing.LocalControlPlane;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The operator's RBAC is exactly what it needs. It runs under the rules the Helm chart ships while
 * a control plane of its own records every request of the operator's service account in its audit
 * log, through a whole life: leader election, probes on healthy, failing and NotReady nodes, node
 * markings, a spec change, an acceptance run to its end and deleted, a node leaving, the profile
 * deleted. Then:
 * <ul>
 * <li>no request was refused (403): every permission it needs is granted;</li>
 * <li>every (group, resource, verb) granted was used: removing any rule refuses a request the
 * operator makes in normal operation, which then fails visibly (a reconcile error, a missing
 * verdict or marking).</li>
 * </ul>
 */
class LeastPrivilegeTest {

    private static final String NAME = "rbac";
    private static final String USER = "system:serviceaccount:rso-" + NAME + ":" + OperatorEnvironment.SERVICE_ACCOUNT;

    private static final Set<String> REQUIRED_BY_STARTUP_CHECKS = Set.of("coordination.k8s.io leases update");

    @TempDir
    Path dir;

    @Test
    void everyGrantedPermissionIsUsedAndNoRequestIsRefused() throws IOException {
        Path policy = Files.writeString(dir.resolve("audit-policy.yaml"), AuditLog.policyFor(USER));
        Path auditLog = dir.resolve("audit.log");
        List<PolicyRule> clusterRules = OperatorEnvironment.shippedRules("cluster-rules.yaml");
        List<PolicyRule> namespaceRules = OperatorEnvironment.shippedRules("namespace-rules.yaml");
        try (LocalControlPlane plane = LocalControlPlane.start("--audit-policy-file=" + policy,
                "--audit-log-path=" + auditLog);
             OperatorEnvironment env = OperatorEnvironment.start(plane, NAME, clusterRules, namespaceRules)) {
            env.addNode("ok", null);
            env.addNode("bad", "gpfs-tcp-fallback");
            env.addNode("later-not-ready", null);
            env.startOperator(true);
            env.applyProfile(NAME, """
                    interval: 1m
                    probeTimeout: 30s
                    nodeLabels: true
                    taintNotReady: true
                    nodeCondition: true
                    """, OperatorEndToEndTest.CHECKS);
            await("verdicts", Duration.ofSeconds(90), () -> {
                RdmaStorageProfile p = env.profile(NAME);
                return p.getStatus() != null && p.getStatus().getNodes() != null
                        && p.getStatus().getNodes().getUnknown() == 0 && p.getStatus().getNodes().getMatched() == 3;
            });
            env.cluster.setReady("later-not-ready", false);
            env.admin.resources(RdmaStorageProfile.class).withName(NAME)
                    .edit(p -> { p.getSpec().setMaxConcurrentProbes(5); return p; });
            await("re-probed after the spec change", Duration.ofSeconds(90), () -> {
                RdmaStorageProfile p = env.profile(NAME);
                return p.getStatus().getObservedGeneration().equals(p.getMetadata().getGeneration())
                        && env.verdict(NAME, "ok").getStatus().getObservedGeneration().equals(p.getMetadata().getGeneration());
            });
            // an acceptance run to its end and deleted: its finalizer, status, pod and ConfigMaps
            env.plane.kubectl().applyYaml("""
                    apiVersion: rdmastorage.io/v1alpha1
                    kind: RdmaStorageAcceptance
                    metadata: {name: rbac-accept}
                    spec:
                      nodeName: bad
                      nvmeof: {nqn: "nqn.2014-08.org.example:target1", address: 192.0.2.1}
                      latency: {durationSeconds: 5}
                      iops: {durationSeconds: 5}
                      bandwidth: {durationSeconds: 5}
                    """).orThrow("kubectl apply acceptance");
            await("acceptance run ended", Duration.ofSeconds(90), () -> {
                RdmaStorageAcceptance run = env.admin.resources(RdmaStorageAcceptance.class).withName("rbac-accept").get();
                return run.getStatus() != null && "Failed".equals(run.getStatus().getPhase());
            });
            env.admin.resources(RdmaStorageAcceptance.class).withName("rbac-accept").delete();
            await("acceptance run deleted", Duration.ofSeconds(60),
                    () -> env.admin.resources(RdmaStorageAcceptance.class).withName("rbac-accept").get() == null);
            env.cluster.removeNode("ok");
            await("node forgotten", Duration.ofSeconds(60), () -> env.verdict(NAME, "ok") == null);
            env.deleteProfile(NAME);
        }

        List<AuditLog.Request> requests = new AuditLog(auditLog, USER).requests(Instant.MIN, Instant.MAX);
        assertThat(requests).as("the operator's requests were audited").isNotEmpty();

        Set<String> refused = new TreeSet<>();
        Set<String> used = new TreeSet<>();
        for (AuditLog.Request r : requests) {
            String permission = permission(r.apiGroup(), r.resource(), r.verb());
            if (r.code() == 403) {
                refused.add(permission);
            }
            used.add(permission);
            if (r.verb().equals("patch") && r.code() == 201) {
                // a server-side apply that created the object: the API server authorised it as create too
                used.add(permission(r.apiGroup(), r.resource(), "create"));
            }
        }
        assertThat(refused).as("requests refused by RBAC").isEmpty();

        Set<String> granted = new TreeSet<>();
        for (PolicyRule rule : concat(clusterRules, namespaceRules)) {
            for (String group : rule.getApiGroups()) {
                for (String resource : rule.getResources()) {
                    for (String verb : rule.getVerbs()) {
                        granted.add(permission(group, resource, verb));
                    }
                }
            }
        }
        // JOSDK refuses to start leader election unless it may update leases (it checks with a
        // SelfSubjectRulesReview), although fabric8's lease lock only patches them
        granted.removeAll(REQUIRED_BY_STARTUP_CHECKS);
        assertThat(used).as("every granted permission is used (else drop it from the shipped rules)")
                .containsAll(granted);
    }

    private static String permission(String group, String resource, String verb) {
        return (group.isEmpty() ? "core" : group) + " " + resource + " " + verb;
    }

    private static List<PolicyRule> concat(List<PolicyRule> a, List<PolicyRule> b) {
        List<PolicyRule> all = new ArrayList<>(a);
        all.addAll(b);
        return all;
    }
}
