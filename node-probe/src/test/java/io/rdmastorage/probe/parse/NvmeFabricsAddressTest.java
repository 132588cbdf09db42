package io.rdmastorage.probe.parse;

import static org.assertj.core.api.Assertions.assertThat;

import io.rdmastorage.probe.testing.Samples;
import java.util.List;
import org.junit.jupiter.api.Test;

class NvmeFabricsAddressTest {

    @Test
    void kernelCommaListWithNewline() {
        // the shape of /sys/class/nvme/nvmeN/address as in the prometheus/procfs sysfs snapshot
        NvmeFabricsAddress a = NvmeFabricsAddress.parse("traddr=10.0.0.2,trsvcid=4420\n");

        assertThat(a.traddr()).contains("10.0.0.2");
        assertThat(a.trsvcid()).contains("4420");
        assertThat(a.port(4420)).contains(4420);
        assertThat(a.raw()).isEqualTo("traddr=10.0.0.2,trsvcid=4420");
    }

    @Test
    void newerKernelsAddSourceAddressesAndUnknownKeysAreKept() {
        // Address of the nvme-cli 2.x JSON sample (gonvme), which is the sysfs attribute verbatim
        NvmeFabricsAddress a = NvmeFabricsAddress.parse("traddr=10.1.1.1,trsvcid=4420,src_addr=10.1.1.2");
        NvmeFabricsAddress b = NvmeFabricsAddress.parse("traddr=10.68.20.10,trsvcid=4420,host_traddr=10.68.20.21,host_iface=ib0,future_key=x");

        assertThat(a.traddr()).contains("10.1.1.1");
        assertThat(a.fields()).containsEntry("src_addr", "10.1.1.2");
        assertThat(b.port(4420)).contains(4420);
        assertThat(b.fields()).containsKeys("host_traddr", "host_iface", "future_key");
    }

    @Test
    void spaceSeparatedAsNvmeCli1xShowedIt() {
        // "traddr=192.168.10.30 trsvcid=4420 host_traddr=192.168.10.45" from the Hitachi list-subsys sample
        String line = Samples.body("nvme/list-subsys_text_tcp_nvme-cli1x_hitachi_2paths.txt").lines()
                .filter(l -> l.contains("nvme0 tcp")).findFirst().orElseThrow();
        NvmeFabricsAddress a = NvmeFabricsAddress.parse(line.substring(line.indexOf("traddr="), line.lastIndexOf(" live")));

        assertThat(a.traddr()).contains("192.168.10.30");
        assertThat(a.trsvcid()).contains("4420");
        assertThat(a.fields()).containsEntry("host_traddr", "192.168.10.45");
    }

    @Test
    void whiteSpaceTabsAndCrlfAreTolerated() {
        NvmeFabricsAddress a = NvmeFabricsAddress.parse("  traddr=10.0.0.1 ,\ttrsvcid=4421\r\n\n");

        assertThat(a.traddr()).contains("10.0.0.1");
        assertThat(a.port(4420)).contains(4421);
    }

    @Test
    void ipv6AddressesKeepTheirColons() {
        // constructed: no public sysfs sample of an IPv6 NVMe-oF controller was found
        NvmeFabricsAddress a = NvmeFabricsAddress.parse("traddr=fe80::1%ib0,trsvcid=4420,host_traddr=fe80::2\n");

        assertThat(a.traddr()).contains("fe80::1%ib0");
        assertThat(a.fields()).containsEntry("host_traddr", "fe80::2");
    }

    @Test
    void pcieAndFcAddressesHaveNoFields() {
        String pcie = Samples.body("nvme/sysfs_nvme-ctrl_transport-address_pcie.txt").lines()
                .reduce((first, second) -> second).orElseThrow();
        NvmeFabricsAddress a = NvmeFabricsAddress.parse(pcie);
        NvmeFabricsAddress fc = NvmeFabricsAddress.parse("nn-0x200400a0986b4321:pn-0x210400a0986b4321\n");

        assertThat(a.raw()).isEqualTo("0000:e1:00.0");
        assertThat(a.fields()).isEmpty();
        assertThat(a.traddr()).isEmpty();
        assertThat(fc.fields()).isEmpty();
    }

    @Test
    void missingPortMeansTheDefaultAndABadPortMeansNone() {
        assertThat(NvmeFabricsAddress.parse("traddr=10.0.0.1").port(4420)).contains(4420);
        assertThat(NvmeFabricsAddress.parse("traddr=10.0.0.1,trsvcid=nvme").port(4420)).isEmpty();
        assertThat(NvmeFabricsAddress.parse("traddr=10.0.0.1,trsvcid=99999").port(4420)).isEmpty();
    }

    @Test
    void garbageGivesNoFieldsAndNeverThrows() {
        for (String garbage : List.of("", "   \n", "=,=,==", "traddr=", "\u0000\u0001=\u0002", "a=b=c,,,,=x", "traddr")) {
            NvmeFabricsAddress a = NvmeFabricsAddress.parse(garbage);
            assertThat(a.traddr()).as(garbage).isEmpty();
        }
        assertThat(NvmeFabricsAddress.parse(null).raw()).isEmpty();
        assertThat(NvmeFabricsAddress.parse("a=b=c").fields()).containsEntry("a", "b=c");
    }
}
