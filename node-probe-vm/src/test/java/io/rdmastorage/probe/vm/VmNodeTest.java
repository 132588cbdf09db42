package io.rdmastorage.probe.vm;

import java.time.Duration;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.TestInfo;

/**
 * A test class on the real-kernel VM node: every class of this JVM shares one boot ({@link
 * VmNode#shared()}: a boot under TCG takes minutes), and every test starts from {@code scenario.sh
 * reset} (both rxe ports ACTIVE, nothing connected, mounted or left running), which fails naming
 * what it finds left over, and the test that ran before.
 */
abstract class VmNodeTest {

    private static final Duration SCENARIO_TIMEOUT = Duration.ofSeconds(90);

    static VmNode vm;
    /** The test that ran on the shared VM before this one: a leak reset finds is most likely its. */
    private static String previousTest = "none (the first since boot)";

    /** A test class that boots a guest of its own (another architecture) in its own {@code @BeforeAll}. */
    interface OwnGuest {
    }

    @BeforeAll
    static void boot(TestInfo test) throws Exception {
        if (test.getTestClass().filter(OwnGuest.class::isAssignableFrom).isEmpty()) {
            vm = VmNode.shared();
        }
    }

    @BeforeEach
    void reset(TestInfo test) {
        scenario("reset").requireSuccess("scenario.sh reset after " + previousTest);
        previousTest = getClass().getSimpleName() + "." + test.getTestMethod().map(m -> m.getName()).orElse(test.getDisplayName());
    }

    /** {@code vm-node/scenario.sh} with these arguments (they are the test's own constants, never input). */
    static VmNode.Result scenario(String... args) {
        return vm.run("bash /mnt/share/scenario.sh " + String.join(" ", args), vm.guest().allow(SCENARIO_TIMEOUT));
    }
}
