package io.rdmastorage.operator.it;

import static io.rdmastorage.operator.it.OperatorEnvironment.await;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.api.model.authorization.v1.SelfSubjectAccessReview;
import io.fabric8.kubernetes.api.model.authorization.v1.SelfSubjectAccessReviewBuilder;
import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.rdmastorage.operator.api.RdmaStorageAcceptance;
import io.rdmastorage.operator.api.RdmaStorageProfile;
import io.rdmastorage.operator.events.VerdictEvents;
import io.rdmastorage.probe.testing.Gb200Fixtures;
import io.rdmastorage.testing.AuditLog;
import io.rdmastorage.testing.ControlPlaneBinaries;
import io.rdmastorage.testing.LocalControlPlane;
import io.rdmastorage.testing.OperatorRbac;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The operator's RBAC is exactly what it needs. It runs under the rules the Helm chart ships while
 * a control plane of its own records every request of the operator's service account in its audit
 * log, through a whole life: leader election, probes on healthy, failing and NotReady nodes, node
 * markings, a spec change, an acceptance run to its end and deleted, a node leaving, a storage NIC
 * fenced as a DRA device, the profiles deleted. Then:
 * <ul>
 * <li>no request was refused (403): every permission it needs is granted;</li>
 * <li>every (group, resource, verb) granted was used where it is granted (cluster-wide, in the
 * operator's namespace, in {@code default} for Events): removing any rule refuses a request the
 * operator makes in normal operation, which then fails visibly (a reconcile error, a missing
 * verdict, marking or Event);</li>
 * <li>what is granted cluster-wide is used on cluster-scoped objects or across namespaces: a
 * permission used in one namespace only belongs in a Role there;</li>
 * <li>the operator may create Events in {@code default}, where it writes them all, and nowhere
 * else: the API server's own answer (SelfSubjectAccessReview, and a create refused with 403).</li>
 * </ul>
 */
class LeastPrivilegeTest {

    private static final String NAME = "rbac";
    private static final String USER = "system:serviceaccount:rso-" + NAME + ":" + OperatorEnvironment.SERVICE_ACCOUNT;

    /** The scope of a ClusterRole's permissions (a namespace name is never empty, nor has a space). */
    private static final String CLUSTER = "cluster wide";

    private static final Set<String> REQUIRED_BY_STARTUP_CHECKS = Set.of("coordination.k8s.io leases update");

    @TempDir
    Path dir;

    @Test
    void everyGrantedPermissionIsUsedAndNoRequestIsRefused() throws IOException {
        Path policy = Files.writeString(dir.resolve("audit-policy.yaml"), AuditLog.policyFor(USER));
        Path auditLog = dir.resolve("audit.log");
        OperatorRbac rbac = OperatorEnvironment.SHIPPED_RBAC;
        String namespace;
        Instant lifeEnded;
        // with DRA device taints served, so that a profile's deviceTaints use what they are granted
        try (LocalControlPlane plane = LocalControlPlane.startWithDeviceTaints(ControlPlaneBinaries.ensure(),
                "--audit-policy-file=" + policy, "--audit-log-path=" + auditLog);
             OperatorEnvironment env = OperatorEnvironment.start(plane, NAME, rbac)) {
            namespace = env.namespace;
            live(env);
            lifeEnded = Instant.now();

            // Events: in "default", and nowhere else, as the API server itself decides
            assertThat(canCreateEvents(env.operatorClient, OperatorRbac.EVENTS_NAMESPACE)).as("Events in default").isTrue();
            assertThat(canCreateEvents(env.operatorClient, namespace)).as("Events in its own namespace").isFalse();
            assertThat(canCreateEvents(env.operatorClient, "kube-system")).as("Events in kube-system").isFalse();
            assertThat(canCreateEvents(env.operatorClient, "")).as("Events in every namespace").isFalse();
            assertThatThrownBy(() -> env.operatorClient.v1().events().inNamespace(namespace).resource(new EventBuilder()
                    .withNewMetadata().withName("not-allowed").endMetadata()
                    .withNewInvolvedObject().withKind("Pod").withName("x").withNamespace(namespace).endInvolvedObject()
                    .withReason("Test").withMessage("an Event outside default").build()).create())
                    .isInstanceOfSatisfying(KubernetesClientException.class, e -> assertThat(e.getCode()).isEqualTo(403));
        }

        List<AuditLog.Request> requests = new AuditLog(auditLog, USER).requests(Instant.MIN, lifeEnded);
        assertThat(requests).as("the operator's requests were audited").isNotEmpty();
        assertThat(requests).filteredOn(r -> r.resource().equals("events"))
                .as("the operator's Events, all in default, all written")
                .isNotEmpty().allSatisfy(r -> {
                    assertThat(r.namespace()).isEqualTo(VerdictEvents.NAMESPACE);
                    assertThat(r.code()).isEqualTo(201);
                });

        Set<String> refused = new TreeSet<>();
        Set<String> used = new TreeSet<>();
        Set<String> usedClusterScoped = new TreeSet<>();
        for (AuditLog.Request r : requests) {
            List<String> verbs = r.verb().equals("patch") && r.code() == 201
                    // a server-side apply that created the object: the API server authorised it as create too
                    ? List.of(r.verb(), "create") : List.of(r.verb());
            for (String verb : verbs) {
                String permission = permission(r.apiGroup(), r.resource(), verb);
                if (r.code() == 403) {
                    refused.add(r.namespace() + " " + permission);
                }
                // a cluster-wide grant covers a request in any namespace; a Role only one in its own
                used.add(scoped(CLUSTER, permission));
                used.add(scoped(r.namespace(), permission));
                if (r.namespace().isEmpty()) {
                    usedClusterScoped.add(permission);
                }
            }
        }
        assertThat(refused).as("requests refused by RBAC").isEmpty();

        Set<String> granted = new TreeSet<>();
        Set<String> grantedClusterWide = new TreeSet<>(permissions(rbac.cluster()));
        grantedClusterWide.forEach(p -> granted.add(scoped(CLUSTER, p)));
        permissions(rbac.namespace()).forEach(p -> granted.add(scoped(namespace, p)));
        permissions(rbac.events()).forEach(p -> granted.add(scoped(OperatorRbac.EVENTS_NAMESPACE, p)));
        // JOSDK refuses to start leader election unless it may update leases (it checks with a
        // SelfSubjectRulesReview), although fabric8's lease lock only patches them
        REQUIRED_BY_STARTUP_CHECKS.forEach(p -> granted.remove(scoped(namespace, p)));
        assertThat(used).as("every granted permission is used where it is granted (else drop it from the shipped rules)")
                .containsAll(granted);
        assertThat(usedClusterScoped).as("cluster-wide grants are used cluster-wide (else grant them in a Role)")
                .containsAll(grantedClusterWide);
    }

    /**
     * A whole life of the operator: leader election, probes on healthy, failing and NotReady nodes
     * (Warning and Normal Events), node markings, a spec change, an acceptance run to its end and
     * deleted, a node leaving, a storage NIC fenced as a DRA device, the profiles deleted.
     */
    private static void live(OperatorEnvironment env) {
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
        env.editProfile(NAME, p -> p.getSpec().setMaxConcurrentProbes(5));
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
        // a GB200 tray whose storage NIC is down, fenced as a device; the rule goes with its profile
        env.addFixtureNode("tray", h -> Gb200Fixtures.portDown(Gb200Fixtures.tray(h), "mlx5_6"));
        env.plane.kubectl().applyYaml("""
                apiVersion: resource.k8s.io/v1
                kind: ResourceSlice
                metadata: {name: tray-dra.net}
                spec:
                  driver: dra.net
                  nodeName: tray
                  pool: {name: tray, generation: 1, resourceSliceCount: 1}
                  devices:
                  - name: pci-0016-03-00-0
                    attributes: {dra.net/pciAddress: {string: "0016:03:00.0"}, dra.net/rdma: {bool: true}}
                """).orThrow("kubectl apply slice");
        env.plane.kubectl().applyYaml(GpuPool.profileYaml(NAME + "-nics", env.cluster.id(),
                "matchExpressions: [{key: kubernetes.io/hostname, operator: In, values: [tray]}]",
                "interval: 1m\nprobeTimeout: 30s\ndeviceTaints: {}", "rdma: {storageNics: {devices: [mlx5_2, mlx5_6]}}"))
                .orThrow("kubectl apply profile");
        await("the tray's NIC fenced", Duration.ofSeconds(90), () -> !env.admin.genericKubernetesResources(
                "resource.k8s.io/v1alpha3", "DeviceTaintRule").list().getItems().isEmpty());
        env.deleteProfile(NAME + "-nics");
        env.deleteProfile(NAME);
    }

    /** {@code kubectl auth can-i create events -n NAMESPACE} as the operator ("": in every namespace). */
    private static boolean canCreateEvents(KubernetesClient operator, String namespace) {
        SelfSubjectAccessReview review = new SelfSubjectAccessReviewBuilder().withNewSpec().withNewResourceAttributes()
                .withVerb("create").withGroup("").withResource("events").withNamespace(namespace)
                .endResourceAttributes().endSpec().build();
        return operator.authorization().v1().selfSubjectAccessReview().create(review).getStatus().getAllowed();
    }

    private static Set<String> permissions(List<PolicyRule> rules) {
        Set<String> permissions = new TreeSet<>();
        for (PolicyRule rule : rules) {
            for (String group : rule.getApiGroups()) {
                for (String resource : rule.getResources()) {
                    for (String verb : rule.getVerbs()) {
                        permissions.add(permission(group, resource, verb));
                    }
                }
            }
        }
        return permissions;
    }

    private static String permission(String group, String resource, String verb) {
        return (group.isEmpty() ? "core" : group) + " " + resource + " " + verb;
    }

    /** A permission where it holds: {@link #CLUSTER}-wide, or in one namespace. */
    private static String scoped(String where, String permission) {
        return where + ": " + permission;
    }
}
