package io.rdmastorage.probe.parse;

import static org.assertj.core.api.Assertions.assertThat;

import io.rdmastorage.probe.testing.PciConfigSpace;
import io.rdmastorage.probe.testing.Samples;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * ACS from configuration space: each recorded {@code lspci -vvv} ACSCtl line, laid into a configuration
 * space at its recorded offset ({@link PciConfigSpace}: constructed, no raw dump of these bridges was
 * published), must read back as lspci printed it, and redirect exactly where lspci shows a redirect bit.
 */
class PcieAcsTest {

    private static final Pattern ACSCTL = Pattern.compile("ACSCtl:\\s*(.*)");
    private static final String OPENVMM = "pcie/lspci-vv_root-port-acs-100-clear_openvmm-pr3461.txt";
    private static final String RCCL = "pcie/lspci-vvv+lspci-tv_amd-gpp-bridge-acs-2a0-redirect_connectx6-and-gpus-behind-"
            + "pmc-switch_rccl-issue547.txt";
    /** PLX switches' ACS capability: nccl#304's fix writes its Control register at 0xf2a. */
    private static final int PLX_ACS = 0xf24;

    private static List<String> acsCtlLines(String sample) {
        return Samples.body(sample).lines().map(ACSCTL::matcher).filter(Matcher::find).map(m -> m.group(1).strip()).toList();
    }

    private static boolean lspciShowsRedirect(String flags) {
        return flags.contains("ReqRedir+") || flags.contains("CmpltRedir+") || flags.contains("EgressCtrl+");
    }

    @Test
    void theOpenvmmRootPortHasAcsAt0x100WithNothingOn() {
        PcieAcs acs = PcieAcs.parse(PciConfigSpace.fromLspci(Samples.body(OPENVMM)).bytes());

        assertThat(acs.kind()).isEqualTo(PcieAcs.Kind.ACS);
        assertThat(acs.offset()).isEqualTo(0x100);
        assertThat(acs.controlFlags()).isEqualTo(acsCtlLines(OPENVMM).get(0));
        assertThat(acs.redirects()).isFalse();
    }

    @Test
    void theRcclRootPortRedirectsRequestsAndCompletions() {
        PcieAcs acs = PcieAcs.parse(PciConfigSpace.fromLspci(Samples.body(RCCL)).bytes());

        assertThat(acs.offset()).isEqualTo(0x2a0);
        assertThat(acs.controlFlags()).isEqualTo("SrcValid+ TransBlk- ReqRedir+ CmpltRedir+ UpstreamFwd+ EgressCtrl- DirectTrans-");
        assertThat(acs.redirects()).isTrue();
        assertThat(acs.redirecting()).isEqualTo("ReqRedir+ CmpltRedir+");
    }

    @Test
    void everyRecordedAcsCtlLineReadsBackAndRedirectsExactlyWhereLspciShowsIt() {
        for (String sample : List.of("pcie/lspci-vvv-grep-acsctl_redirect-on-some-bridges_nccl-issue523.txt",
                "pcie/lspci-vvv-grep-acsctl_plx-switch-broken-and-working_setpci-f2a_nccl-issue304.txt",
                "pcie/lspci-vvv-grep-acsctl_srcvalid-only_amd-switch_nccl-issue606.txt")) {
            List<String> lines = acsCtlLines(sample);
            assertThat(lines).as(sample).isNotEmpty();
            for (String flags : lines) {
                byte[] config = PciConfigSpace.bridge(0x10b5, 0x8747).standard(0x68, 0x10).extended(0x100, 0x0001, 1)
                        .acs(PLX_ACS, "SrcValid+ TransBlk+ ReqRedir+ CmpltRedir+ UpstreamFwd+ EgressCtrl+ DirectTrans+", flags)
                        .bytes();

                PcieAcs acs = PcieAcs.parse(config);

                assertThat(acs.offset()).isEqualTo(PLX_ACS);
                assertThat(acs.controlFlags()).as(sample).isEqualTo(flags);
                assertThat(acs.redirects()).as(sample + ": " + flags).isEqualTo(lspciShowsRedirect(flags));
            }
        }
    }

    @Test
    void sourceValidationAloneIsNoRedirect() {
        // nccl#606's AMD switch after the BIOS change: SrcValid+ only
        byte[] config = PciConfigSpace.bridge(0x1022, 0x1483).standard(0x58, 0x10)
                .acs(0x2a0, "SrcValid+ TransBlk+ ReqRedir+ CmpltRedir+ UpstreamFwd+ EgressCtrl- DirectTrans+",
                        acsCtlLines("pcie/lspci-vvv-grep-acsctl_srcvalid-only_amd-switch_nccl-issue606.txt").get(0))
                .bytes();

        assertThat(PcieAcs.parse(config).redirects()).isFalse();
    }

    @Test
    void theFirst64BytesANonRootReaderGetsCannotTell() {
        byte[] first64 = PciConfigSpace.fromLspci(Samples.body(RCCL)).firstBytes(64);

        PcieAcs acs = PcieAcs.parse(first64);

        assertThat(acs.kind()).isEqualTo(PcieAcs.Kind.UNREADABLE);
        assertThat(acs.why()).contains("64 bytes", "CAP_SYS_ADMIN");
        assertThat(acs.redirects()).isFalse();
    }

    @Test
    void aPciExpressFunctionWithoutItsExtendedSpaceCannotTell() {
        // 256 bytes: the PCI Express capability is there, the extended capabilities (from 0x100) are not
        PcieAcs acs = PcieAcs.parse(PciConfigSpace.fromLspci(Samples.body(RCCL)).firstBytes(256));

        assertThat(acs.kind()).isEqualTo(PcieAcs.Kind.UNREADABLE);
        assertThat(acs.why()).contains("256 bytes", "extended capabilities");
    }

    @Test
    void aFunctionThatDoesNotAnswerCannotTell() {
        byte[] ones = new byte[PciConfigSpace.SIZE];
        Arrays.fill(ones, (byte) 0xFF);

        assertThat(PcieAcs.parse(ones).kind()).isEqualTo(PcieAcs.Kind.UNREADABLE);
    }

    @Test
    void aConventionalFunctionAndAnExpressOneWithoutAcsHaveNone() {
        byte[] conventional = PciConfigSpace.bridge(0x8086, 0x244e).standard(0x50, 0x0D).bytes();
        byte[] noAcs = PciConfigSpace.bridge(0x10b5, 0x8747).standard(0x68, 0x10).extended(0x100, 0x0001, 1)
                .extended(0x148, 0x0019, 1).bytes();

        assertThat(PcieAcs.parse(conventional).kind()).isEqualTo(PcieAcs.Kind.NONE);
        assertThat(PcieAcs.parse(noAcs).kind()).isEqualTo(PcieAcs.Kind.NONE);
        assertThat(PcieAcs.parse(noAcs).redirects()).isFalse();
    }

    @Test
    void anExtendedListThatPointsBelow0x100CannotTell() {
        byte[] config = PciConfigSpace.bridge(0x10b5, 0x8747).standard(0x68, 0x10).extended(0x100, 0x0001, 1).bytes();
        config[0x103] = 0x00;
        config[0x102] = 0x41;   // next = 0x004: inside the PCI header

        assertThat(PcieAcs.parse(config).kind()).isEqualTo(PcieAcs.Kind.UNREADABLE);
    }
}
