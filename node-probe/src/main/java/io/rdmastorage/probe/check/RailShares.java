package io.rdmastorage.probe.check;

import static io.rdmastorage.contract.checks.RdmaTraffic.RAIL_IDLE;

import io.rdmastorage.contract.Status;
import io.rdmastorage.contract.spec.DevicePort;
import io.rdmastorage.contract.spec.ProbeSpec;
import io.rdmastorage.probe.counters.TransportTraffic;
import io.rdmastorage.probe.counters.TransportTraffic.PortTraffic;
import io.rdmastorage.probe.rails.StorageRail;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * RdmaTraffic's rail rule: each storage client's rails (its own configuration's RDMA ports,
 * {@link io.rdmastorage.probe.rails.StorageRails}) and what each moved over the window. A rail that
 * moved nothing (below {@code minRdmaPacketsPerSecond}) or less than {@code minRailSharePercent} of
 * the client's rails' bytes (packets where a port counts no bytes), while its siblings carried the
 * client's traffic, is RailIdle. A client whose rails all idled says nothing here (NoStorageTraffic
 * does); a rail whose port is not ACTIVE is RdmaDevices' finding, named in the details, not doubled.
 * Port counters count every client on a port: a port two clients share is judged by its total.
 */
final class RailShares {

    private RailShares() {
    }

    /**
     * @param inactive the rails' ports that are not ACTIVE (by {@code dev/port})
     * @param sampled  the ports whose counters the window read
     */
    static List<Finding> judge(List<StorageRail> rails, TransportTraffic traffic, ProbeSpec.Traffic spec, Set<String> inactive,
                               Set<String> sampled, String seconds, Details details) {
        Map<String, List<StorageRail>> byClient = new LinkedHashMap<>();
        rails.stream().filter(r -> r.port().isPresent()).forEach(r -> byClient.computeIfAbsent(r.client(), c -> new ArrayList<>()).add(r));
        List<Finding> findings = new ArrayList<>();
        List<Map<String, Object>> shown = new ArrayList<>();
        List<String> down = new ArrayList<>();
        for (Map.Entry<String, List<StorageRail>> client : byClient.entrySet()) {
            Map<String, StorageRail> byPort = new LinkedHashMap<>();
            for (StorageRail rail : client.getValue()) {
                String port = rail.port().get().toString();
                if (inactive.contains(port)) {
                    down.add(client.getKey() + " " + port);
                } else if (sampled.contains(port)) {
                    byPort.putIfAbsent(port, rail);
                }
            }
            if (byPort.size() < 2) {
                continue;   // one rail carries everything or nothing: the other rules judge it
            }
            judgeClient(client.getKey(), byPort, traffic, spec, seconds, findings, shown);
        }
        // only where there are rails: every other window's verdict stays as small as before
        if (!shown.isEmpty()) {
            details.list("rails", shown);
        }
        if (!down.isEmpty()) {
            details.list("railsNotActive", down);
        }
        return findings;
    }

    private static void judgeClient(String client, Map<String, StorageRail> rails, TransportTraffic traffic, ProbeSpec.Traffic spec,
                                    String seconds, List<Finding> findings, List<Map<String, Object>> shown) {
        Map<String, PortTraffic> rates = new LinkedHashMap<>();
        for (String port : rails.keySet()) {
            PortTraffic t = traffic.rdmaPorts().get(port);
            if (t == null || t.packets().isEmpty()) {
                return;   // no delta on a rail: NoCounterDelta already says so, a share would be a guess
            }
            rates.put(port, t);
        }
        boolean bytes = rates.values().stream().allMatch(t -> t.bytes().isPresent());
        String unit = bytes ? "bytes" : "packets";
        Map<String, Long> amount = new LinkedHashMap<>();
        rates.forEach((port, t) -> amount.put(port, bytes ? t.bytes().getAsLong() : t.packets().getAsLong()));
        long total = amount.values().stream().mapToLong(Long::longValue).sum();
        List<String> moving = rates.entrySet().stream()
                .filter(e -> traffic.perSecond(e.getValue().packets().getAsLong()) >= spec.minRdmaPacketsPerSecond())
                .map(Map.Entry::getKey).toList();
        for (Map.Entry<String, Long> e : amount.entrySet()) {
            String port = e.getKey();
            double share = share(e.getValue(), total);
            boolean still = !moving.contains(port);
            // idle only beside moving siblings: a client that moved nothing proves nothing of its rails
            boolean idle = !moving.isEmpty() && (still || share < spec.minRailSharePercent());
            StorageRail rail = rails.get(port);
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("client", client);
            row.put("rail", rail.configured());
            row.put("port", port);
            row.put("sharePercent", Math.round(share));
            row.put("idle", idle);
            shown.add(row);
            if (!idle) {
                continue;
            }
            String siblings = String.join(", ", amount.entrySet().stream().filter(o -> !o.getKey().equals(port))
                    .map(o -> o.getKey() + " " + amountText(traffic, o.getValue(), bytes)
                            + String.format(Locale.ROOT, " (%.0f%%)", share(o.getValue(), total))).toList());
            String what = still ? "moved " + amountText(traffic, e.getValue(), bytes) + " (below traffic.minRdmaPacketsPerSecond "
                    + spec.minRdmaPacketsPerSecond() + ")" : String.format(Locale.ROOT, "carried %.0f%% of its %s (below "
                    + "traffic.minRailSharePercent %d%%)", share, unit, spec.minRailSharePercent());
            findings.add(Finding.of(Status.FALSE, RAIL_IDLE, client + ": the rail " + port + " (" + rail.configured() + ") " + what
                    + " in the " + seconds + " window while " + siblings + " carried the client's traffic: the node runs on "
                    + "fewer rails than it is configured for and loses that rail's bandwidth. " + advice(client, port),
                    client + " rail " + port + " idle").onDevice(DevicePort.parse(port).device()));
        }
    }

    private static double share(long amount, long total) {
        return total == 0 ? 0 : 100.0 * amount / total;
    }

    private static String amountText(TransportTraffic traffic, long amount, boolean bytes) {
        double perSecond = traffic.perSecond(amount);
        return bytes ? RdmaTrafficCheck.bytes(perSecond) : String.format(Locale.ROOT, "%,d packets/s", Math.round(perSecond));
    }

    /** What to look at, by the client's kind. */
    private static String advice(String client, String port) {
        String path = "Check the rail's path: `rdma link show " + port + "`, its subnet manager or switch port, and the route "
                + "from its address to the storage servers; ";
        if (client.startsWith("GPFS")) {
            return path + "`mmfsadm test verbs conn` lists the verbs connections by port (a port with none was never "
                    + "connected: its fabric or verbsPorts' fabric number)";
        }
        if (client.startsWith("LNet")) {
            return path + "`lnetctl net show -v 3` counts each NI's sends; `lnetctl stats show`; a Multi-Rail peer that has "
                    + "no NID on this NI's network cannot use it";
        }
        if (client.startsWith("NVMe-oF")) {
            return path + "`nvme list-subsys` shows each path's state and ANA group; with iopolicy numa the kernel sends I/O only on "
                    + "the paths of the issuing CPU's NUMA node: `echo round-robin > /sys/class/nvme-subsystem/<subsystem>/iopolicy` "
                    + "(or queue-depth) spreads it over every path";
        }
        return path + "each mount's traffic stays on the address it was mounted from: mount through every rail "
                + "(one clientaddr each), or with nconnect and trunking";
    }
}
