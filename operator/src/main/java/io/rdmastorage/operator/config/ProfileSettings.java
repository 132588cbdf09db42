package io.rdmastorage.operator.config;

import io.rdmastorage.contract.spec.ProbeSpec;
import io.rdmastorage.contract.spec.Rules;
import io.rdmastorage.operator.api.RdmaStorageProfileSpec;
import io.rdmastorage.operator.measurement.Lifecycle;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A profile's scheduling and node-marking options with their defaults applied: the one place
 * where the defaults of DESIGN.md live (the CRD schema states the same defaults for kubectl users).
 */
public record ProfileSettings(Duration interval, Duration probeTimeout, int maxConcurrentProbes,
                              boolean nodeLabels, boolean taintNotReady, boolean nodeCondition, Duration trafficWindow,
                              StartupTaint startupTaint) {

    /** Without a traffic section (no sampling window) and without a startup taint. */
    public ProfileSettings(Duration interval, Duration probeTimeout, int maxConcurrentProbes,
                           boolean nodeLabels, boolean taintNotReady, boolean nodeCondition) {
        this(interval, probeTimeout, maxConcurrentProbes, nodeLabels, taintNotReady, nodeCondition, Duration.ZERO, null);
    }

    public static final Duration DEFAULT_INTERVAL = Duration.ofMinutes(15);
    public static final Duration DEFAULT_PROBE_TIMEOUT = Duration.ofMinutes(3);
    public static final int DEFAULT_MAX_CONCURRENT_PROBES = 20;
    /** A result older than this many intervals is no longer trusted (ResultExpired). */
    public static final int EXPIRY_INTERVALS = 3;

    /** Go-style durations as Kubernetes writes them: 90s, 15m, 1h30m, 500ms. */
    private static final Pattern PART = Pattern.compile("([0-9]+)(ms|s|m|h)");

    public static ProfileSettings of(RdmaStorageProfileSpec spec) {
        return new ProfileSettings(
                spec.getInterval() == null ? DEFAULT_INTERVAL : parseDuration(spec.getInterval()),
                spec.getProbeTimeout() == null ? DEFAULT_PROBE_TIMEOUT : parseDuration(spec.getProbeTimeout()),
                spec.getMaxConcurrentProbes() == null ? DEFAULT_MAX_CONCURRENT_PROBES : spec.getMaxConcurrentProbes(),
                Boolean.TRUE.equals(spec.getNodeLabels()),
                Boolean.TRUE.equals(spec.getTaintNotReady()),
                Boolean.TRUE.equals(spec.getNodeCondition()),
                trafficWindow(spec),
                StartupTaint.of(spec.getStartupTaint()));
    }

    /**
     * How long the node's own probe may take: probeTimeout for its tools, plus the traffic window
     * it spends waiting between its two counter readings (the pod's activeDeadlineSeconds, and when
     * the operator stops waiting for it).
     */
    public Duration nodeProbeTimeout() {
        return probeTimeout.plus(trafficWindow);
    }

    private static Duration trafficWindow(RdmaStorageProfileSpec spec) {
        if (spec.getTraffic() == null) {
            return Duration.ZERO;
        }
        String window = spec.getTraffic().getWindow() == null ? ProbeSpec.Traffic.DEFAULT_WINDOW : spec.getTraffic().getWindow();
        // the CRD schema admits only windows Rules reads; anything else is a bug upstream of us
        return Rules.windowDuration(window).orElseThrow(() -> new IllegalArgumentException("not a traffic window: " + window));
    }

    /** When a verdict stops being trusted. */
    public Duration expiry() {
        return interval.multipliedBy(EXPIRY_INTERVALS);
    }

    /** The profile's measurements' schedule: a round every interval, a result that counts for the expiry. */
    public Lifecycle.Schedule schedule() {
        return Lifecycle.Schedule.every(interval, expiry());
    }

    /** Parses a duration the CRD schema accepted; anything else is a bug upstream of us. */
    public static Duration parseDuration(String text) {
        if (!text.matches(RdmaStorageProfileSpec.DURATION_PATTERN)) {
            throw new IllegalArgumentException("not a duration such as 15m or 1h30m: " + text);
        }
        Duration total = Duration.ZERO;
        Matcher m = PART.matcher(text);
        while (m.find()) {
            long n = Long.parseLong(m.group(1));
            total = total.plus(switch (m.group(2)) {
                case "ms" -> Duration.ofMillis(n);
                case "s" -> Duration.ofSeconds(n);
                case "m" -> Duration.ofMinutes(n);
                default -> Duration.ofHours(n);
            });
        }
        return total;
    }
}
