package io.rdmastorage.probe.check;

import static io.rdmastorage.contract.checks.RdmaPortErrors.*;

import io.rdmastorage.contract.CheckType;
import io.rdmastorage.contract.Status;
import io.rdmastorage.contract.checks.RdmaPortErrors.Counter;
import io.rdmastorage.contract.spec.CounterBaseline;
import io.rdmastorage.contract.spec.DevicePort;
import io.rdmastorage.contract.spec.InvalidSpecException;
import io.rdmastorage.contract.spec.ProbeSpec;
import io.rdmastorage.probe.counters.CounterDelta;
import io.rdmastorage.probe.counters.CounterKey;
import io.rdmastorage.probe.counters.CounterReading;
import io.rdmastorage.probe.counters.PortErrorCounters;
import io.rdmastorage.probe.host.HostRoot;
import io.rdmastorage.probe.ports.PortView;
import io.rdmastorage.probe.ports.RdmaPort;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Errors between two rounds: each RDMA port's error counters ({@link Counter}) now against the
 * previous round's reading, which the operator hands over ({@link CounterBaseline}), as rates per
 * hour against the {@code portErrors} bounds (NVIDIA NVSentinel's rules by default). The window of
 * RdmaTraffic is seconds long; a link that flapped between two rounds shows only here.
 *
 * <p>No delta is ever computed where the counters cannot give one: without a baseline (the first
 * round), after a reboot (the boot id changed: counters start again), for a port that appeared, a
 * counter at its legacy maximum or lower than before, the check is Unknown and says so. This
 * round's reading is always in the details ({@code baseline}): the next round's baseline.
 */
public final class RdmaPortErrorsCheck extends FactsCheck<RdmaPortErrorsCheck.Facts> {

    static final String BOOT_ID = "/proc/sys/kernel/random/boot_id";
    private static final List<String> REASON_ORDER = List.of(LINK_ERRORS_BETWEEN_ROUNDS, RNR_RETRIES_EXCEEDED,
            ERROR_RATE_ABOVE_LIMIT, NO_COUNTER_DELTA, NO_COUNTER_BASELINE);

    /**
     * What the host showed, and what the operator handed over.
     *
     * @param bootId   the host's boot id; empty when it cannot be read
     * @param readAt   when the counters were read
     * @param ports    port ({@code mlx5_0/1}) → its error counters now
     * @param baseline the previous round's reading; empty on a first round
     * @param refused  why the handed baseline was not read ("" when it was, or none was handed)
     */
    public record Facts(String hostRoot, boolean sysfsVisible, boolean procfsVisible, Optional<String> bootId, Instant readAt,
                        Map<String, PortErrorCounters.Port> ports, Optional<CounterBaseline> baseline, String refused) {
        public Facts {
            ports = new LinkedHashMap<>(ports);
        }
    }

    @Override
    public CheckType type() {
        return CheckType.RDMA_PORT_ERRORS;
    }

    /** Only where the profile asks: without the operator's baseline there is nothing to compare with. */
    @Override
    public boolean applies(ProbeContext context) {
        return context.spec().portErrors() != null;
    }

    @Override
    protected Facts gather(ProbeContext context) {
        HostRoot host = context.host();
        PortView view = context.ports();
        boolean sysfs = view.sysfsVisible();
        boolean procfs = HostView.PROCFS.visible(host);
        Optional<CounterBaseline> baseline = Optional.empty();
        String refused = "";
        if (context.counterBaseline().isPresent()) {
            try {
                baseline = Optional.of(CounterBaseline.read(context.counterBaseline().get()));
            } catch (InvalidSpecException e) {
                refused = e.getMessage();
            }
        }
        // the probe's start: a reading a fraction of a second later changes no rate per hour
        Instant readAt = context.now().truncatedTo(ChronoUnit.SECONDS);
        if (!sysfs || !procfs) {
            return new Facts(host.root().toString(), sysfs, procfs, Optional.empty(), readAt, Map.of(), baseline, refused);
        }
        List<DevicePort> judged = context.spec().portErrors().devices().isEmpty()
                ? view.ports().stream().map(RdmaPort::devicePort).toList() : context.spec().portErrors().devicePorts();
        Optional<String> bootId = host.readAttribute(BOOT_ID).map(String::strip).filter(s -> !s.isEmpty());
        return new Facts(host.root().toString(), true, true, bootId, readAt,
                PortErrorCounters.read(host, context.tools(), view, judged), baseline, refused);
    }

    @Override
    protected Judgement judge(Facts facts, ProbeSpec spec) {
        if (!facts.sysfsVisible()) {
            return Judgement.only(HostView.SYSFS.missing(facts.hostRoot()), new Details());
        }
        if (!facts.procfsVisible()) {
            return Judgement.only(HostView.PROCFS.missing(facts.hostRoot()), new Details());
        }
        return new RoundRules(facts, spec.portErrors()).judge();
    }

    @Override
    protected Findings.Mention mention() {
        return Findings.Mention.COUNTED;
    }

    @Override
    protected List<String> precedence() {
        return REASON_ORDER;
    }

    /** The rules over the time from the previous round's reading to this one's. */
    private static final class RoundRules {
        private final Facts facts;
        private final ProbeSpec.PortErrors spec;
        private final List<Finding> findings = new ArrayList<>();
        private final List<Map<String, Object>> grew = new ArrayList<>();

        RoundRules(Facts facts, ProbeSpec.PortErrors spec) {
            this.facts = facts;
            this.spec = spec;
        }

        Judgement judge() {
            Details details = new Details();
            if (facts.ports().isEmpty()) {
                return Judgement.only(Finding.of(Status.UNKNOWN, NO_COUNTER_DELTA, "no RDMA port to read error counters "
                        + "of (" + PortView.IB_CLASS + " lists none" + (spec.devices().isEmpty() ? "" : " of portErrors.devices")
                        + "); RdmaDevices says whether ports are expected"), details);
            }
            // this round's reading, the next round's baseline, whatever this round can judge
            if (facts.bootId().isEmpty()) {
                // not a wait that ends by itself: no delta can be trusted while this lasts
                return Judgement.only(Finding.of(Status.UNKNOWN, NO_COUNTER_DELTA, "the host's boot id (" + BOOT_ID
                        + ") cannot be read, so a reboot (counters starting again) cannot be told from counters that grew: "
                        + "no rates are judged and no baseline is kept; check the probe's /proc mount"), details);
            }
            CounterBaseline now = reading();
            details.put(BASELINE_DETAIL, now.wire());
            String ports = String.join(", ", facts.ports().keySet());
            if (facts.baseline().isEmpty()) {
                String why = facts.refused().isEmpty() ? "no reading of a previous round was handed to the probe (the first "
                        + "round, or the previous round's result was not kept)"
                        : "the previous round's reading handed to the probe was refused (" + facts.refused() + ")";
                return Judgement.only(Finding.of(Status.UNKNOWN, NO_COUNTER_BASELINE, why + ": no rates yet. This "
                        + "round's reading of " + ports + " is the baseline; the next round judges the error counters' "
                        + "growth since now", "no baseline"), details);
            }
            CounterBaseline before = facts.baseline().get();
            if (!before.bootId().equals(now.bootId())) {
                return Judgement.only(Finding.of(Status.UNKNOWN, NO_COUNTER_BASELINE, "the node rebooted since the previous "
                        + "round (boot id " + before.bootId() + " then, " + now.bootId() + " now): its counters started "
                        + "again, so no rates since " + before.readAt() + ". This round's reading is the new baseline",
                        "rebooted"), details);
            }
            Duration since = Duration.between(before.readAt(), now.readAt());
            if (since.isNegative() || since.isZero()) {
                return Judgement.only(Finding.of(Status.UNKNOWN, NO_COUNTER_BASELINE, "the previous round's reading is "
                        + "dated " + before.readAt() + ", not before this one's (" + now.readAt() + "): no rates can be "
                        + "worked out; this round's reading is the new baseline", "baseline not earlier"), details);
            }
            details.put("sinceSeconds", since.toSeconds());
            for (Map.Entry<String, PortErrorCounters.Port> port : facts.ports().entrySet()) {
                port(port.getKey(), port.getValue(), before, since);
            }
            for (String gone : before.ports().keySet()) {
                if (spec.devices().isEmpty() && !facts.ports().containsKey(gone)) {
                    findings.add(Finding.of(Status.UNKNOWN, NO_COUNTER_DELTA, gone + " was read by the previous round and "
                            + "is gone now: whether it took errors before it went cannot be told (RdmaDevices names "
                            + "missing ports); it leaves the baseline", gone + " gone"));
                }
            }
            details.list("grew", grew);
            String passed = ports + ": the error counters grew within their portErrors rates over the " + human(since)
                    + " since the previous round (same boot)" + (grew.isEmpty() ? ", none of them at all"
                    : ": " + String.join(", ", grew.stream().map(g -> g.get("port") + " " + g.get("counter") + " +"
                    + g.get("delta")).toList()));
            return Judgement.of(findings, Finding.passed(PORT_ERRORS_WITHIN_RATES, passed), details);
        }

        private CounterBaseline reading() {
            Map<String, List<Long>> ports = new LinkedHashMap<>();
            facts.ports().forEach((port, read) -> {
                Map<Counter, Long> values = new LinkedHashMap<>();
                read.counters().forEach((c, r) -> values.put(c, r.raw()));
                ports.put(port, CounterBaseline.values(values));
            });
            return new CounterBaseline(facts.bootId().get(), facts.readAt(), ports);
        }

        private void port(String port, PortErrorCounters.Port now, CounterBaseline before, Duration since) {
            if (!now.unreadable().isEmpty()) {
                findings.add(Finding.of(Status.UNKNOWN, NO_COUNTER_DELTA, port + ": its error counters cannot be read ("
                        + now.unreadable() + "), so its errors since the previous round are unknown", port + " unreadable"));
                return;
            }
            if (!before.ports().containsKey(port)) {
                findings.add(Finding.of(Status.UNKNOWN, NO_COUNTER_BASELINE, port + " was not read by the previous round "
                        + "(it appeared since, or portErrors.devices changed): this round's reading is its baseline",
                        port + " new"));
                return;
            }
            for (Counter c : Counter.values()) {
                counter(port, c, now.counters().get(c), before.value(port, c), since);
            }
        }

        private void counter(String port, Counter c, CounterReading now, OptionalLong before, Duration since) {
            if (now == null && before.isEmpty()) {
                return;   // the port has no such counter
            }
            if (before.isEmpty()) {
                findings.add(Finding.of(Status.UNKNOWN, NO_COUNTER_BASELINE, port + ": " + c.wire() + " was not in the previous "
                        + "round's reading: this round's value is its baseline", port + " " + c.wire() + " new"));
                return;
            }
            if (now == null) {
                findings.add(Finding.of(Status.UNKNOWN, NO_COUNTER_DELTA, port + ": " + c.wire() + " was read by the previous "
                        + "round and cannot be read now, so its growth is unknown", port + " " + c.wire() + " unreadable"));
                return;
            }
            // the previous value saturates where the present one does: the same file
            CounterDelta d = CounterDelta.between(new CounterKey(CounterKey.Source.RDMA_PORT, port, c.wire()),
                    new CounterReading(before.getAsLong(), now.saturatesAt(), now.unit()), now);
            if (!d.known()) {
                findings.add(Finding.of(Status.UNKNOWN, NO_COUNTER_DELTA, port + ": " + c.wire() + " has no delta since the "
                        + "previous round: " + d.problem() + "; this round's value is the new baseline",
                        port + " " + c.wire() + " no delta"));
                return;
            }
            long delta = d.amount().getAsLong();
            if (delta == 0) {
                return;
            }
            double perHour = delta * 3600.0 / since.toSeconds();
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("port", port);
            row.put("counter", c.wire());
            row.put("delta", delta);
            row.put("perHour", Math.round(perHour * 10) / 10.0);
            grew.add(row);
            int max = spec.maxPerHour(c);
            if (perHour > max) {
                findings.add(Finding.of(Status.FALSE, c.reason(), String.format(Locale.ROOT, "%s: %s grew by %,d in the %s "
                        + "since the previous round (%.1f per hour, above portErrors.%s %,d): %s", port, c.wire(), delta,
                        human(since), perHour, c.field(), max, meaning(c)), port + " " + c.wire() + " +" + delta)
                        .onDevice(DevicePort.parse(port).device()));
            }
        }

        /** What the growth means and where to look. */
        private static String meaning(Counter c) {
            return switch (c) {
                case LINK_DOWNED -> "the link went down between the rounds (a flap: every QP on it failed); check the "
                        + "cable, transceiver and switch port (`ibdiagnet`, the switch's log)";
                case EXCESSIVE_BUFFER_OVERRUN_ERRORS -> "the port's receive buffer overran: the lossless contract was "
                        + "broken and packets were dropped; check the link's flow control and the cable";
                case LOCAL_LINK_INTEGRITY_ERRORS -> "the link's physical errors exceeded the port's LocalPhyErrors limit: "
                        + "it runs outside its specification; reseat or replace the cable or transceiver";
                case SYMBOL_ERROR -> "more symbol errors than the IBTA's 10^-12 bit error rate allows (120 per hour): the "
                        + "link degrades before FEC gives up; reseat or replace the cable or transceiver";
                case RNR_NAK_RETRY_ERR -> "a requester exhausted its RNR retries and its connection was severed: a peer "
                        + "posted no receive buffers in time (an overloaded storage client or server); find the QP's "
                        + "peer with `rdma resource show qp`";
                case CARRIER_CHANGES -> "the netdev's carrier went down and up more often than allowed: the Ethernet link "
                        + "flaps; check the cable, transceiver and switch port";
                default -> "the link or the fabric degrades (link retraining, malformed packets, ACK timeouts, discards "
                        + "under congestion); compare with the switch port's counters and RdmaTraffic's window";
            };
        }
    }

    /** "15 min", "2 h 5 min", "40 s". */
    static String human(Duration d) {
        long s = d.toSeconds();
        if (s < 120) {
            return s + " s";
        }
        long minutes = s / 60;
        return minutes < 120 ? minutes + " min" : minutes / 60 + " h " + minutes % 60 + " min";
    }
}
