package io.rdmastorage.probe.parse;

import static org.assertj.core.api.Assertions.assertThat;

import io.rdmastorage.probe.parse.Mlx5LogSignatures.Hit;
import io.rdmastorage.probe.parse.Mlx5LogSignatures.Kind;
import io.rdmastorage.probe.testing.Samples;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class Mlx5LogSignaturesTest {

    private static final String SAMPLE = "kmsg/dev-kmsg_mlx5-fault-signatures_ucx-7738.txt";

    @Test
    void kmsgRecordsAreReadWithTheirTimeAndTheDictionaryLinesSkipped() {
        List<Kmsg.Record> records = Kmsg.parse(Samples.body(SAMPLE));

        assertThat(records).hasSize(9);
        assertThat(records.get(1)).isEqualTo(new Kmsg.Record(3, 8812, 3_600_120_455L,
                "mlx5_core 0000:61:00.0: poll_health:834:(pid 0): device's health compromised - reached miss count"));
    }

    @Test
    void eachSignatureIsFoundWithItsFunctionOrNetdevAndOtherLinesAreNot() {
        List<Optional<Hit>> hits = Kmsg.parse(Samples.body(SAMPLE)).stream().map(r -> Mlx5LogSignatures.match(r.message())).toList();

        assertThat(hits.stream().map(h -> h.map(Hit::kind).orElse(null)).toList()).containsExactly(null,
                Kind.HEALTH_COMPROMISED, null, Kind.COMMAND_TIMEOUT, Kind.COMMAND_TIMEOUT, Kind.INSUFFICIENT_POWER,
                Kind.MODULE_HIGH_TEMPERATURE, Kind.TX_TIMEOUT, null);
        assertThat(hits.get(3).orElseThrow().bdf()).contains("0000:61:00.0");
        assertThat(hits.get(3).orElseThrow().text()).isEqualTo("wait_func:1132:(pid 141181): CREATE_DCT(0x710) timeout. "
                + "Will cause a leak of a command resource");
        assertThat(hits.get(7).orElseThrow().bdf()).isEmpty();
        assertThat(hits.get(7).orElseThrow().netdev()).contains("ens1f0np0");
    }

    @Test
    void theNewWatchdogFormatOfAnMlx5NetdevIsATxTimeout() {
        Hit hit = Mlx5LogSignatures.match("mlx5_core 0000:3b:00.1 ens1f1np1: NETDEV WATCHDOG: CPU: 3: transmit queue 7 timed out 5120 ms")
                .orElseThrow();

        assertThat(hit.kind()).isEqualTo(Kind.TX_TIMEOUT);
        assertThat(hit.bdf()).contains("0000:3b:00.1");
        assertThat(hit.netdev()).contains("ens1f1np1");
    }

    @Test
    void uptimeIsReadInMicroseconds() {
        assertThat(Kmsg.uptimeMicros("350735.47 234388.90\n")).hasValue(350_735_470_000L);
        assertThat(Kmsg.uptimeMicros("garbage")).isEmpty();
    }
}
