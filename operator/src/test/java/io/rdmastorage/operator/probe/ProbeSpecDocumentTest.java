package io.rdmastorage.operator.probe;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.rdmastorage.contract.spec.ProbeSpec;
import io.rdmastorage.operator.api.GpfsCheckSpec;
import io.rdmastorage.operator.api.NvmeofCheckSpec;
import io.rdmastorage.operator.api.NvmeofTarget;
import io.rdmastorage.operator.api.RdmaCheckSpec;
import io.rdmastorage.operator.api.RdmaStorageProfileSpec;
import io.rdmastorage.operator.api.Sha256;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class ProbeSpecDocumentTest {

    @Test
    void theDesignExampleBecomesNodeProbesSpec() throws Exception {
        ProbeSpecDocument doc = ProbeSpecDocument.of(TestProfiles.designExample().getSpec());

        assertThat(doc.json()).isEqualTo("{"
                + "\"rdma\":{\"devices\":[\"mlx5_0/1\",\"mlx5_1/1\"],\"userspaceVerbs\":true},"
                + "\"gpfs\":{\"verbsPorts\":[\"mlx5_0/1\",\"mlx5_1/1\"],\"requiredPeers\":[],"
                + "\"requireVerbsRdmaSend\":false,\"minPagepool\":\"16Gi\"},"
                + "\"nvmeof\":{\"targets\":[{\"nqn\":\"nqn.2024-01.dev.wutz:target1\",\"address\":\"10.68.20.10\",\"port\":4420}]},"
                + "\"gds\":{\"filesystems\":[\"gpfs\"],\"requireIommuDisabled\":true,\"requireNicGpuSameSwitch\":true,"
                + "\"forbidCompatMode\":false},"
                + "\"latency\":{\"device\":\"mlx5_0\",\"port\":1,\"size\":2,\"iterations\":1000,\"maxTypicalMicros\":5.0},"
                + "\"ceph\":{}}");
        assertThat(doc.spec().latency().device()).isEqualTo("mlx5_0");
        assertThat(doc.spec().rdma().devicePorts()).hasSize(2);
        assertThat(doc.spec().nvmeof().targets()).containsExactly(
                new ProbeSpec.Target("nqn.2024-01.dev.wutz:target1", "10.68.20.10", 4420));
        assertThat(doc.spec().ceph()).isNotNull();
        assertThat(doc.checksNothing()).isFalse();
        assertThat(doc.sha256()).hasSize(64).isEqualTo(Sha256.hex(doc.json()));
    }

    @Test
    void absentSectionsAndNullFieldsAreLeftOut() throws Exception {
        RdmaStorageProfileSpec spec = new RdmaStorageProfileSpec();
        spec.setGpfs(new GpfsCheckSpec());
        NvmeofTarget target = new NvmeofTarget();
        target.setNqn("nqn.2014-08.org.example:t1");
        target.setAddress("fe80::1");
        NvmeofCheckSpec nvmeof = new NvmeofCheckSpec();
        nvmeof.setTargets(List.of(target));
        spec.setNvmeof(nvmeof);

        ProbeSpecDocument doc = ProbeSpecDocument.of(spec);

        assertThat(doc.json()).isEqualTo(
                "{\"gpfs\":{},\"nvmeof\":{\"targets\":[{\"nqn\":\"nqn.2014-08.org.example:t1\",\"address\":\"fe80::1\"}]}}");
        assertThat(doc.spec().nvmeof().targets().get(0).port()).isEqualTo(4420);
        assertThat(doc.spec().rdma()).isNull();
    }

    @Test
    void aSpecWithoutSectionsChecksNothing() throws Exception {
        ProbeSpecDocument doc = ProbeSpecDocument.of(new RdmaStorageProfileSpec());
        assertThat(doc.json()).isEqualTo("{}");
        assertThat(doc.checksNothing()).isTrue();
    }

    @Test
    void aSpecChangeChangesTheHashAndTheSameSpecKeepsIt() throws Exception {
        RdmaStorageProfileSpec spec = TestProfiles.designExample().getSpec();
        String before = ProbeSpecDocument.of(spec).sha256();
        assertThat(ProbeSpecDocument.of(TestProfiles.designExample().getSpec()).sha256()).isEqualTo(before);

        spec.getGpfs().setMinPagepool("32Gi");
        assertThat(ProbeSpecDocument.of(spec).sha256()).isNotEqualTo(before);
    }

    @Test
    void settingsThatAreNotChecksStayOutOfTheDocument() throws Exception {
        RdmaStorageProfileSpec spec = TestProfiles.designExample().getSpec();
        String before = ProbeSpecDocument.of(spec).json();
        spec.setInterval("1h");
        spec.setMaxConcurrentProbes(3);
        assertThat(ProbeSpecDocument.of(spec).json()).isEqualTo(before);
    }

    @Test
    void aVerbsPortThatIsNotDevicePortIsRefusedNamingTheField() {
        RdmaStorageProfileSpec spec = TestProfiles.designExample().getSpec();
        spec.getGpfs().setVerbsPorts(List.of("mlx5_0/1", "mlx5_1"));

        assertThatThrownBy(() -> ProbeSpecDocument.of(spec))
                .isInstanceOfSatisfying(InvalidProbeSpecException.class, e -> {
                    assertThat(e.field()).isEqualTo("gpfs.verbsPorts[1]");
                    assertThat(e.rule()).isEqualTo("'mlx5_1' must be <device>/<port> such as mlx5_0/1");
                    assertThat(e.getMessage()).isEqualTo("gpfs.verbsPorts[1]: " + e.rule());
                });
    }

    @Test
    void shellSyntaxInAnNqnNeverReachesAPod() {
        RdmaStorageProfileSpec spec = TestProfiles.designExample().getSpec();
        spec.getNvmeof().getTargets().get(0).setNqn("nqn.2024-01.dev.wutz:t1;reboot");

        assertThatThrownBy(() -> ProbeSpecDocument.of(spec))
                .isInstanceOfSatisfying(InvalidProbeSpecException.class, e -> {
                    assertThat(e.field()).isEqualTo("nvmeof.targets[0].nqn");
                    assertThat(e.rule()).contains("'nqn.2024-01.dev.wutz:t1;reboot'", "NVMe Qualified Name");
                });
    }

    @Test
    void outOfRangeAndMissingValuesAreRefused() {
        RdmaStorageProfileSpec port = TestProfiles.designExample().getSpec();
        port.getNvmeof().getTargets().get(0).setPort(70000);
        assertThatThrownBy(() -> ProbeSpecDocument.of(port))
                .isInstanceOfSatisfying(InvalidProbeSpecException.class,
                        e -> assertThat(e.field()).isEqualTo("nvmeof.targets[0].port"));

        RdmaStorageProfileSpec address = TestProfiles.designExample().getSpec();
        address.getNvmeof().getTargets().get(0).setAddress(null);
        assertThatThrownBy(() -> ProbeSpecDocument.of(address))
                .isInstanceOfSatisfying(InvalidProbeSpecException.class, e -> {
                    assertThat(e.field()).isEqualTo("nvmeof.targets[0].address");
                    assertThat(e.rule()).isEqualTo("is required");
                });

        RdmaStorageProfileSpec hcaPort = TestProfiles.designExample().getSpec();
        hcaPort.getRdma().setDevices(List.of("mlx5_0/0"));
        assertThatThrownBy(() -> ProbeSpecDocument.of(hcaPort))
                .isInstanceOfSatisfying(InvalidProbeSpecException.class,
                        e -> assertThat(e.field()).isEqualTo("rdma.devices[0]"));

        RdmaStorageProfileSpec pagepool = TestProfiles.designExample().getSpec();
        pagepool.getGpfs().setMinPagepool("16Gi; rm -rf /");
        assertThatThrownBy(() -> ProbeSpecDocument.of(pagepool))
                .isInstanceOfSatisfying(InvalidProbeSpecException.class,
                        e -> assertThat(e.field()).isEqualTo("gpfs.minPagepool"));
    }

    @Test
    void nullListEntriesAreRefusedNotDropped() {
        RdmaStorageProfileSpec spec = new RdmaStorageProfileSpec();
        RdmaCheckSpec rdma = new RdmaCheckSpec();
        rdma.setDevices(Arrays.asList("mlx5_0/1", null));
        spec.setRdma(rdma);
        assertThatThrownBy(() -> ProbeSpecDocument.of(spec))
                .isInstanceOfSatisfying(InvalidProbeSpecException.class,
                        e -> assertThat(e.field()).isEqualTo("rdma.devices[1]"));

        RdmaStorageProfileSpec targets = new RdmaStorageProfileSpec();
        NvmeofCheckSpec nvmeof = new NvmeofCheckSpec();
        nvmeof.setTargets(Arrays.asList((NvmeofTarget) null));
        targets.setNvmeof(nvmeof);
        assertThatThrownBy(() -> ProbeSpecDocument.of(targets))
                .isInstanceOfSatisfying(InvalidProbeSpecException.class,
                        e -> assertThat(e.field()).isEqualTo("nvmeof.targets[0].nqn"));
    }

    @Test
    void tooLongListsAreRefused() {
        RdmaStorageProfileSpec spec = new RdmaStorageProfileSpec();
        GpfsCheckSpec gpfs = new GpfsCheckSpec();
        List<String> peers = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            peers.add("nsd-" + i);
        }
        gpfs.setRequiredPeers(peers);
        spec.setGpfs(gpfs);
        assertThatThrownBy(() -> ProbeSpecDocument.of(spec))
                .isInstanceOfSatisfying(InvalidProbeSpecException.class,
                        e -> assertThat(e.field()).isEqualTo("gpfs.requiredPeers"));
    }
}
