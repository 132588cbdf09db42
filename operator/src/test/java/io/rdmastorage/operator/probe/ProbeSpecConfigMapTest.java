package io.rdmastorage.operator.probe;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.rdmastorage.operator.api.RdmaStorageProfile;
import io.rdmastorage.operator.config.OperatorConfig;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ProbeSpecConfigMapTest {

    private static final OperatorConfig CONFIG = OperatorConfig.fromEnvironment(Map.of());

    @Test
    void onePerProfileInTheOperatorNamespaceWithTheSpecAsData() throws Exception {
        RdmaStorageProfile profile = TestProfiles.designExample();
        ProbeSpecDocument doc = ProbeSpecDocument.of(profile.getSpec());

        ConfigMap cm = ProbeSpecConfigMap.build(profile, doc, CONFIG);

        assertThat(cm.getMetadata().getName()).isEqualTo("rsp-gpfs-gds-training-spec");
        assertThat(cm.getMetadata().getNamespace()).isEqualTo("rdma-storage-system");
        assertThat(cm.getMetadata().getLabels()).containsExactlyInAnyOrderEntriesOf(Map.of(
                "app.kubernetes.io/managed-by", "rdma-storage-operator",
                "rdmastorage.io/profile", "gpfs-gds-training"));
        assertThat(cm.getMetadata().getAnnotations()).containsEntry("rdmastorage.io/spec-sha256", doc.sha256());
        assertThat(cm.getData()).containsExactly(Map.entry("spec.json", doc.json()));
        OwnerReference owner = cm.getMetadata().getOwnerReferences().get(0);
        assertThat(owner.getApiVersion()).isEqualTo("rdmastorage.io/v1alpha1");
        assertThat(owner.getKind()).isEqualTo("RdmaStorageProfile");
        assertThat(owner.getName()).isEqualTo("gpfs-gds-training");
        assertThat(owner.getUid()).isEqualTo(profile.getMetadata().getUid());
        assertThat(owner.getController()).isTrue();
        assertThat(owner.getBlockOwnerDeletion()).isNull();
    }

    @Test
    void theNameFitsForTheLongestProfileName() {
        String longest = "p".repeat(63);
        assertThat(ProbeSpecConfigMap.name(longest)).hasSize(72).matches("[a-z0-9]([-a-z0-9.]*[a-z0-9])?");
    }

    @Test
    void aProfileNotYetStoredCannotOwnAnything() throws Exception {
        RdmaStorageProfile profile = TestProfiles.designExample();
        profile.getMetadata().setUid(null);
        ProbeSpecDocument doc = ProbeSpecDocument.of(profile.getSpec());
        assertThatThrownBy(() -> ProbeSpecConfigMap.build(profile, doc, CONFIG))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("no uid");
    }
}
