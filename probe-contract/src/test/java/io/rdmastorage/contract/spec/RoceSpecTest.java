package io.rdmastorage.contract.spec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The roce section's rules: the same bounds as the operator's CRD (DSCP 0–63, priority 0–7). */
class RoceSpecTest {

    private static ProbeSpec roce(Integer dscp, Integer priority, List<String> devices, List<Integer> pfc) {
        return new ProbeSpec(null, null, null, null, null, null, new ProbeSpec.Roce(dscp, priority, devices, pfc));
    }

    @Test
    void boundsAreAccepted() throws Exception {
        SpecValidator.validate(roce(0, 0, null, null));
        SpecValidator.validate(roce(ProbeSpec.Roce.MAX_DSCP, ProbeSpec.Roce.MAX_PRIORITY, List.of("mlx5_0/1"), List.of(0, 7)));
        assertThat(new ProbeSpec.Roce(26, 3, null, null).tos()).isEqualTo(104);
    }

    @Test
    void outsideTheBoundsOrMissingIsRefusedNamingTheField() {
        assertThatThrownBy(() -> SpecValidator.validate(roce(64, 3, null, null))).hasMessageContaining("roce.dscp");
        assertThatThrownBy(() -> SpecValidator.validate(roce(-1, 3, null, null))).hasMessageContaining("roce.dscp");
        assertThatThrownBy(() -> SpecValidator.validate(roce(null, 3, null, null))).hasMessageContaining("roce.dscp");
        assertThatThrownBy(() -> SpecValidator.validate(roce(26, 8, null, null))).hasMessageContaining("roce.priority");
        assertThatThrownBy(() -> SpecValidator.validate(roce(26, null, null, null))).hasMessageContaining("roce.priority");
        assertThatThrownBy(() -> SpecValidator.validate(roce(26, 3, null, List.of(3, 8)))).hasMessageContaining("roce.pfcPriorities[1]");
        assertThatThrownBy(() -> SpecValidator.validate(roce(26, 3, List.of("mlx5_0/1;reboot"), null))).hasMessageContaining("roce.devices[0]");
        assertThatThrownBy(() -> SpecValidator.validate(roce(26, 3, List.of("mlx5_0/0"), null))).hasMessageContaining("roce.devices[0]");
    }
}
