package io.rdmastorage.probe.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** The latency options of the command line: their defaults, their ranges and which command takes which. */
class CliArgumentsTest {

    private static CliArguments parse(String... args) throws UsageException {
        return CliArguments.parse(List.of(args));
    }

    @Test
    void latencyDefaultsArePerftestsPortAllAddressesAndTwentySeconds() throws Exception {
        CliArguments server = parse("latency-server");
        CliArguments client = parse("latency-client", "--peer", "10.10.0.12");

        assertThat(server.tcpPort()).isEqualTo(18515).isEqualTo(client.tcpPort());
        assertThat(server.bind()).isEmpty();
        assertThat(client.connectTimeout()).isEqualTo(Duration.ofSeconds(20));
        assertThat(parse().tcpPort()).isEqualTo(CliArguments.DEFAULT_TCP_PORT);
    }

    @Test
    void serverTakesPortAndBindAddress() throws Exception {
        CliArguments cli = parse("latency-server", "--tcp-port=20000", "--bind", "127.1.0.3");

        assertThat(cli.tcpPort()).isEqualTo(20000);
        assertThat(cli.bind()).contains("127.1.0.3");
        assertThat(parse("latency-server", "--bind=fe80::1").bind()).contains("fe80::1");
    }

    @Test
    void clientTakesPortAndConnectTimeout() throws Exception {
        CliArguments cli = parse("latency-client", "--peer", "127.1.0.3", "--tcp-port", "65534", "--connect-timeout", "500ms");

        assertThat(cli.tcpPort()).isEqualTo(65534);
        assertThat(cli.connectTimeout()).isEqualTo(Duration.ofMillis(500));
        assertThat(parse("latency-client", "--peer", "10.0.0.1", "--tcp-port", "1024").tcpPort()).isEqualTo(1024);
    }

    @ParameterizedTest
    @ValueSource(strings = {"1023", "65535", "0", "-1", "18515x", "", "99999999999", "0x4853"})
    void tcpPortOutsideItsRangeIsRefused(String port) {
        assertThatThrownBy(() -> parse("latency-server", "--tcp-port=" + port))
                .isInstanceOf(UsageException.class)
                .hasMessageStartingWith("--tcp-port: '" + port + "' must be a TCP port between 1024 and 65534");
    }

    @Test
    void bindMustBeAnAddressLiteral() {
        assertThatThrownBy(() -> parse("latency-server", "--bind", "gpu-01"))
                .isInstanceOf(UsageException.class)
                .hasMessage("--bind: 'gpu-01' must be an IPv4 or IPv6 address");
    }

    @Test
    void connectTimeoutIsADuration() {
        assertThatThrownBy(() -> parse("latency-client", "--peer", "10.0.0.1", "--connect-timeout", "20"))
                .isInstanceOf(UsageException.class)
                .hasMessage("--connect-timeout: '20' must be a positive duration such as 30s, 500ms or 2m");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "check|--tcp-port=20000|--tcp-port is only for latency-server, latency-client, acceptance-server and acceptance-client",
            "check|--bind=10.0.0.1|--bind is only for latency-server",
            "latency-client --peer 10.0.0.2|--bind=10.0.0.1|--bind is only for latency-server",
            "check|--connect-timeout=5s|--connect-timeout is only for latency-client and acceptance-client",
            "latency-server|--connect-timeout=5s|--connect-timeout is only for latency-client and acceptance-client",
            "latency-server|--peer=10.0.0.1|--peer is only for latency-client and acceptance-client",
            "latency-server|--counter-baseline={}|--counter-baseline is only for check"})
    void latencyOptionsAreRefusedWhereTheyMeanNothing(String command, String option, String message) {
        String[] words = (command + " " + option).split(" ");

        assertThatThrownBy(() -> parse(words)).isInstanceOf(UsageException.class).hasMessage(message);
    }

    @Test
    void usageNamesTheNewOptions() {
        assertThat(CliArguments.USAGE).contains("--tcp-port N").contains("--bind ADDR").contains("--connect-timeout DUR")
                .contains("ib_write_lat -p");
    }

    @Test
    void theNodesOwnCheckTakesThePreviousRoundsCounterBaselineAsOneArgument() throws Exception {
        String baseline = "{\"bootId\":\"b\",\"readAt\":\"2026-05-01T10:00:00Z\",\"ports\":{\"mlx5_0/1\":[0,-1]}}";

        // as the operator's probe pod passes it: no command word, the document as the next argv element
        assertThat(CliArguments.parse(List.of("--host-root", "/host", "--counter-baseline", baseline)).counterBaseline())
                .hasValue(baseline);
        assertThat(CliArguments.parse(List.of("check")).counterBaseline()).isEmpty();
    }
}
