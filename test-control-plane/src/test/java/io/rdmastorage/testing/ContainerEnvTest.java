package io.rdmastorage.testing;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ContainerEnvTest {

    @Test
    void expandsDefinedVariablesAndKeepsTheRest() {
        Map<String, String> env = Map.of("NODE_NAME", "gpu-07");
        assertThat(ContainerEnv.expand("--node=$(NODE_NAME)", env)).isEqualTo("--node=gpu-07");
        assertThat(ContainerEnv.expand("$(UNSET) and $$(NODE_NAME)", env)).isEqualTo("$(UNSET) and $(NODE_NAME)");
        assertThat(ContainerEnv.expand("cost $5 $(", env)).isEqualTo("cost $5 $(");
    }

    @Test
    void resolvesLiteralsAndDownwardApiFields() {
        Container container = new ContainerBuilder().withName("probe")
                .addNewEnv().withName("NODE_NAME").withNewValueFrom().withNewFieldRef().withFieldPath("spec.nodeName")
                .endFieldRef().endValueFrom().endEnv()
                .addNewEnv().withName("WHERE").withValue("on $(NODE_NAME)").endEnv()
                .addNewEnv().withName("IP").withNewValueFrom().withNewFieldRef().withFieldPath("status.hostIP")
                .endFieldRef().endValueFrom().endEnv()
                .build();
        Pod pod = new PodBuilder().withNewMetadata().withName("p").withNamespace("ns").endMetadata()
                .withNewSpec().withNodeName("gpu-07").withContainers(container).endSpec().build();

        Map<String, String> env = ContainerEnv.of(pod, container, "127.1.0.7");

        assertThat(env).containsExactly(Map.entry("NODE_NAME", "gpu-07"), Map.entry("WHERE", "on gpu-07"),
                Map.entry("IP", "127.1.0.7"));
        assertThat(ContainerEnv.expand(List.of("--node", "$(NODE_NAME)"), env)).containsExactly("--node", "gpu-07");
    }
}
