package io.rdmastorage.probe.check;

import static io.rdmastorage.contract.checks.RoceLossless.*;

import io.rdmastorage.contract.Reasons;
import io.rdmastorage.contract.Status;
import io.rdmastorage.contract.spec.ProbeSpec;
import io.rdmastorage.probe.check.RoceLosslessCheck.Answer;
import io.rdmastorage.probe.check.RoceLosslessCheck.RocePort;
import io.rdmastorage.probe.check.RoceLosslessCheck.Source;
import io.rdmastorage.probe.parse.MlnxQos;
import io.rdmastorage.probe.parse.RoceTos;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/** RoceLosslessCheck's rules of one port; each setting gives at most one finding. */
final class RoceLosslessPortRules {
    private final RocePort port;
    private final ProbeSpec.Roce roce;
    private final String name;
    private final List<Finding> findings = new ArrayList<>();

    RoceLosslessPortRules(RocePort port, ProbeSpec.Roce roce) {
        this.port = port;
        this.roce = roce;
        this.name = port.name();
    }

    List<Finding> findings() {
        if (port.netdev().isEmpty()) {
            unreadable("has no netdev (neither ports/" + port.port() + "/gid_attrs/ndevs/0 nor one device/net entry), "
                    + "so trust, PFC and ECN cannot be read; `rdma link show " + port.device() + "/" + port.port()
                    + "` names it", "no netdev");
            tos();
            return findings;
        }
        boolean dscpTrusted = trust();
        if (dscpTrusted) {
            mapping();
        }
        pfc();
        ecn();
        tos();
        return findings;
    }

    private String ifname() {
        return port.netdev().orElseThrow();
    }

    /** True when trust is dscp, so that the DSCP mapping matters. */
    private boolean trust() {
        Optional<String> mlnx = port.mlnxQos().value().flatMap(MlnxQos::trust);
        Optional<Answer<String>> appTrust = RoceLosslessCheck.appTrust(port);
        Optional<Answer<String>> trust = RoceLosslessCheck.trustOf(port);
        boolean dcbSaysDscp = port.dcbApp().value().filter(t -> !t.isEmpty()).isPresent();
        if (mlnx.isPresent() && appTrust.isPresent() && mlnx.get().equals("dscp") != appTrust.get().value().equals("dscp")) {
            disagree("trust: mlnx_qos says " + mlnx.get() + ", `dcb apptrust show dev " + ifname() + "` "
                    + appTrust.get().source().substring("dcb apptrust ".length()) + " (trust " + appTrust.get().value() + ")", "trust");
            return false;
        }
        // with apptrust the driver says which selectors it trusts: DSCP entries alone then prove nothing
        if (mlnx.isPresent() && !mlnx.get().equals("dscp") && dcbSaysDscp && appTrust.isEmpty()) {
            disagree("trust: mlnx_qos says " + mlnx.get() + ", the DCB APP table (`dcb app show dev " + ifname()
                    + " dscp-prio`) has DSCP entries, which mean trust dscp", "trust");
            return false;
        }
        if (trust.isEmpty()) {
            unreadable("trust state unreadable (" + problems(port.mlnxQos(), port.dcbAppTrust(), port.dcbApp()) + "): "
                    + advice(port.mlnxQos(), port.dcbAppTrust(), port.dcbApp()) + "; expected `mlnx_qos -i " + ifname()
                    + "` to print 'Priority trust state: dscp' (or `dcb apptrust show dev " + ifname() + "` dscp ahead of pcp)",
                    "trust unreadable");
            return false;
        }
        if (!trust.get().value().equals("dscp")) {
            String fix = appTrust.isPresent() && mlnx.isEmpty()
                    ? "`dcb apptrust set dev " + ifname() + " order dscp pcp`"
                    : "`mlnx_qos -i " + ifname() + " --trust dscp` (or `dcb app add dev " + ifname() + " dscp-prio " + roce.dscp()
                            + ":" + roce.priority() + "`)";
            findings.add(Finding.of(Status.FALSE, TRUST_NOT_DSCP, name + " trusts " + trust.get().value() + " ("
                    + trust.get().source() + "), not dscp: routed RoCE storage traffic lands in priority 0, which is lossy. Run "
                    + fix + "; expected 'Priority trust state: dscp' (dcb apptrust: dscp ahead of pcp)",
                    name + " trust " + trust.get().value()));
            return false;
        }
        return true;
    }

    /**
     * What to do when the tools gave no answer: install one when none is there; when one ran and
     * the netdev's driver has no DCB operations (veth, virtio, soft-RoCE's netdevs), say so.
     */
    private String advice(Source<?>... sources) {
        if (java.util.Arrays.stream(sources).allMatch(Source::toolMissing)) {
            return RoceLosslessCheck.INSTALL_QOS_TOOL;
        }
        if (java.util.Arrays.stream(sources).anyMatch(s -> s.problem().contains("Operation not supported"))) {
            return ifname() + "'s driver answers no DCB request (veth, virtio and soft-RoCE's netdevs have none; mlx5, ice and "
                    + "bnxt_en do): set the lossless class on a NIC that has it";
        }
        return "run those commands on the host to see why";
    }

    private void mapping() {
        Optional<Integer> mlnx = port.mlnxQos().value().map(q -> q.dscpToPrio().get(roce.dscp()));
        Optional<Set<Integer>> dcb = port.dcbApp().value().map(t -> t.get(roce.dscp()));
        Optional<Set<Integer>> mapped = mlnx.map(Set::of);
        if (mlnx.isPresent() && dcb.isPresent() && !dcb.get().equals(Set.of(mlnx.get()))) {
            disagree("the priority of DSCP " + roce.dscp() + ": mlnx_qos maps it to " + mlnx.get() + ", `dcb app show dev "
                    + ifname() + " dscp-prio` to " + RoceLosslessCheck.join(dcb.get()), "DSCP " + roce.dscp() + " priority");
            return;
        }
        mapped = mapped.or(() -> dcb);
        if (mapped.isEmpty()) {
            unreadable("the priority of DSCP " + roce.dscp() + " is unreadable (" + problems(port.mlnxQos(), port.dcbApp())
                    + "; dcb shows explicit entries only): " + advice(port.mlnxQos(), port.dcbApp()) + "; expected `mlnx_qos -i " + ifname()
                    + "` to list " + roce.dscp() + " under prio:" + roce.priority(), "DSCP map unreadable");
            return;
        }
        if (!mapped.get().equals(Set.of(roce.priority()))) {
            findings.add(Finding.of(Status.FALSE, DSCP_NOT_MAPPED_TO_LOSSLESS, name + " maps the storage DSCP " + roce.dscp()
                    + " to priority " + RoceLosslessCheck.join(mapped.get()) + ", not to the lossless priority " + roce.priority()
                    + ": its traffic is not protected by PFC. Run `mlnx_qos -i " + ifname() + " --dscp2prio set," + roce.dscp()
                    + "," + roce.priority() + "` or `dcb app replace dev " + ifname() + " dscp-prio " + roce.dscp() + ":"
                    + roce.priority() + "`", name + " DSCP " + roce.dscp() + "→" + RoceLosslessCheck.join(mapped.get())));
        }
    }

    private void pfc() {
        Optional<Set<Integer>> mlnx = port.mlnxQos().value().flatMap(MlnxQos::pfcEnabled);
        Optional<Set<Integer>> dcb = port.dcbPfc().value();
        if (mlnx.isPresent() && dcb.isPresent() && !mlnx.get().equals(dcb.get())) {
            disagree("PFC: mlnx_qos says on for " + RoceLosslessCheck.pfcText(mlnx.get()) + ", `dcb pfc show dev " + ifname() + "` for "
                    + RoceLosslessCheck.pfcText(dcb.get()), "PFC");
            return;
        }
        Optional<Set<Integer>> on = mlnx.or(() -> dcb);
        Set<Integer> expected = RoceLosslessCheck.expectedPfc(roce);
        if (on.isEmpty()) {
            unreadable("PFC unreadable (" + problems(port.mlnxQos(), port.dcbPfc()) + "): " + advice(port.mlnxQos(), port.dcbPfc())
                    + "; expected PFC on " + RoceLosslessCheck.pfcText(expected) + " only", "PFC unreadable");
            return;
        }
        boolean storageOn = on.get().contains(roce.priority());
        Set<Integer> extra = new TreeSet<>(on.get());
        extra.removeAll(expected);
        if (!storageOn || !extra.isEmpty()) {
            String flags = String.join(",", java.util.stream.IntStream.range(0, MlnxQos.PRIORITIES)
                    .mapToObj(p -> expected.contains(p) ? "1" : "0").toList());
            findings.add(Finding.of(Status.FALSE, PFC_NOT_ON_STORAGE_PRIORITY, name + " has PFC on " + RoceLosslessCheck.pfcText(on.get())
                    + (storageOn ? "" : ", not on the lossless priority " + roce.priority() + " (storage traffic is dropped "
                            + "under congestion and retransmits)")
                    + (extra.isEmpty() ? "" : (storageOn ? "" : ";") + " and on " + RoceLosslessCheck.pfcText(extra) + " the spec does not list "
                            + "(pauses traffic that is not storage)")
                    + ". Expected PFC on " + RoceLosslessCheck.pfcText(expected) + " only: `mlnx_qos -i " + ifname() + " --pfc " + flags
                    + "` or `dcb pfc set dev " + ifname() + " prio-pfc all:off "
                    + String.join(" ", expected.stream().sorted().map(p -> p + ":on").toList()) + "`",
                    name + " PFC on " + RoceLosslessCheck.pfcText(on.get())));
        }
    }

    private void ecn() {
        int p = roce.priority();
        Boolean np = port.ecnNp().get(p);
        Boolean rp = port.ecnRp().get(p);
        String dir = "/sys/class/net/" + ifname() + "/ecn/";
        List<String> off = new ArrayList<>();
        if (Boolean.FALSE.equals(np)) {
            off.add("roce_np (notification point)");
        }
        if (Boolean.FALSE.equals(rp)) {
            off.add("roce_rp (reaction point)");
        }
        if (!off.isEmpty()) {
            findings.add(Finding.of(Status.FALSE, ECN_DISABLED, name + " has ECN off on the lossless priority " + p + ": "
                    + String.join(" and ", off) + ", so congestion is met with PFC pauses only. Run `echo 1 > " + dir
                    + "roce_np/enable/" + p + "` and `echo 1 > " + dir + "roce_rp/enable/" + p + "`; expected 1 in both",
                    name + " ECN off on " + p));
            return;
        }
        if (np == null || rp == null) {
            unreadable("ECN on priority " + p + " unreadable: " + dir + "roce_" + (np == null ? "np" : "rp") + "/enable/" + p
                    + " is absent or not 0/1 (mlx5 exposes it; another driver may configure ECN with its own tool); "
                    + "expected 1 in roce_np and roce_rp", "ECN unreadable");
        }
    }

    private void tos() {
        Optional<Integer> configfs = port.configfsTos();
        Optional<Integer> tc = port.trafficClassTos();
        String configfsPath = RoceLosslessCheck.CONFIGFS_RDMA_CM + "/" + port.device() + "/ports/" + port.port() + "/default_roce_tos";
        String tcPath = RoceLosslessCheck.IB_CLASS + "/" + port.device() + "/tc/" + port.port() + "/traffic_class";
        if (configfs.isPresent() && tc.isPresent() && RoceTos.dscpOf(configfs.get()) != RoceTos.dscpOf(tc.get())) {
            disagree("the default ToS: " + configfsPath + " is " + configfs.get() + " (DSCP " + RoceTos.dscpOf(configfs.get())
                    + "), " + tcPath + " is 'Global tclass=" + tc.get() + "' (DSCP " + RoceTos.dscpOf(tc.get()) + ")", "default ToS");
            return;
        }
        Optional<Integer> tos = configfs.or(() -> tc);
        String expected = "ToS " + roce.tos() + " (= DSCP " + roce.dscp() + " << 2; " + (roce.tos() | 2) + " also marks ECT(0))";
        if (tos.isEmpty()) {
            unreadable("the default RoCE ToS is unreadable: no " + configfsPath + (port.trafficClassUnset() ? " and "
                    + tcPath + " is empty (no global class set)" : " and no " + tcPath) + ". Load rdma_cm and `mkdir "
                    + RoceLosslessCheck.CONFIGFS_RDMA_CM + "/" + port.device() + "` (configfs mounted at /sys/kernel/config), then set it with "
                    + "`cma_roce_tos -d " + port.device() + " -t " + (roce.tos() | 2) + "`; expected " + expected, "ToS unreadable");
            return;
        }
        if (RoceTos.dscpOf(tos.get()) != roce.dscp()) {
            findings.add(Finding.of(Status.FALSE, DEFAULT_TOS_MISMATCH, name + " gives kernel storage clients (nvme-rdma, "
                    + "GPFS verbsRdmaCm, NFS over RDMA) ToS " + tos.get() + " (DSCP " + RoceTos.dscpOf(tos.get()) + ", from "
                    + (configfs.isPresent() ? configfsPath : tcPath) + "), not the storage DSCP " + roce.dscp()
                    + ": their traffic misses the lossless class. Run `cma_roce_tos -d " + port.device() + " -t "
                    + (roce.tos() | 2) + "`; expected " + expected, name + " ToS " + tos.get()));
        }
    }

    private void unreadable(String what, String mention) {
        findings.add(Finding.of(Status.UNKNOWN, LOSSLESS_CONFIG_UNREADABLE, name + ": " + what, name + " " + mention));
    }

    private void disagree(String what, String mention) {
        findings.add(Finding.of(Status.UNKNOWN, Reasons.SOURCES_DISAGREE, name + ": the sources disagree on " + what
                + "; run both by hand and fix the configuration that is stale", name + " " + mention + " disagree"));
    }

    private static String problems(Source<?>... sources) {
        return String.join("; ", java.util.Arrays.stream(sources).map(Source::problem).filter(p -> !p.isEmpty()).distinct().toList());
    }

}
