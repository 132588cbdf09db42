package io.rdmastorage.contract.spec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The admin's nvmeofAddresses entries, with a port or without, and the bounds that match a whole target. */
class AddressBoundTest {

    @Test
    void anEntryWithAPortAllowsThatPortOnlyAndOneWithoutAllowsAny() throws InvalidSpecException {
        AddressBound v4 = AddressBound.parse("f", "10.68.20.0/24:4420");
        assertThat(v4.allows("10.68.20.10", 4420)).isTrue();
        assertThat(v4.allows("10.68.20.10", 2379)).isFalse();
        assertThat(v4.allows("10.68.21.10", 4420)).isFalse();
        AddressBound v6 = AddressBound.parse("f", "[fd00::/64]:4420");
        assertThat(v6.allows("fd00::7", 4420)).isTrue();
        assertThat(v6.allows("fd00::7", 4421)).isFalse();
        assertThat(AddressBound.parse("f", "fd00::7").allows("fd00:0:0:0:0:0:0:7", 2379)).isTrue();
        assertThat(AddressBound.parse("f", "192.0.2.1").allows("192.0.2.1", 1)).isTrue();
    }

    @Test
    void aBadPortOrAddressIsRefusedNamingTheField() {
        for (String bad : List.of("10.68.20.10:0", "10.68.20.10:65536", "10.68.20.10:x", "[fd00::7]", "[fd00::7]:", "storage:4420")) {
            assertThatThrownBy(() -> AddressBound.parse("acceptance.nvmeofAddresses", bad), bad)
                    .isInstanceOf(InvalidSpecException.class).hasMessageContaining("acceptance.nvmeofAddresses");
        }
    }

    @Test
    void aProfilesTargetIsMatchedWholeWhateverTheAddressLiteral() {
        ProbeSpec.Target named = new ProbeSpec.Target("nqn.2024-01.example:t1", "fd00::7", 4420);
        AcceptanceSpec.Bounds bounds = new AcceptanceSpec.Bounds(List.of(), List.of(), List.of(named), 16384, 3600);
        assertThat(bounds.allows(new ProbeSpec.Target("nqn.2024-01.example:t1", "fd00:0::7", 4420))).isTrue();
        assertThat(bounds.allows(new ProbeSpec.Target("nqn.2024-01.example:t1", "fd00::7", 2379))).isFalse();
        assertThat(bounds.allows(new ProbeSpec.Target("nqn.2024-01.example:other", "fd00::7", 4420))).isFalse();
    }
}
