package io.rdmastorage.probe.acceptance;

import static org.assertj.core.api.Assertions.assertThat;

import io.rdmastorage.contract.spec.AcceptanceSpec;
import io.rdmastorage.probe.host.ExecMode;
import io.rdmastorage.probe.host.HostRoot;
import io.rdmastorage.probe.host.ToolLocator;
import io.rdmastorage.probe.host.ToolRunner;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * One type per target, as the operator has them: the {@code acceptance} command's spec section
 * chooses the type that measures it (the verbs target has commands of its own). A fourth target is a
 * fourth permitted type.
 */
class AcceptanceTargetTest {

    private static final HostRoot HOST = new HostRoot(Path.of("/nonexistent-host-root"));
    private static final ToolRunner TOOLS = new ToolRunner(HOST, new ToolLocator(HOST, Map.of()), ExecMode.DIRECT,
            Duration.ofSeconds(1));

    @Test
    void theTargetsAreTheOperatorsInItsOrder() {
        assertThat(Arrays.stream(AcceptanceTarget.class.getPermittedSubclasses()).map(Class::getSimpleName))
                .containsExactly("NvmeofSubsystem", "PathDirectory", "VerbsPeer");
    }

    @Test
    void theSpecsSectionChoosesTheTarget() {
        AcceptanceSpec nvmeof = new AcceptanceSpec(new AcceptanceSpec.Nvmeof("nqn.2024-01.dev.wutz:target1", "10.68.20.10",
                null, null, null), null, null, null, null);
        AcceptanceSpec path = new AcceptanceSpec(null, new AcceptanceSpec.Path("/gpfs/fs1/acceptance", null,
                AcceptanceSpec.Path.fileNameFor("gpfs-rdma")), null, null, null);

        TargetTools tools = new TargetTools(HOST, TOOLS, timeout -> TOOLS);

        assertThat(AcceptanceTarget.of(nvmeof, tools)).isInstanceOf(NvmeofSubsystem.class);
        assertThat(AcceptanceTarget.of(path, tools)).isInstanceOf(PathDirectory.class);
    }
}
