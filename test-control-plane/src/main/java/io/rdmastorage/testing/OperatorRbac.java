package io.rdmastorage.testing;

import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.file.Path;
import java.util.List;

/**
 * The operator's RBAC as its Helm chart ships it: the rules files in the chart's {@code files/}
 * folder, bound where the chart's templates bind them. Cluster-wide rules through a ClusterRole,
 * the rules of its own namespace (probe pods, their ConfigMaps, the leader Lease) through a Role
 * there, and the Events rule through a Role in {@link #EVENTS_NAMESPACE} only. Tests, the demo and
 * the scale benchmark grant exactly this, so they run the operator under what it ships with.
 *
 * @param cluster   {@code cluster-rules.yaml}
 * @param namespace {@code namespace-rules.yaml}, in the operator's namespace
 * @param events    {@code events-rules.yaml}, in {@link #EVENTS_NAMESPACE}
 */
public record OperatorRbac(List<PolicyRule> cluster, List<PolicyRule> namespace, List<PolicyRule> events) {

    /** Where the chart's {@code templates/events-role.yaml} binds the Events rule: the operator's Events are about cluster-scoped objects. */
    public static final String EVENTS_NAMESPACE = "default";
    /** The chart's rules folder, relative to the repository root. */
    public static final Path FILES = Path.of("helm/rdma-storage-operator/files");

    /** The rules the chart in repository {@code root} ships. */
    public static OperatorRbac shipped(Path root) {
        Path files = root.resolve(FILES);
        return new OperatorRbac(RbacGrants.rulesFrom(files.resolve("cluster-rules.yaml")),
                RbacGrants.rulesFrom(files.resolve("namespace-rules.yaml")),
                RbacGrants.rulesFrom(files.resolve("events-rules.yaml")));
    }

    /** The same, with other rules in the operator's own namespace. */
    public OperatorRbac withNamespaceRules(List<PolicyRule> rules) {
        return new OperatorRbac(cluster, rules, events);
    }

    /**
     * Grants these rules to service account {@code namespace/serviceAccount} as the chart does:
     * ClusterRole and Role {@code roleName}, and Role {@code roleName-events} in {@link #EVENTS_NAMESPACE}.
     */
    public void grant(KubernetesClient admin, String namespace, String serviceAccount, String roleName) {
        RbacGrants.grant(admin, namespace, serviceAccount, roleName, cluster, this.namespace);
        RbacGrants.grantIn(admin, EVENTS_NAMESPACE, namespace, serviceAccount, roleName + "-events", events);
    }
}
