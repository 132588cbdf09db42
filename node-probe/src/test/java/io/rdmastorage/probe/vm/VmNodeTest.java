package io.rdmastorage.probe.vm;

import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;

/**
 * A test class on the real-kernel VM node: one boot for the class (a boot under TCG takes minutes),
 * the VM closed after its last test, and every test starting from {@code scenario.sh reset}
 * (both rxe ports ACTIVE, nothing connected or mounted).
 */
abstract class VmNodeTest {

    private static final Duration SCENARIO_TIMEOUT = Duration.ofSeconds(90);

    static VmNode vm;

    @BeforeAll
    static void boot() throws Exception {
        vm = VmNode.bootWithBuiltProbe();
    }

    @AfterAll
    static void shutdown() throws Exception {
        if (vm != null) {
            vm.close();
            vm = null;
        }
    }

    @BeforeEach
    void reset() {
        scenario("reset").requireSuccess("scenario.sh reset");
    }

    /** {@code vm-node/scenario.sh} with these arguments (they are the test's own constants, never input). */
    static VmNode.Result scenario(String... args) {
        return vm.run("bash /mnt/share/scenario.sh " + String.join(" ", args), SCENARIO_TIMEOUT);
    }
}
