package io.rdmastorage.operator.acceptance;

import static org.assertj.core.api.Assertions.assertThat;

import io.rdmastorage.contract.spec.InvalidSpecException;
import io.rdmastorage.contract.spec.SpecReader;
import io.rdmastorage.operator.api.AcceptanceTransport;
import java.util.List;

import io.rdmastorage.operator.api.AcceptanceNvmeofTarget;
import io.rdmastorage.operator.api.AcceptancePathTarget;
import io.rdmastorage.operator.api.AcceptanceVerbsTarget;
import io.rdmastorage.operator.api.RdmaStorageAcceptanceSpec;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** One type per target: the name metrics use, the TARGET column and the nodes, each worked out once. */
class AcceptanceTargetTest {

    @Test
    void everyPermittedTargetHasItsNameInTheMetricsOrder() {
        assertThat(AcceptanceTarget.NAMES).containsExactly("nvmeof", "path", "verbs");
    }

    @Test
    void theSpecsSectionIsItsTarget() {
        RdmaStorageAcceptanceSpec spec = new RdmaStorageAcceptanceSpec();
        assertThat(AcceptanceTarget.name(spec)).isEqualTo("none");

        AcceptanceNvmeofTarget nvmeof = new AcceptanceNvmeofTarget();
        nvmeof.setNqn("nqn.2024-01.dev.wutz:target1");
        spec.setNvmeof(nvmeof);
        assertThat(AcceptanceTarget.of(spec)).get().isInstanceOf(NvmeofSubsystem.class);
        assertThat(AcceptanceTarget.of(spec).orElseThrow().column()).isEqualTo("nqn.2024-01.dev.wutz:target1");

        spec.setNvmeof(null);
        AcceptancePathTarget path = new AcceptancePathTarget();
        path.setDirectory("/gpfs/fs1/acceptance");
        spec.setPath(path);
        assertThat(AcceptanceTarget.name(spec)).isEqualTo("path");
        assertThat(AcceptanceTarget.of(spec).orElseThrow().column()).isEqualTo("path /gpfs/fs1/acceptance");
        assertThat(AcceptanceTarget.of(spec).orElseThrow().otherNodes()).isEmpty();

        spec.setPath(null);
        AcceptanceVerbsTarget verbs = new AcceptanceVerbsTarget();
        verbs.setDevice("mlx5_0");
        verbs.setPeerNode("storage-01");
        spec.setVerbs(verbs);
        assertThat(AcceptanceTarget.name(spec)).isEqualTo("verbs");
        assertThat(AcceptanceTarget.of(spec).orElseThrow().otherNodes()).isEqualTo(Set.of("storage-01"));
    }

    @Test
    void theSpecDocumentIsDerivedFromTheContractRecordAndReadsBackAsIt() throws InvalidSpecException {
        RdmaStorageAcceptanceSpec spec = new RdmaStorageAcceptanceSpec();
        spec.setNodeName("gpu-07");
        AcceptanceNvmeofTarget nvmeof = new AcceptanceNvmeofTarget();
        nvmeof.setNqn("nqn.2024-01.dev.wutz:target1");
        nvmeof.setAddress("10.68.20.10");
        nvmeof.setTransports(List.of(AcceptanceTransport.RDMA, AcceptanceTransport.TCP));
        spec.setNvmeof(nvmeof);
        AcceptanceSpecDocument document = AcceptanceSpecDocument.of(spec, "gpu-07-nvmeof");
        assertThat(SpecReader.readAcceptance(document.json())).isEqualTo(document.spec());

        spec.setNvmeof(null);
        AcceptancePathTarget path = new AcceptancePathTarget();
        path.setDirectory("/gpfs/fs1/acceptance");
        spec.setPath(path);
        document = AcceptanceSpecDocument.of(spec, "gpu-07-path");
        assertThat(SpecReader.readAcceptance(document.json())).isEqualTo(document.spec());

        spec.setPath(null);
        AcceptanceVerbsTarget verbs = new AcceptanceVerbsTarget();
        verbs.setDevice("mlx5_0");
        verbs.setPeerNode("storage-01");
        spec.setVerbs(verbs);
        document = AcceptanceSpecDocument.of(spec, "gpu-07-verbs");
        assertThat(SpecReader.readVerbsAcceptance(document.json())).isEqualTo(document.verbs());
    }
}
