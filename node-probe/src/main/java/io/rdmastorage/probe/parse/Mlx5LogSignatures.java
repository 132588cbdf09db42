package io.rdmastorage.probe.parse;

import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The mlx5 kernel-log lines that tell an HCA is failing while its ports may still read ACTIVE
 * (the signatures NVSentinel's syslog monitor and gpud watch): fatal ones (the firmware stopped
 * answering the health poll or commands) and warnings (power, temperature, a stalled transmit
 * queue). mlx5_core prefixes its lines with the PCIe function, and the netdev for the Ethernet
 * part ({@code mlx5_core 0000:61:00.0 ens1f0: ...}); the transmit watchdog names the netdev and
 * driver ({@code NETDEV WATCHDOG: ens1f0 (mlx5_core): transmit queue 3 timed out}, or since 6.x
 * {@code mlx5_core 0000:61:00.0 ens1f0: NETDEV WATCHDOG: CPU: 3: transmit queue 0 timed out 5010 ms}).
 */
public final class Mlx5LogSignatures {

    public enum Severity { FATAL, WARNING }

    /** One kind of signature: what it means, in a few words, and how bad. */
    public enum Kind {
        HEALTH_COMPROMISED(Severity.FATAL, "health compromised", "the firmware stopped answering the driver's health poll"),
        UNRECOVERABLE_ERROR(Severity.FATAL, "unrecoverable hardware error", "the device reported an unrecoverable hardware error"),
        COMMAND_TIMEOUT(Severity.FATAL, "command timeout", "a firmware command timed out and leaked its command resource: the command interface is stuck"),
        INSUFFICIENT_POWER(Severity.WARNING, "insufficient PCIe slot power", "the PCIe slot does not supply the power the card needs"),
        MODULE_HIGH_TEMPERATURE(Severity.WARNING, "module high temperature", "a cable module reports a high temperature"),
        TX_TIMEOUT(Severity.WARNING, "transmit queue timed out", "a transmit queue stalled (NETDEV WATCHDOG)");

        private final Severity severity;
        private final String label;
        private final String meaning;

        Kind(Severity severity, String label, String meaning) {
            this.severity = severity;
            this.label = label;
            this.meaning = meaning;
        }

        public Severity severity() {
            return severity;
        }

        public String label() {
            return label;
        }

        public String meaning() {
            return meaning;
        }
    }

    /**
     * One matched line.
     *
     * @param bdf    the PCIe function the line names ({@code 0000:61:00.0}); empty when it names only a netdev
     * @param netdev the netdev it names; empty when it names none
     * @param text   the line without the driver's prefix
     */
    public record Hit(Kind kind, Optional<String> bdf, Optional<String> netdev, String text) {
    }

    private static final Pattern PREFIX = Pattern.compile(
            "mlx5_core (?<bdf>[0-9a-fA-F]{4}:[0-9a-fA-F]{2}:[0-9a-fA-F]{2}\\.[0-7])(?: (?<netdev>[^\\s:]+))?: (?<text>.*)");
    private static final Pattern OLD_WATCHDOG = Pattern.compile(
            "NETDEV WATCHDOG: (?<netdev>\\S+) \\(mlx5_core\\): (?<text>transmit queue [0-9]+ timed out.*)");
    private static final List<Signature> SIGNATURES = List.of(
            new Signature(Kind.HEALTH_COMPROMISED, Pattern.compile("health compromised")),
            new Signature(Kind.UNRECOVERABLE_ERROR, Pattern.compile("unrecoverable hardware error", Pattern.CASE_INSENSITIVE)),
            new Signature(Kind.COMMAND_TIMEOUT, Pattern.compile("timeout\\. Will cause a leak of a command resource")),
            new Signature(Kind.INSUFFICIENT_POWER, Pattern.compile("Detected insufficient power on the PCIe slot")),
            new Signature(Kind.MODULE_HIGH_TEMPERATURE, Pattern.compile("Port module event.*High Temperature")),
            new Signature(Kind.TX_TIMEOUT, Pattern.compile("NETDEV WATCHDOG: .*transmit queue [0-9]+ timed out")));

    private record Signature(Kind kind, Pattern pattern) {
    }

    private Mlx5LogSignatures() {
    }

    /** The signature a kernel-log message carries, if it is one of an mlx5 device. */
    public static Optional<Hit> match(String message) {
        Matcher old = OLD_WATCHDOG.matcher(message);
        if (old.matches()) {
            return Optional.of(new Hit(Kind.TX_TIMEOUT, Optional.empty(), Optional.of(old.group("netdev")), old.group("text")));
        }
        Matcher m = PREFIX.matcher(message);
        if (!m.matches()) {
            return Optional.empty();
        }
        String text = m.group("text");
        for (Signature signature : SIGNATURES) {
            if (signature.pattern().matcher(text).find()) {
                return Optional.of(new Hit(signature.kind(), Optional.of(m.group("bdf").toLowerCase(java.util.Locale.ROOT)),
                        Optional.ofNullable(m.group("netdev")), text));
            }
        }
        return Optional.empty();
    }
}
