package io.rdmastorage.probe.check;

import static io.rdmastorage.contract.checks.RdmaTraffic.*;

import io.rdmastorage.contract.Status;
import io.rdmastorage.contract.spec.ProbeSpec;
import io.rdmastorage.probe.check.RdmaTrafficCheck.Facts;
import io.rdmastorage.probe.check.RdmaTrafficCheck.Port;
import io.rdmastorage.probe.counters.CounterDelta;
import io.rdmastorage.probe.counters.CounterKey;
import io.rdmastorage.probe.counters.CounterKey.Source;
import io.rdmastorage.probe.counters.CounterWindow;
import io.rdmastorage.probe.counters.StorageCounters;
import io.rdmastorage.probe.counters.TransportTraffic;
import io.rdmastorage.probe.counters.TransportTraffic.PeerTraffic;
import io.rdmastorage.probe.counters.TransportTraffic.PortTraffic;
import io.rdmastorage.probe.parse.EthtoolStats;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeSet;


/** RdmaTrafficCheck's rules over one window. */
final class RdmaTrafficWindowRules {
    private final Facts facts;
    private final ProbeSpec.Traffic spec;
    private final Map<Integer, String> protocols;
    private final CounterWindow window;
    private final TransportTraffic traffic;
    private final List<Finding> findings = new ArrayList<>();
    private final String seconds;

    RdmaTrafficWindowRules(Facts facts, ProbeSpec spec) {
        this.facts = facts;
        this.spec = spec.traffic();
        this.protocols = StorageCounters.protocols(spec);
        this.window = facts.window();
        this.traffic = TransportTraffic.of(window, facts.ports().stream().map(p -> p.port().toString()).toList());
        this.seconds = String.format(Locale.ROOT, "%.1f s", window.seconds());
    }

    Judgement judge() {
        List<String> moved = new ArrayList<>();
        double rdmaBytes = 0;
        double rdmaPackets = 0;
        boolean rdmaBytesKnown = false;
        List<Map<String, Object>> shown = new ArrayList<>();
        for (Port port : facts.ports()) {
            PortTraffic rates = rates(port);
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("port", port.port().toString());
            rates.packets().ifPresent(p -> row.put("packetsPerSecond", Math.round(window.perSecond(p))));
            rates.bytes().ifPresent(b -> row.put("bytesPerSecond", Math.round(window.perSecond(b))));
            shown.add(row);
            errors(port);
            if (rates.packets().isEmpty()) {
                continue;
            }
            rdmaPackets += window.perSecond(rates.packets().getAsLong());
            if (rates.bytes().isPresent()) {
                rdmaBytes += window.perSecond(rates.bytes().getAsLong());
                rdmaBytesKnown = true;
            }
            if (window.perSecond(rates.packets().getAsLong()) >= spec.minRdmaPacketsPerSecond()) {
                moved.add(port.port() + " " + describe(rates));
                priority(port, rates);
            }
        }
        double tcp = tcp(moved.isEmpty() ? "while the RDMA ports stayed below " + spec.minRdmaPacketsPerSecond()
                + " packets/s" : "while RDMA moved too (" + String.join(", ", moved) + ")");
        Details details = new Details().put("windowSeconds", Math.round(window.seconds() * 10) / 10.0)
                .put("rdmaPacketsPerSecond", Math.round(rdmaPackets))
                .put("rdmaBytesPerSecond", rdmaBytesKnown ? Math.round(rdmaBytes) : null)
                .put("tcpBytesPerSecond", Math.round(tcp));
        details.list("ports", shown);
        Set<String> sampled = new TreeSet<>(facts.ports().stream().map(p -> p.port().toString()).toList());
        findings.addAll(RailShares.judge(facts.rails(), traffic, spec, facts.inactive(), sampled, seconds, details));
        if (moved.isEmpty() && findings.stream().noneMatch(f -> f.status() == Status.FALSE)) {
            findings.add(Finding.of(Status.UNKNOWN, NO_STORAGE_TRAFFIC, "no storage traffic in the " + seconds + " window: "
                    + "the RDMA ports moved " + Math.round(rdmaPackets) + " packets/s (below traffic.minRdmaPacketsPerSecond "
                    + spec.minRdmaPacketsPerSecond() + ") and storage TCP " + RdmaTrafficCheck.bytes(tcp) + " (within "
                    + "traffic.maxTcpBytesPerSecond): an idle node proves nothing; " + RdmaTrafficCheck.LOAD, "no storage traffic"));
        }
        String passed = String.join(", ", moved) + (spec.priority() == null ? "" : " on priority " + spec.priority())
                + "; storage TCP " + RdmaTrafficCheck.bytes(tcp) + " (control traffic) over the " + seconds + " window";
        return Judgement.of(findings, Finding.passed(DATA_OVER_RDMA, passed), details);
    }

    /** A port's packets and, where it has them, bytes over the window; a counter without a delta is NoCounterDelta. */
    private PortTraffic rates(Port port) {
        String subject = port.port().toString();
        PortTraffic rates = traffic.rdmaPorts().get(subject);
        if (!rates.problem().isEmpty()) {
            String what = rates.packets().isEmpty() ? "the packets" : "the bytes";
            findings.add(Finding.of(Status.UNKNOWN, NO_COUNTER_DELTA, subject + ": no delta for " + what
                    + " it carried (" + rates.problem() + "), so its share of the storage traffic is unknown; `rdma statistic "
                    + "show link " + subject + "` and " + StorageCounters.IB_CLASS + "/" + subject.replace("/", "/ports/")
                    + "/ show the counters", subject + " " + what.substring(4) + " no delta"));
        }
        return rates;
    }

    private String describe(PortTraffic rates) {
        return rates.bytes().isPresent() ? "carried " + RdmaTrafficCheck.bytes(window.perSecond(rates.bytes().getAsLong()))
                + String.format(Locale.ROOT, " (%,d packets/s)", Math.round(window.perSecond(rates.packets().getAsLong())))
                : String.format(Locale.ROOT, "carried %,d packets/s", Math.round(window.perSecond(rates.packets().getAsLong())));
    }

    /** The RoCE port's bytes must ride the lossless priority. */
    private void priority(Port port, PortTraffic rates) {
        Integer p = spec.priority();
        String name = port.port().toString();
        if (p != null && port.linkLayerUnknown()) {
            findings.add(Finding.of(Status.UNKNOWN, NO_COUNTER_DELTA, name + ": cannot tell whether its RDMA bytes had "
                    + "to ride priority " + p + ": its link layer cannot be read (" + StorageCounters.IB_CLASS + "/"
                    + name.replace("/", "/ports/") + "/link_layer), so RoCE or InfiniBand is unknown; check the probe's "
                    + "/sys mount and `rdma link show " + name + "`", name + " link layer unknown"));
            return;
        }
        if (p == null || !port.roce()) {
            return;
        }
        if (port.netdev().isEmpty() || rates.bytes().isEmpty()) {
            findings.add(Finding.of(Status.UNKNOWN, NO_COUNTER_DELTA, name + ": cannot tell which priority its RDMA bytes "
                    + "rode (" + (port.netdev().isEmpty() ? "no netdev" : "no byte counters (counters/port_*_data)")
                    + "); traffic.priority needs both", name + " priority unknown"));
            return;
        }
        String netdev = port.countedOn();
        String unreadable = port.counted().stream().map(n -> window.unreadable().get("ethtool " + n))
                .filter(java.util.Objects::nonNull).findFirst().orElse(null);
        Map<Integer, Long> perPriority = new LinkedHashMap<>();
        for (int prio = 0; prio <= ProbeSpec.Traffic.MAX_PRIORITY; prio++) {
            OptionalLong tx = countedDelta(port, EthtoolStats.priorityCounter("tx", prio, "bytes"));
            OptionalLong rx = countedDelta(port, EthtoolStats.priorityCounter("rx", prio, "bytes"));
            if (tx.isPresent() && rx.isPresent()) {
                perPriority.put(prio, tx.getAsLong() + rx.getAsLong());
            }
        }
        if (!perPriority.containsKey(p)) {
            // ethtool that ran and printed counters, without these: a driver that does not count per priority
            String why = unreadable != null ? unreadable + "): install ethtool on the host (mlx5 counts per priority)"
                    : "`ethtool -S " + String.join("`, `ethtool -S ", port.counted()) + "` show no tx/rx_prio" + p
                    + "_bytes, or they went backwards): its driver may not count per priority (mlx5 does)";
            findings.add(Finding.of(Status.UNKNOWN, NO_COUNTER_DELTA, name + ": no per-priority byte delta of " + netdev
                    + " for priority " + p + " (" + why, name + " prio" + p + " no delta"));
            return;
        }
        long rdma = rates.bytes().getAsLong();
        if (perPriority.get(p) * 2 < rdma) {
            int busiest = perPriority.entrySet().stream().max(Map.Entry.comparingByValue()).map(Map.Entry::getKey).orElse(p);
            findings.add(Finding.of(Status.FALSE, DATA_ON_LOSSY_PRIORITY, name + " (" + netdev + ") carried "
                    + RdmaTrafficCheck.bytes(window.perSecond(rdma)) + " of RDMA but its lossless priority " + p + " only "
                    + RdmaTrafficCheck.bytes(window.perSecond(perPriority.get(p))) + " while priority " + busiest + " moved "
                    + RdmaTrafficCheck.bytes(window.perSecond(perPriority.get(busiest))) + " (ethtool -S " + netdev + " tx/rx_prioN_bytes): "
                    + "the storage traffic rides a lossy class; set the ToS or DSCP of the storage clients (RoceLossless "
                    + "checks trust, DSCP map and default ToS)", name + " on priority " + busiest));
        }
    }

    /** The sum over the ports that count for {@code port}; empty when any of them has no delta. */
    private OptionalLong countedDelta(Port port, String name) {
        long sum = 0;
        for (String netdev : port.counted()) {
            OptionalLong d = window.delta(new CounterKey(Source.NETDEV, netdev, name)).amount();
            if (d.isEmpty()) {
                return OptionalLong.empty();
            }
            sum += d.getAsLong();
        }
        return port.counted().isEmpty() ? OptionalLong.empty() : OptionalLong.of(sum);
    }

    private void errors(Port port) {
        String subject = port.port().toString();
        for (String name : RdmaTrafficCheck.ERROR_COUNTERS) {
            judgeCounter(key(subject, name), subject, false, port.port().device());
        }
        for (String name : RdmaTrafficCheck.CONGESTION_COUNTERS) {
            judgeCounter(key(subject, name), subject, true, port.port().device());
        }
        for (String netdev : port.counted()) {
            for (int prio = 0; prio <= ProbeSpec.Traffic.MAX_PRIORITY; prio++) {
                for (String dir : List.of("rx", "tx")) {
                    judgeCounter(new CounterKey(Source.NETDEV, netdev, EthtoolStats.priorityCounter(dir, prio,
                            "pause")), subject + " (" + netdev + ")", true, port.port().device());
                }
            }
        }
    }

    /** Link errors are the port's, so its device's; congestion, pauses and retries are the fabric's, no one NIC's. */
    private void judgeCounter(CounterKey key, String where, boolean congestion, String device) {
        if (window.before().get(key) == null && window.after().get(key) == null) {
            return;   // this driver has no such counter
        }
        CounterDelta d = window.delta(key);
        if (!d.known()) {
            findings.add(Finding.of(Status.UNKNOWN, NO_COUNTER_DELTA, where + ": " + key.name() + " " + d.problem()
                    + ", so its fabric errors over the window are unknown", where + " " + key.name() + " no delta"));
            return;
        }
        long delta = d.amount().getAsLong();
        if (congestion) {
            double rate = window.perSecond(delta);
            if (rate > spec.maxCongestionPerSecond()) {
                findings.add(Finding.of(Status.FALSE, FABRIC_ERRORS, String.format(Locale.ROOT, "%s: %s grew by %,d in the %s "
                        + "window (%,d/s, above traffic.maxCongestionPerSecond %,d): congestion or a pause storm, the lossy "
                        + "fabric's signature; check PFC/ECN on the switch ports and the NIC (RoceLossless)", where, key.name(),
                        delta, seconds, Math.round(rate), spec.maxCongestionPerSecond()),
                        where + " " + key.name() + " +" + delta));
            }
        } else if (delta > spec.maxErrorCount()) {
            findings.add(Finding.of(Status.FALSE, FABRIC_ERRORS, String.format(Locale.ROOT, "%s: %s grew by %,d in the %s "
                    + "window (traffic.maxErrorCount %d): %s", where, key.name(), delta, seconds, spec.maxErrorCount(),
                    key.name().startsWith("hw_counters/") ? "the transport retried or lost packets (a lossy fabric, "
                            + "PFC/ECN off, or a peer that cannot keep up)" : "the link itself is faulty: reseat or replace "
                            + "the cable or transceiver, check `ibdiagnet` or the switch port"),
                    // transport retries are the fabric's (lossy, PFC/ECN off); link errors are the port's
                    where + " " + key.name() + " +" + delta).onDevice(key.name().startsWith("hw_counters/") ? null : device));
        }
    }

    /** Storage TCP per peer over the allowance is DataOnTcp; returns the total storage TCP bytes/s. */
    private double tcp(String rdmaContext) {
        double total = 0;
        for (Map.Entry<String, PeerTraffic> e : traffic.tcpPeers().entrySet()) {
            total += over(e.getKey() + " (" + protocol(e.getKey()) + ")", e.getValue(), rdmaContext,
                    "`nvme list-subsys` and `mount -t nfs,nfs4` show each transport; NvmeofRdma, NfsRdma, LustreLnet and BeegfsRdma "
                            + "say why a target, mount or server is on tcp");
        }
        for (Map.Entry<String, PeerTraffic> e : traffic.gpfsPeers().entrySet()) {
            total += over("GPFS node " + e.getKey(), e.getValue(), rdmaContext,
                    "`mmfsadm test verbs conn` lists the peers on RDMA; GpfsVerbs says why this one is on TCP");
        }
        String unreadable = window.unreadable().get(StorageCounters.SOCKETS);
        if (unreadable != null) {
            findings.add(Finding.of(Status.UNKNOWN, NO_COUNTER_DELTA, "the storage TCP sockets could not be read (" + unreadable
                    + "): without them TCP fallback cannot be ruled out; the host needs nsenter (util-linux) and ss "
                    + "(iproute2), and the probe its /proc", "TCP sockets unreadable"));
        }
        return total;
    }

    private double over(String peer, PeerTraffic bytes, String rdmaContext, String how) {
        double rate = window.perSecond(bytes.total());
        if (rate > spec.maxTcpBytesPerSecond()) {
            findings.add(Finding.of(Status.FALSE, DATA_ON_TCP, peer + " moved " + RdmaTrafficCheck.bytes(rate) + " over TCP (sent "
                    + RdmaTrafficCheck.bytes(window.perSecond(bytes.sent())) + ", received " + RdmaTrafficCheck.bytes(window.perSecond(bytes.received()))
                    + ") in the " + seconds + " window, above traffic.maxTcpBytesPerSecond "
                    + RdmaTrafficCheck.bytes(spec.maxTcpBytesPerSecond()) + ", " + rdmaContext + ": storage data on TCP, the silent "
                    + "fallback; " + how, peer + " " + RdmaTrafficCheck.bytes(rate) + " on TCP"));
        }
        return rate;
    }

    /** The protocol of a peer by its port; an NVMe-oF target's own port is NVMe/TCP. */
    private String protocol(String peer) {
        int port = Integer.parseInt(peer.substring(peer.lastIndexOf(':') + 1));
        return protocols.getOrDefault(port, "NVMe/TCP");
    }

    private static CounterKey key(String subject, String name) {
        return new CounterKey(Source.RDMA_PORT, subject, name);
    }
}
