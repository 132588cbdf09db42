package io.rdmastorage.testing;

import com.fasterxml.jackson.core.type.TypeReference;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBindingBuilder;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBuilder;
import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import io.fabric8.kubernetes.api.model.rbac.RoleBindingBuilder;
import io.fabric8.kubernetes.api.model.rbac.RoleBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;

/**
 * Grants a service account exactly a set of RBAC rules — cluster-wide ones through a ClusterRole,
 * namespaced ones through a Role in its namespace or another — as a Helm chart would, so tests and
 * demos run a component under the permissions it ships with (the operator's: {@link OperatorRbac}).
 */
public final class RbacGrants {

    private RbacGrants() {
    }

    /** A YAML list of PolicyRules, as kept in a chart's files/ folder. */
    public static List<PolicyRule> rulesFrom(Path yaml) {
        try {
            return Serialization.yamlMapper().readValue(yaml.toFile(), new TypeReference<>() { });
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Creates or updates ClusterRole/ClusterRoleBinding {@code roleName} and Role/RoleBinding
     * {@code roleName} in {@code namespace} for the service account {@code namespace/serviceAccount}.
     */
    public static void grant(KubernetesClient admin, String namespace, String serviceAccount, String roleName,
                             List<PolicyRule> clusterRules, List<PolicyRule> namespaceRules) {
        admin.rbac().clusterRoles().resource(new ClusterRoleBuilder().withNewMetadata().withName(roleName).endMetadata()
                .withRules(clusterRules).build()).serverSideApply();
        admin.rbac().clusterRoleBindings().resource(new ClusterRoleBindingBuilder().withNewMetadata().withName(roleName)
                .endMetadata().withNewRoleRef("rbac.authorization.k8s.io", "ClusterRole", roleName)
                .addNewSubject().withKind("ServiceAccount").withName(serviceAccount).withNamespace(namespace).endSubject()
                .build()).serverSideApply();
        grantIn(admin, namespace, namespace, serviceAccount, roleName, namespaceRules);
    }

    /**
     * Creates or updates Role/RoleBinding {@code roleName} in {@code namespace} for the service
     * account {@code serviceAccountNamespace/serviceAccount}, which may live in another namespace.
     */
    public static void grantIn(KubernetesClient admin, String namespace, String serviceAccountNamespace,
                               String serviceAccount, String roleName, List<PolicyRule> rules) {
        admin.rbac().roles().inNamespace(namespace).resource(new RoleBuilder().withNewMetadata().withName(roleName)
                .endMetadata().withRules(rules).build()).serverSideApply();
        admin.rbac().roleBindings().inNamespace(namespace).resource(new RoleBindingBuilder().withNewMetadata()
                .withName(roleName).endMetadata().withNewRoleRef("rbac.authorization.k8s.io", "Role", roleName)
                .addNewSubject().withKind("ServiceAccount").withName(serviceAccount).withNamespace(serviceAccountNamespace)
                .endSubject().build()).serverSideApply();
    }
}
