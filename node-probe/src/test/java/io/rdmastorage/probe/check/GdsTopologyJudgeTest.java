package io.rdmastorage.probe.check;

import static org.assertj.core.api.Assertions.assertThat;

import io.rdmastorage.contract.Status;
import io.rdmastorage.probe.parse.PcieAcs;
import io.rdmastorage.probe.parse.PciePath;
import io.rdmastorage.probe.testing.PciConfigSpace;
import io.rdmastorage.probe.testing.Samples;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * GdsReady's placement rules on the recorded layout of ROCm/rccl#547 (lspci -tv): a ConnectX-6 at
 * 45:00.0 and a GPU at 4a:00.0 below one PMC-Sierra switch (upstream port 43:00.0, downstream ports
 * 44:00.0 and 44:01.0, the GPU behind its own bridges 46:00.0 to 49:00.0), under root port 40:01.1
 * whose recorded ACSCtl redirects. The sysfs paths follow from the tree; the bridges' configuration
 * spaces other than the root port's are constructed (the issue posted only the root port's ACS).
 */
class GdsTopologyJudgeTest {

    private static final String RCCL = "pcie/lspci-vvv+lspci-tv_amd-gpp-bridge-acs-2a0-redirect_connectx6-and-gpus-behind-"
            + "pmc-switch_rccl-issue547.txt";
    private static final PciePath GPU = PciePath.parse("/sys/devices/pci0000:40/0000:40:01.1/0000:43:00.0/0000:44:01.0/"
            + "0000:46:00.0/0000:47:00.0/0000:48:00.0/0000:49:00.0/0000:4a:00.0").orElseThrow();
    private static final PciePath CX6 = PciePath.parse("/sys/devices/pci0000:40/0000:40:01.1/0000:43:00.0/0000:44:00.0/"
            + "0000:45:00.0/infiniband/mlx5_0").orElseThrow();
    private static final String CLEAR = "SrcValid- TransBlk- ReqRedir- CmpltRedir- UpstreamFwd- EgressCtrl- DirectTrans-";
    /** nccl#523's redirecting line: ReqRedir+ CmpltRedir+ without SrcValid. */
    private static final String REDIRECT = "SrcValid- TransBlk- ReqRedir+ CmpltRedir+ UpstreamFwd- EgressCtrl- DirectTrans-";

    private static PcieAcs switchPort(String acsCtl) {
        return PcieAcs.parse(PciConfigSpace.bridge(0x11f8, 0x4000).standard(0x68, 0x10).extended(0x100, 0x0001, 1)
                .acs(0x148, "SrcValid+ TransBlk+ ReqRedir+ CmpltRedir+ UpstreamFwd+ EgressCtrl+ DirectTrans+", acsCtl).bytes());
    }

    /** The bridges below the switch on both sides; the GPU's own upstream bridges (46:00.0 on) have no ACS. */
    private static Map<String, PcieAcs> bridges(String nicPortAcsCtl) {
        Map<String, PcieAcs> bridges = new LinkedHashMap<>();
        bridges.put("0000:40:01.1", PcieAcs.parse(PciConfigSpace.fromLspci(Samples.body(RCCL)).bytes()));
        bridges.put("0000:44:01.0", switchPort(CLEAR));
        for (String upstream : List.of("0000:46:00.0", "0000:47:00.0", "0000:48:00.0", "0000:49:00.0")) {
            bridges.put(upstream, PcieAcs.parse(PciConfigSpace.bridge(0x1002, 0x14a0).standard(0x58, 0x10).bytes()));
        }
        bridges.put("0000:44:00.0", switchPort(nicPortAcsCtl));
        return bridges;
    }

    private static List<Finding> judge(Map<String, PcieAcs> bridges, List<String> passed, Details details) {
        List<Finding> findings = new ArrayList<>();
        GdsTopology.judge(new GdsTopology.View(Map.of("0000:4a:00.0", GPU), Map.of("mlx5_0", CX6), List.of(), bridges),
                Optional.empty(), details, findings, passed);
        return findings;
    }

    @Test
    void theBridgesBetweenThePairAreTheSwitchPortsBelowItsUpstreamPortNotTheRootPort() {
        assertThat(GPU.sharedSwitch(CX6)).hasValue("0000:43:00.0");
        assertThat(GPU.bridgesTo(CX6)).containsExactly("0000:44:01.0", "0000:46:00.0", "0000:47:00.0", "0000:48:00.0",
                "0000:49:00.0", "0000:44:00.0");
    }

    @Test
    void aRedirectingRootPortAboveTheSharedSwitchIsNotOnTheirPath() {
        List<String> passed = new ArrayList<>();

        List<Finding> findings = judge(bridges(CLEAR), passed, new Details());

        assertThat(findings).isEmpty();
        assertThat(passed).containsExactly("GPU 0000:4a:00.0 and mlx5_0 share PCIe switch 0000:43:00.0, ACS redirect off on "
                + "the 6 bridge(s) between them");
    }

    @Test
    void aRedirectingDownstreamPortOfTheSharedSwitchIsPcieAcsRedirect() {
        List<Finding> findings = judge(bridges(REDIRECT), new ArrayList<>(), new Details());

        assertThat(findings).singleElement().satisfies(f -> {
            assertThat(f.status()).isEqualTo(Status.FALSE);
            assertThat(f.reason()).isEqualTo("PcieAcsRedirect");
            assertThat(f.message()).contains("bridge 0000:44:00.0 (ACSCtl: " + REDIRECT + ") between GPU 0000:4a:00.0 and "
                    + "mlx5_0 (0000:45:00.0)").doesNotContain("0000:40:01.1");
        });
    }

    @Test
    void aBridgeNotReadIsUnknownNeverClear() {
        Map<String, PcieAcs> bridges = bridges(CLEAR);
        bridges.remove("0000:44:00.0");

        List<Finding> findings = judge(bridges, new ArrayList<>(), new Details());

        assertThat(findings).singleElement().satisfies(f -> {
            assertThat(f.status()).isEqualTo(Status.UNKNOWN);
            assertThat(f.reason()).isEqualTo("PcieAcsUnreadable");
            assertThat(f.message()).contains("bridge 0000:44:00.0 between GPU 0000:4a:00.0 and mlx5_0");
        });
    }
}
