package io.rdmastorage.operator.probe;

import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.rdmastorage.operator.api.RdmaStorageProfile;

/** Profiles as users write them, in YAML, for the probe package's tests. */
final class TestProfiles {

    private static final KubernetesSerialization YAML = new KubernetesSerialization();

    /** The DESIGN.md example profile, whole (latency and rdma.userspaceVerbs included). */
    static final String DESIGN_EXAMPLE = """
            apiVersion: rdmastorage.io/v1alpha1
            kind: RdmaStorageProfile
            metadata: {name: gpfs-gds-training}
            spec:
              nodeSelector: {matchLabels: {nvidia.com/gpu.present: "true"}}
              tolerations: []
              interval: 15m
              probeTimeout: 3m
              maxConcurrentProbes: 20
              nodeLabels: true
              rdma:
                devices: ["mlx5_0/1", "mlx5_1/1"]
                userspaceVerbs: true
              gpfs:
                verbsPorts: ["mlx5_0/1", "mlx5_1/1"]
                requiredPeers: []
                requireVerbsRdmaSend: false
                minPagepool: 16Gi
              nvmeof:
                targets:
                  - {nqn: "nqn.2024-01.dev.wutz:target1", address: 10.68.20.10, port: 4420}
              gds:
                filesystems: [gpfs]
                requireIommuDisabled: true
                requireNicGpuSameSwitch: true
                forbidCompatMode: false
              latency:
                device: mlx5_0
                port: 1
                size: 2
                iterations: 1000
                maxTypicalMicros: 5
              ceph: {}
            """;

    private TestProfiles() {
    }

    static RdmaStorageProfile parse(String yaml) {
        return YAML.unmarshal(yaml, RdmaStorageProfile.class);
    }

    /** The DESIGN example as the API server would return it: with a uid and a generation. */
    static RdmaStorageProfile designExample() {
        RdmaStorageProfile profile = parse(DESIGN_EXAMPLE);
        profile.getMetadata().setUid("0f5c2a4e-8b1d-4c3e-9a7f-2d6e1b0c9a11");
        profile.getMetadata().setGeneration(3L);
        return profile;
    }

    /** The DESIGN example less what a fixture node cannot pass: latency and rdma.userspaceVerbs. */
    static RdmaStorageProfile fixtureExample() {
        RdmaStorageProfile profile = designExample();
        profile.getSpec().setLatency(null);
        profile.getSpec().getRdma().setUserspaceVerbs(null);
        return profile;
    }
}
