package io.rdmastorage.probe.check;

import static io.rdmastorage.contract.checks.RdmaDevices.DEVICE_FATAL_LOGGED;
import static io.rdmastorage.contract.checks.RdmaDevices.DEVICE_WARNING_LOGGED;
import static io.rdmastorage.contract.checks.RdmaDevices.KERNEL_LOG_UNREADABLE;

import io.rdmastorage.contract.Status;
import io.rdmastorage.contract.spec.ProbeSpec;
import io.rdmastorage.probe.host.HostRoot;
import io.rdmastorage.probe.host.KernelLog;
import io.rdmastorage.probe.parse.Kmsg;
import io.rdmastorage.probe.parse.Mlx5LogSignatures;
import io.rdmastorage.probe.parse.Mlx5LogSignatures.Hit;
import io.rdmastorage.probe.parse.Mlx5LogSignatures.Kind;
import io.rdmastorage.probe.parse.Mlx5LogSignatures.Severity;
import io.rdmastorage.probe.ports.PortView;
import io.rdmastorage.probe.ports.RdmaDevice;
import io.rdmastorage.probe.ports.RdmaPort;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * RdmaDevices' kernel-log part: the mlx5 fault signatures ({@link Mlx5LogSignatures}) the host's
 * kernel log holds within {@code rdma.kernelLogWindow} (default: the profile's interval, standing
 * in for "since the previous round"), each named with its line, its RDMA device and its time.
 * An HCA whose firmware stopped answering still shows its ports ACTIVE: the log is the evidence.
 */
public final class RdmaKernelLog {

    /**
     * What the host's log shows.
     *
     * @param hidden    the parts of the host the log and uptime live on that the probe cannot see (/dev, /proc)
     * @param failure   why the log could not be read; empty when it was
     * @param uptimeUs  the host's uptime when the log was read, in µs; empty when /proc/uptime cannot be read
     * @param now       the probe's time, to say when a line was logged
     * @param entries   the records with an mlx5 signature, oldest first (the whole log: the window is the spec's)
     * @param devices   PCIe function or netdev → the RDMA device it belongs to
     * @param computeNics the devices {@code rdma.storageNics} leaves out: their lines are not storage's concern
     */
    public record Facts(Set<HostView> hidden, Optional<String> failure, OptionalLong uptimeUs, Instant now, List<Entry> entries,
                        Map<String, String> devices, Set<String> computeNics) {

        public Facts {
            hidden = Set.copyOf(hidden);
            entries = List.copyOf(entries);
            devices = Map.copyOf(devices);
            computeNics = Set.copyOf(computeNics);
        }

        /** Without compute NICs: every RDMA device carries storage. */
        public Facts(Set<HostView> hidden, Optional<String> failure, OptionalLong uptimeUs, Instant now, List<Entry> entries,
                     Map<String, String> devices) {
            this(hidden, failure, uptimeUs, now, entries, devices, Set.of());
        }

        /** A log read whole with nothing in it: the facts of a host whose HCAs logged nothing. */
        static Facts quiet() {
            return new Facts(Set.of(), Optional.empty(), OptionalLong.of(3_600_000_000L), Instant.EPOCH, List.of(), Map.of());
        }
    }

    /** One signature line: its record (for its time) and what it says. */
    public record Entry(Kmsg.Record record, Hit hit) {
    }

    private RdmaKernelLog() {
    }

    /** The log's signatures, with every RDMA device of the host ({@code all}) to name them by. */
    static Facts gather(HostRoot host, PortView all, List<String> computeNics, Instant now) {
        KernelLog log = KernelLog.read(host);
        Map<String, String> devices = new LinkedHashMap<>();
        for (RdmaDevice device : all.devices()) {
            devices.put(device.bdf(), device.name());
            for (RdmaPort port : device.ports()) {
                port.netdev().ifPresent(n -> devices.putIfAbsent(n, device.name()));
                port.ethernetPorts().forEach(n -> devices.putIfAbsent(n, device.name()));
            }
        }
        List<Entry> entries = new ArrayList<>();
        log.records().ifPresent(text -> {
            for (Kmsg.Record record : Kmsg.parse(text)) {
                Mlx5LogSignatures.match(record.message()).ifPresent(hit -> entries.add(new Entry(record, hit)));
            }
        });
        OptionalLong uptime = log.uptime().map(Kmsg::uptimeMicros).orElse(OptionalLong.empty());
        return new Facts(HostView.missing(host, HostView.DEV, HostView.PROCFS), log.failure(), uptime, now, entries, devices,
                Set.copyOf(computeNics));
    }

    /**
     * One finding per device and kind of signature seen in the window, naming its latest line;
     * Unknown when the log or the host's uptime cannot be read. With {@code rdma.devices}, lines of
     * other RDMA devices are not this profile's concern; a line whose function is no RDMA device
     * is still named (mlx5_ib may not have bound it). Lines of compute NICs ({@code rdma.storageNics})
     * are left out the same way.
     */
    static List<Finding> judge(Facts facts, ProbeSpec.Rdma rdma, String hostRoot, Details details) {
        for (HostView view : List.of(HostView.DEV, HostView.PROCFS)) {
            if (facts.hidden().contains(view)) {
                return List.of(view.missing(hostRoot));
            }
        }
        if (facts.failure().isPresent()) {
            return List.of(Finding.of(Status.UNKNOWN, KERNEL_LOG_UNREADABLE, "the host's kernel log cannot be read ("
                    + facts.failure().get() + "), so mlx5 fault signatures are unknown; run `dmesg | grep -e mlx5_core "
                    + "-e 'NETDEV WATCHDOG'` on the host", "kernel log unreadable"));
        }
        if (facts.uptimeUs().isEmpty()) {
            return List.of(Finding.of(Status.UNKNOWN, KERNEL_LOG_UNREADABLE, "the host's " + KernelLog.UPTIME + " cannot "
                    + "be read, so the kernel log's records cannot be placed in time; check the probe's /proc mount",
                    "kernel log undated"));
        }
        ProbeSpec.Rdma section = rdma != null ? rdma : new ProbeSpec.Rdma(null, null);
        Duration window = section.kernelLogWindowDuration();
        long uptime = facts.uptimeUs().getAsLong();
        Set<String> wanted = section.devicePorts().stream().map(p -> p.device()).collect(Collectors.toSet());
        Map<String, List<Entry>> groups = new LinkedHashMap<>();
        Map<String, Entry> recoveries = new LinkedHashMap<>();
        for (Entry entry : facts.entries()) {
            long ageUs = Math.max(0, uptime - entry.record().usec());
            if (ageUs > window.toNanos() / 1000) {
                continue;
            }
            Optional<String> device = device(facts, entry.hit());
            if (device.isPresent() && (!wanted.isEmpty() && !wanted.contains(device.get())
                    || facts.computeNics().contains(device.get()))) {
                continue;
            }
            if (entry.hit().kind().severity() == Severity.RECOVERED) {
                recoveries.put(name(facts, entry.hit()), entry);   // entries are oldest first: the latest stays
                continue;
            }
            groups.computeIfAbsent(name(facts, entry.hit()) + "\u0000" + entry.hit().kind(), k -> new ArrayList<>()).add(entry);
        }
        if (!groups.isEmpty()) {
            details.put("kernelLogWindow", section.kernelLogWindow());
        }
        List<Finding> findings = new ArrayList<>();
        for (List<Entry> group : groups.values()) {
            Entry latest = group.get(group.size() - 1);
            Optional<Entry> recovery = Optional.ofNullable(recoveries.get(name(facts, latest.hit())))
                    .filter(r -> r.record().usec() > latest.record().usec());
            findings.add(finding(facts, group, recovery, section.kernelLogWindow()));
        }
        return findings;
    }

    /** With the driver's later word that it recovered the device, a fatal line is a warning that says so. */
    private static Finding finding(Facts facts, List<Entry> group, Optional<Entry> recovery, String window) {
        Entry latest = group.get(group.size() - 1);
        Hit hit = latest.hit();
        Kind kind = hit.kind();
        String name = name(facts, hit);
        long ageUs = Math.max(0, facts.uptimeUs().getAsLong() - latest.record().usec());
        Instant at = facts.now().minus(ageUs, ChronoUnit.MICROS).truncatedTo(ChronoUnit.SECONDS);
        String where = hit.bdf().map(b -> device(facts, hit).map(d -> d + " (" + b + (hit.netdev().map(n -> " " + n).orElse("")) + ")")
                .orElse(b + hit.netdev().map(n -> " " + n).orElse(""))).orElse(name);
        String more = group.size() == 1 ? "" : " (" + (group.size() - 1) + " more such line" + (group.size() == 2 ? "" : "s")
                + " within " + window + ")";
        String message = where + " logged \"" + hit.text() + "\" at " + at + ", " + ago(ageUs) + " ago" + more + ": "
                + kind.meaning() + recovery.map(r -> ", then \"" + r.hit().text() + "\" " + ago(Math.max(0,
                facts.uptimeUs().getAsLong() - r.record().usec())) + " ago: the driver brought it back, but its I/O failed "
                + "meanwhile. If it recurs, ").orElse("; ") + advice(kind, hit);
        boolean fatal = kind.severity() == Severity.FATAL && recovery.isEmpty();
        Finding logged = Finding.of(Status.FALSE, fatal ? DEVICE_FATAL_LOGGED : DEVICE_WARNING_LOGGED, message, name + " " + kind.label());
        // a fatal error fences the NIC; a warning (or a fatal one the driver recovered from) is for a person to look at
        return fatal ? device(facts, hit).map(logged::onDevice).orElse(logged) : logged;
    }

    private static Optional<String> device(Facts facts, Hit hit) {
        Optional<String> byBdf = hit.bdf().map(facts.devices()::get);
        if (byBdf.isPresent()) {
            return byBdf;
        }
        return hit.netdev().map(facts.devices()::get);
    }

    /** The RDMA device, else the PCIe function, else the netdev the line names. */
    private static String name(Facts facts, Hit hit) {
        return device(facts, hit).or(hit::bdf).or(hit::netdev).orElse("mlx5");
    }

    private static String ago(long us) {
        long seconds = us / 1_000_000;
        if (seconds < 120) {
            return seconds + "s";
        }
        return seconds < 7200 ? seconds / 60 + "m" : seconds / 3600 + "h" + (seconds % 3600) / 60 + "m";
    }

    private static String advice(Kind kind, Hit hit) {
        String pci = hit.bdf().map(b -> "pci/" + b).orElse("pci/<function>");
        String netdev = hit.netdev().orElse("<netdev>");
        return switch (kind) {
            case FATAL_ERROR, PCI_LOST -> "storage on this HCA fails until it is back on the bus: drain the node, check its "
                    + "PCIe link (`lspci -vvv -s " + hit.bdf().orElse("<function>") + "`: `rev ff` or a degraded LnkSta), AER "
                    + "lines in the kernel log, the slot, riser and cable; reseat or replace the card if it recurs";
            case ERROR_STATE, RECOVERY_FAILED -> "the driver gave the device up: drain the node and power-cycle it (a cold "
                    + "reset; `devlink dev reload " + pci + "` does not reach a device off the bus), then check the PCIe link "
                    + "and the firmware (`mlxfwmanager`); replace the card if it recurs";
            case PROBE_FAILED -> "the device is not in service: check its firmware (`flint -d " + hit.bdf().orElse("<function>")
                    + " q`, `mlxfwmanager`), power-cycle the node, and replace the card if it still does not come up";
            case HEALTH_COMPROMISED, UNRECOVERABLE_ERROR, FIRMWARE_ERROR -> "storage on this HCA fails until it is reset: drain the node, "
                    + "`devlink health show " + pci + "`, then `devlink dev reload " + pci + "` or reboot; if it recurs, update "
                    + "the firmware (`mlxfwmanager`) or replace the card";
            case COMMAND_TIMEOUT -> "new QPs, MRs and connections fail while it lasts: drain the node, `devlink health show "
                    + pci + "`, then reset the device (`devlink dev reload " + pci + "`) or reboot, and report the firmware "
                    + "version with the log to NVIDIA support";
            case INSUFFICIENT_POWER -> "the card may throttle or drop off the bus: move it to a slot that powers it, or fix "
                    + "the slot's power budget in the BIOS/BMC";
            case MODULE_HIGH_TEMPERATURE, MODULE_ERROR -> "the module may shut its link down: check airflow and fans, and "
                    + "the module with `mlxlink -d " + hit.bdf().orElse("<function>") + " -m`; reseat or replace it";
            case DEVICE_HIGH_TEMPERATURE -> "the firmware stops the device if it overheats: check airflow and fans, and the "
                    + "device's temperature with `mget_temp -d " + hit.bdf().orElse("<function>") + "`";
            case FIRMWARE_WARNING, COMMAND_LATE -> "the device still works: look at `devlink health show " + pci + "`; if it "
                    + "recurs, update the firmware (`mlxfwmanager`)";
            case RECOVERED -> "";
            case TX_TIMEOUT -> "the driver resets the queue, RoCE traffic on it stalls meanwhile: check `devlink health show "
                    + pci + " reporter tx` and `ethtool -S " + netdev + "`; a recurring timeout is a firmware or PCIe fault";
        };
    }
}
