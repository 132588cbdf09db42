package io.rdmastorage.probe.parse;

import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The mlx5 kernel-log lines that tell an HCA is failing while its ports may still read ACTIVE,
 * taken from the driver's own messages (mlx5_core's health.c, cmd.c, main.c, events.c and the
 * Ethernet reporters): fatal ones (the health poll lost the firmware or the PCIe link, the firmware
 * reported an error of severity ERROR or worse, the driver entered its error state, its recovery
 * failed, a firmware command timed out, the device never initialised), warnings (power, temperature,
 * a firmware notice, a late command, a stalled transmit queue) and the driver's own word that a
 * recovery succeeded. Boot notices, cable and link events and routine command failures carry no
 * signature. mlx5_core prefixes its lines with the PCIe function, and the netdev for the Ethernet
 * part ({@code mlx5_core 0000:61:00.0 ens1f0: ...}); its error macros add a call-site whose form
 * changed across kernels ({@code 0000:03:00.0:func:438:(pid 6016): }, {@code func:834:(pid 0): },
 * since about 6.17 {@code func:803: }), which is passed over for matching and kept in the text. The
 * transmit watchdog names the netdev and driver ({@code NETDEV WATCHDOG: ens1f0 (mlx5_core):
 * transmit queue 3 timed out}, or since 6.x {@code mlx5_core 0000:61:00.0 ens1f0: NETDEV WATCHDOG:
 * CPU: 3: transmit queue 0 timed out 5010 ms}).
 */
public final class Mlx5LogSignatures {

    /** How bad a signature is; RECOVERED is the driver saying a device it had lost works again. */
    public enum Severity { FATAL, WARNING, RECOVERED }

    /** One kind of signature: what it means, in a few words, and how bad. */
    public enum Kind {
        HEALTH_COMPROMISED(Severity.FATAL, "health compromised", "the firmware stopped answering the driver's health poll"),
        FATAL_ERROR(Severity.FATAL, "fatal error", "the driver's health poll detected a fatal error (PCI reads failing, the "
                + "PCI channel offline, the NIC interface disabled or reset, or the firmware asking for a reset)"),
        PCI_LOST(Severity.FATAL, "PCIe link lost", "the device is unreachable over PCIe (its registers read all ones, or "
                + "the PCIe error handler took it out of service)"),
        FIRMWARE_ERROR(Severity.FATAL, "firmware error", "the firmware reported a health issue of severity ERROR or worse"),
        UNRECOVERABLE_ERROR(Severity.FATAL, "unrecoverable hardware error", "the device reported an unrecoverable hardware error"),
        ERROR_STATE(Severity.FATAL, "error state", "the driver put the device in its error state and is tearing it down"),
        RECOVERY_FAILED(Severity.FATAL, "recovery failed", "the driver's recovery of the device failed: it stays down until "
                + "a reset or a power cycle"),
        COMMAND_TIMEOUT(Severity.FATAL, "command timeout", "a firmware command timed out and leaked its command resource: the command interface is stuck"),
        PROBE_FAILED(Severity.FATAL, "initialisation failed", "the device failed to initialise (the firmware never became "
                + "ready, or its registers are missing)"),
        INSUFFICIENT_POWER(Severity.WARNING, "insufficient PCIe slot power", "the PCIe slot does not supply the power the card needs"),
        MODULE_HIGH_TEMPERATURE(Severity.WARNING, "module high temperature", "a cable module reports a high temperature"),
        MODULE_ERROR(Severity.WARNING, "cable module error", "a cable module reports an error (power budget exceeded, bus stuck, ...)"),
        DEVICE_HIGH_TEMPERATURE(Severity.WARNING, "device high temperature", "the device's own sensors report a high temperature: "
                + "the firmware shuts it down if it goes on"),
        FIRMWARE_WARNING(Severity.WARNING, "firmware health notice", "the firmware reported a health issue below severity ERROR"),
        COMMAND_LATE(Severity.WARNING, "late command completion", "a firmware command completed only after its timeout: the "
                + "firmware is slow to answer"),
        TX_TIMEOUT(Severity.WARNING, "transmit queue timed out", "a transmit queue stalled (NETDEV WATCHDOG)"),
        RECOVERED(Severity.RECOVERED, "recovered", "the driver recovered the device");

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
    /** The call-site mlx5's error macros put before a message, in each kernel's form. */
    private static final Pattern CALL_SITE = Pattern.compile(
            "(?:[0-9a-fA-F]{4}:[0-9a-fA-F]{2}:[0-9a-fA-F]{2}\\.[0-7]:)?[A-Za-z_][A-Za-z0-9_]*:[0-9]+:(?:\\(pid [0-9]+\\):)? ?");
    private static final Pattern OLD_WATCHDOG = Pattern.compile(
            "NETDEV WATCHDOG: (?<netdev>\\S+) \\(mlx5_core\\): (?<text>transmit queue [0-9]+ timed out.*)");
    /** In order: the first that matches a message (with its call-site passed over) names its kind. */
    private static final List<Signature> SIGNATURES = List.of(
            new Signature(Kind.HEALTH_COMPROMISED, "device's health compromised.*"),
            new Signature(Kind.FATAL_ERROR, "Fatal error [0-9]+ detected"),
            new Signature(Kind.PCI_LOST, "PCI slot is unavailable|(?:firmware version: |fw_ver )65535\\.65535\\.65535"
                    + "|mlx5_pci_err_detected (?:was called|Device state = .*)"),
            new Signature(Kind.FIRMWARE_ERROR, "Health issue observed, .*, severity\\([0-3]\\) .*"),
            new Signature(Kind.FIRMWARE_WARNING, "Health issue observed, .*, severity\\([4-7]\\) .*"),
            new Signature(Kind.UNRECOVERABLE_ERROR, "(?i).*unrecoverable hardware error.*"),
            new Signature(Kind.RECOVERY_FAILED, "(?:health recovery|reset reload) flow aborted, PCI reads still not working"
                    + "|health recovery failed|Cold reset is required|Driver is in error state\\. Unloading"),
            new Signature(Kind.ERROR_STATE, "NIC IFC still [0-9]+ after [0-9]+ms\\.?|handling bad device here|starting teardown"
                    + "|NIC SW reset in progress|Expected to see disabled NIC but it is .*|(?:new )?health works are not "
                    + "permitted at this stage"),
            new Signature(Kind.COMMAND_TIMEOUT, "(?:cmd\\[[0-9]+\\]: )?[A-Z0-9_]+\\(0x[0-9a-f]+\\) (?:Async, )?(?:No done "
                    + "completion|timeout\\. Will cause a leak of a command resource|canceled on out of queue timeout\\."
                    + "|timeout while waiting for command semaphore\\.)"),
            new Signature(Kind.PROBE_FAILED, "Firmware over [0-9]+ MS in .*state, aborting|(?:mlx5_init_one|mlx5_load_one"
                    + "|mlx5_pci_init|init_one) failed with error code -?[0-9]+|Missing registers BAR, aborting|Failed "
                    + "initializing command interface, aborting|enable hca failed"),
            new Signature(Kind.INSUFFICIENT_POWER, "Detected insufficient power on the PCIe slot.*"),
            new Signature(Kind.MODULE_HIGH_TEMPERATURE, "Port module event.*High Temperature.*"),
            new Signature(Kind.MODULE_ERROR, "Port module event\\[error\\]: .*"),
            new Signature(Kind.DEVICE_HIGH_TEMPERATURE, "High temperature on sensors.*"),
            new Signature(Kind.COMMAND_LATE, "Command completion arrived after timeout.*|(?:cmd\\[[0-9]+\\]: )?[A-Z0-9_]+"
                    + "\\(0x[0-9a-f]+\\) (?:Async, )?recovered after timeout"),
            new Signature(Kind.TX_TIMEOUT, "NETDEV WATCHDOG: .*transmit queue [0-9]+ timed out.*|TX timeout detected"
                    + "|TX timeout on queue: .*"),
            new Signature(Kind.RECOVERED, "health recovery succeeded"));

    private record Signature(Kind kind, Pattern pattern) {
        Signature(Kind kind, String message) {
            this(kind, Pattern.compile(message));
        }
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
        Matcher site = CALL_SITE.matcher(text);
        String body = site.lookingAt() ? text.substring(site.end()) : text;
        for (Signature signature : SIGNATURES) {
            if (signature.pattern().matcher(body).matches()) {
                return Optional.of(new Hit(signature.kind(), Optional.of(m.group("bdf").toLowerCase(java.util.Locale.ROOT)),
                        Optional.ofNullable(m.group("netdev")), text));
            }
        }
        return Optional.empty();
    }
}
