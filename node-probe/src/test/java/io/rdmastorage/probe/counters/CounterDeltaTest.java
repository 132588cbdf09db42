package io.rdmastorage.probe.counters;

import static org.assertj.core.api.Assertions.assertThat;

import io.rdmastorage.probe.counters.CounterKey.Source;
import io.rdmastorage.probe.parse.SysfsCounter;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class CounterDeltaTest {

    static final CounterKey XMIT_DATA = new CounterKey(Source.RDMA_PORT, "mlx5_0/1", "port_xmit_data");
    static final CounterKey SYMBOL_ERRORS = new CounterKey(Source.RDMA_PORT, "mlx5_0/1", "symbol_error");
    static final CounterKey SOCKET = new CounterKey(Source.TCP_SOCKET, "192.0.2.2:48712 -> 192.0.2.1:4420", "bytes_received");

    static CounterReading legacy(String name, long raw) {
        return new CounterReading(raw, SysfsCounter.legacyMaximum(name), name.endsWith("_data") ? 4 : 1);
    }

    @Test
    void dataCountersCountFourOctetsAStep() {
        CounterDelta d = CounterDelta.between(XMIT_DATA, legacy("port_xmit_data", 2880761508848L),
                legacy("port_xmit_data", 2880761508848L + 250));

        assertThat(d.amount()).hasValue(1000);
        assertThat(d.problem()).isEmpty();
    }

    @Test
    void aSaturatedLegacyCounterHasNoDelta() {
        // a real host showed port_xmit_wait 4294967295 and port_xmit_discards 65535
        CounterKey wait = new CounterKey(Source.RDMA_PORT, "mlx4_0/1", "port_xmit_wait");
        assertThat(CounterDelta.between(wait, legacy("port_xmit_wait", 4294967295L), legacy("port_xmit_wait", 4294967295L))
                .amount()).isEmpty();
        CounterDelta symbols = CounterDelta.between(SYMBOL_ERRORS, legacy("symbol_error", 65000), legacy("symbol_error", 65535));
        assertThat(symbols.known()).isFalse();
        assertThat(symbols.problem()).startsWith("at its maximum 65535");
        // a 32-bit legacy data counter stuck at its maximum: no bytes, never 0
        assertThat(CounterDelta.between(XMIT_DATA, legacy("port_xmit_data", 4294967295L), legacy("port_xmit_data", 4294967295L))
                .known()).isFalse();
    }

    @Test
    void anExtendedCounterPastTheLegacyMaximumIsNotSaturated() {
        // the recorded mlx5 port: port_xmit_data 2880761508848, far beyond 2^32 - 1: a 64-bit counter
        assertThat(CounterDelta.between(XMIT_DATA, legacy("port_xmit_data", 2880761508848L),
                legacy("port_xmit_data", 2880761508848L + 1)).amount()).hasValue(4);
    }

    @Test
    void saturatedInTheFirstSampleOnlyIsStillNoDelta() {
        // the counter was reset in between: 255 → 3 link downs, nothing to subtract
        CounterKey downs = new CounterKey(Source.RDMA_PORT, "mlx5_0/1", "link_downed");
        assertThat(CounterDelta.between(downs, legacy("link_downed", 255), legacy("link_downed", 3)).problem())
                .startsWith("at its maximum 255 in the earlier reading");
    }

    @Test
    void aCounterGoingBackwardsHasNoDelta() {
        CounterDelta d = CounterDelta.between(XMIT_DATA, legacy("port_xmit_data", 1000), legacy("port_xmit_data", 10));

        assertThat(d.amount()).isEmpty();
        assertThat(d.problem()).isEqualTo("went backwards from 1000 to 10 (reset or reloaded in between)");
    }

    @Test
    void unsignedCountersBeyondLongMaxSubtractAsUnsigned() {
        CounterKey hw = new CounterKey(Source.RDMA_PORT, "rxe0/1", "hw_counters/sent_pkts");
        assertThat(CounterDelta.between(hw, CounterReading.of(Long.MAX_VALUE - 5), CounterReading.of(Long.MIN_VALUE + 5))
                .amount()).hasValue(11);
    }

    @Test
    void aSocketOpenedDuringTheWindowCountsFromZeroAPortDoesNot() {
        assertThat(CounterDelta.between(SOCKET, null, CounterReading.of(5_000_000)).amount()).hasValue(5_000_000);
        assertThat(CounterDelta.between(XMIT_DATA, null, legacy("port_xmit_data", 9)).problem())
                .isEqualTo("absent in the first sample");
        assertThat(CounterDelta.between(SOCKET, CounterReading.of(7), null).problem()).isEqualTo("gone by the second sample");
    }

    @Test
    void theWindowKeepsItsRealLengthAndEveryKeyOfBothSamples() {
        CounterSnapshot before = new CounterSnapshot.Builder(1_000_000_000L, Instant.EPOCH)
                .put(XMIT_DATA, legacy("port_xmit_data", 100)).unreadable("ss", "nsenter not found under the host root").build();
        CounterSnapshot after = new CounterSnapshot.Builder(3_500_000_000L, Instant.EPOCH.plusMillis(2500))
                .put(XMIT_DATA, legacy("port_xmit_data", 600)).put(SOCKET, CounterReading.of(2_500_000)).build();
        CounterWindow window = new CounterWindow(before, after);

        assertThat(window.length()).isEqualTo(Duration.ofMillis(2500));
        assertThat(window.deltas(Source.RDMA_PORT)).containsOnlyKeys(XMIT_DATA);
        assertThat(window.perSecond(window.delta(XMIT_DATA).amount().getAsLong())).isEqualTo(800.0);
        assertThat(window.perSecond(window.deltas(Source.TCP_SOCKET).get(SOCKET).amount().getAsLong())).isEqualTo(1_000_000.0);
        assertThat(window.unreadable()).containsEntry("ss", "nsenter not found under the host root");
    }

    @Test
    void theSamplerReadsTwiceAroundItsPause() {
        long[] reads = {0};
        CounterWindow window = CounterSampler.sample(() -> new CounterSnapshot.Builder(System.nanoTime(), Instant.now())
                        .put(XMIT_DATA, legacy("port_xmit_data", 1000 * ++reads[0])).build(),
                Duration.ofSeconds(10), w -> assertThat(w).isEqualTo(Duration.ofSeconds(10)));

        assertThat(reads[0]).isEqualTo(2);
        assertThat(window.delta(XMIT_DATA).amount()).hasValue(4000);
    }
}
