package io.rdmastorage.probe.parse;

import static org.assertj.core.api.Assertions.assertThat;

import io.rdmastorage.probe.testing.Samples;
import java.util.Map;
import org.junit.jupiter.api.Test;

class EthtoolStatsTest {

    static final String PRIO = "counters/ethtool-S_grep-prio_before-after_all-roce-traffic-in-prio0_byteps-issue179_fragment.txt";

    /** The before and after blocks of the byteps issue's copy: the issue author's lines between them are not counters. */
    static String[] beforeAfter() {
        String body = Samples.body(PRIO);
        int after = body.indexOf("After:");
        return new String[] {body.substring(0, after), body.substring(after)};
    }

    @Test
    void perPriorityBytesBeforeAndAfterARdmaBenchmarkShowEverythingInPriority0() {
        Map<String, Long> before = EthtoolStats.parse(beforeAfter()[0]);
        Map<String, Long> after = EthtoolStats.parse(beforeAfter()[1]);

        assertThat(before).hasSize(32).containsEntry("rx_prio0_bytes", 88034564921216L);
        assertThat(after.get(EthtoolStats.priorityCounter("rx", 0, "bytes")) - before.get("rx_prio0_bytes"))
                .isEqualTo(136571931490L);
        assertThat(after.get("tx_prio3_bytes") - before.get("tx_prio3_bytes")).isZero();
        // the stored copy is cut after tx_prio4_bytes
        assertThat(after).containsKey("tx_prio4_bytes").doesNotContainKey("rx_prio5_bytes");
    }

    @Test
    void vportRdmaCountersOfABondMember() {
        Map<String, Long> stats = EthtoolStats.parse(
                Samples.body("counters/ethtool-S_grep-rdma_vport-rdma-unicast-bytes_bond-member_index60796579733.txt"));

        assertThat(stats).containsEntry("rx_vport_rdma_unicast_bytes", 343918719286L)
                .containsEntry("tx_vport_rdma_unicast_bytes", 147370719852L).hasSize(8);
    }

    @Test
    void showCountersNameValueLinesReadTheSameWay() {
        Map<String, Long> hw = EthtoolStats.parse(
                Samples.body("counters/show_counters_hw_counters_mlx5_bond_0_ecn-marked-cnp-sent-nonzero_index60891034733.txt"));

        assertThat(hw).containsEntry("np_ecn_marked_roce_packets", 21278189006L).containsEntry("out_of_sequence", 1811101L)
                .doesNotContainKey("Port 1 hw counters");
    }

    @Test
    void bannerAndGarbageAreNoCounters() {
        assertThat(EthtoolStats.parse("NIC statistics:\n     rx_packets: 12\n     weird line\n     tx_x: -3\n"))
                .containsOnlyKeys("rx_packets");
        assertThat(EthtoolStats.parse("Cannot get stats information: Operation not supported\n")).isEmpty();
    }
}
