package io.rdmastorage.probe.check;

import static io.rdmastorage.contract.checks.NvmeofRdma.*;

import io.rdmastorage.contract.CheckType;
import io.rdmastorage.contract.Status;
import io.rdmastorage.contract.spec.ProbeSpec;
import io.rdmastorage.probe.host.HostRoot;
import io.rdmastorage.probe.host.NvmeControllers;
import io.rdmastorage.probe.parse.NvmeController;
import io.rdmastorage.probe.spec.IpAddress;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * NVMe-oF targets really connected over RDMA. The kernel's sysfs view of each controller
 * ({@code /sys/class/nvme/nvmeN/{transport,address,subsysnqn,state}}) is the source: it does not
 * change with nvme-cli versions.
 *
 * <p>With declared targets, each needs a live rdma controller with its NQN, address and port. A
 * path of the target's subsystem on tcp fails the check even beside a live rdma path: native NVMe
 * multipath spreads I/O over every path of a subsystem, so part of the I/O silently skips RDMA.
 * A controller in {@code connecting} or {@code resetting} is not live (DESIGN.md): I/O waits or fails
 * until it is, so it is False ControllerNotLive, with a message saying it may be reconnecting.
 *
 * <p>Without targets (discovery mode, or an empty {@code nvmeof} section) every rdma or tcp
 * controller is judged: tcp is the silent fallback this product exists to find, so it is False
 * even though we do not know the intent; the message says how to declare targets instead. FC and
 * loop controllers are neither RDMA nor its fallback, and PCIe drives are local: they are not judged.
 */
public final class NvmeofRdmaCheck extends FactsCheck<NvmeofRdmaCheck.Facts> {

    static final String NVME_CLASS = NvmeControllers.NVME_CLASS;
    /** When several targets fail, the first reason of this list is the check's reason. */
    private static final List<String> REASON_ORDER =
            List.of(TRANSPORT_TCP, TARGET_NOT_CONNECTED, CONTROLLER_NOT_LIVE, CONTROLLER_UNREADABLE);
    private static final String DIAGNOSE = "`nvme list-subsys` and `dmesg | grep -i nvme`";

    /**
     * What the host's sysfs shows.
     *
     * @param hostRoot     where the host's file system is seen, for messages
     * @param sysfsVisible whether the host's /sys is there at all ({@link HostView#SYSFS})
     * @param controllers  every controller under /sys/class/nvme, by number
     */
    public record Facts(String hostRoot, boolean sysfsVisible, List<NvmeController> controllers) {
    }

    @Override
    public CheckType type() {
        return CheckType.NVMEOF_RDMA;
    }

    /**
     * With declared targets always; with an empty section or none, where there are rdma or tcp
     * controllers to judge, or (with a section) where the host's /sys cannot be seen to look for them.
     */
    @Override
    public boolean applies(ProbeContext context) {
        ProbeSpec.Nvmeof nvmeof = context.spec().nvmeof();
        if (nvmeof != null && !nvmeof.targets().isEmpty()) {
            return true;
        }
        if (nvmeof != null && !HostView.SYSFS.visible(context.host())) {
            return true;
        }
        return (context.discovery() || nvmeof != null)
                && NvmeControllers.list(context.host()).stream().anyMatch(NvmeofRdmaCheck::isJudgedInSurvey);
    }

    @Override
    protected Facts gather(ProbeContext context) {
        HostRoot host = context.host();
        return new Facts(host.root().toString(), HostView.SYSFS.visible(host), NvmeControllers.list(host));
    }

    @Override
    protected Judgement judge(Facts facts, ProbeSpec spec) {
        ProbeSpec.Nvmeof nvmeof = spec.nvmeof();
        if (!facts.sysfsVisible()) {
            // no /sys at all is a probe mount problem, not a node without NVMe: do not call targets missing
            return Judgement.only(HostView.SYSFS.missing(facts.hostRoot()), new Details());
        }
        if (nvmeof == null || nvmeof.targets().isEmpty()) {
            return survey(facts.controllers());
        }
        List<TargetVerdict> verdicts = nvmeof.targets().stream().map(t -> judge(t, facts.controllers())).toList();
        Details details = new Details().list("targets", verdicts.stream().map(TargetVerdict::detail).toList());
        List<Finding> findings = verdicts.stream().filter(v -> v.status != Status.TRUE)
                .map(v -> Finding.of(v.status, v.reason, v.sentence, v.sentence))
                .toList();
        return Judgement.of(findings, Finding.passed(CONNECTED, allConnected(verdicts)), details);
    }

    @Override
    protected Findings.Mention mention() {
        return Findings.Mention.COUNTED;
    }

    /** When several targets fail, the first reason of this list is the check's reason. */
    @Override
    protected List<String> precedence() {
        return REASON_ORDER;
    }

    /** One declared target against every controller of the node. */
    private static TargetVerdict judge(ProbeSpec.Target target, List<NvmeController> controllers) {
        List<NvmeController> paths = matching(controllers, c -> c.subsysnqn().equals(target.nqn()));
        List<NvmeController> tcp = matching(paths, NvmeController::isTcp);
        List<NvmeController> atTarget = matching(paths, c -> c.isRdma() && c.reaches(target.address(), target.port()));
        List<NvmeController> live = matching(atTarget, NvmeController::isLive);
        String connect = connectCommand(target);
        if (!tcp.isEmpty()) {
            String sentence = describe(target) + " has a tcp path (" + pathList(tcp) + ")";
            sentence += live.isEmpty()
                    ? " and no live rdma path: its I/O silently skips RDMA. Reconnect over RDMA: "
                            + disconnectCommand(tcp) + ", `modprobe nvme-rdma`, " + connect
                            + "; `dmesg | grep -i nvme` shows why rdma was not used"
                    : " beside the live rdma path " + names(live) + ": NVMe multipath sends part of the I/O over tcp."
                            + " Remove the tcp path: " + disconnectCommand(tcp);
            return new TargetVerdict(target, Status.FALSE, TRANSPORT_TCP, sentence, paths);
        }
        if (!live.isEmpty()) {
            return new TargetVerdict(target, Status.TRUE, CONNECTED, describe(target) + " via " + names(live), paths);
        }
        if (!atTarget.isEmpty()) {
            return new TargetVerdict(target, Status.FALSE, CONTROLLER_NOT_LIVE, notLive(target, atTarget), paths);
        }
        List<NvmeController> unclear = matching(controllers,
                c -> !c.isComplete() && mayBeRdmaOrTcp(c) && (c.subsysnqn().isEmpty() || c.subsysnqn().equals(target.nqn())));
        if (!unclear.isEmpty()) {
            NvmeController c = unclear.get(0);
            return new TargetVerdict(target, Status.UNKNOWN, CONTROLLER_UNREADABLE, "cannot tell whether " + describe(target)
                    + " is connected: " + String.join(", ", c.unreadable()) + " of " + c.name() + " could not be read; run `cat "
                    + NVME_CLASS + "/" + c.name() + "/{transport,address,subsysnqn,state}` and " + DIAGNOSE, paths);
        }
        String sentence = "no controller connects " + describe(target)
                + (paths.isEmpty() ? "" : " (its subsystem's other paths: " + pathList(paths) + ")")
                + ". Connect it over RDMA: `modprobe nvme-rdma`, then " + connect + " (`nvme discover -t rdma -a "
                + target.address() + " -s " + target.port() + "` lists what the target exports)";
        return new TargetVerdict(target, Status.FALSE, TARGET_NOT_CONNECTED, sentence, paths);
    }

    private static String notLive(ProbeSpec.Target target, List<NvmeController> atTarget) {
        NvmeController c = atTarget.get(0);
        return describe(target) + " has no live rdma controller: " + c.name() + " is " + (c.state().isEmpty() ? "in an unknown state" : c.state())
                + (c.isReconnecting() ? " (the kernel may still be reconnecting after a path or target loss; I/O waits or fails meanwhile)" : "")
                + ". Check the target and the fabric with " + DIAGNOSE + "; if it does not become live, `nvme disconnect -d "
                + c.name() + "` and " + connectCommand(target);
    }

    /** Without declared targets: report every rdma/tcp controller, flag tcp and controllers that are not live. */
    private static Judgement survey(List<NvmeController> controllers) {
        List<NvmeController> judged = matching(controllers, NvmeofRdmaCheck::isJudgedInSurvey);
        Details details = new Details()
                .list("controllers", judged.stream().map(c -> c.path() + " " + c.subsysnqn()).toList());
        List<NvmeController> tcp = matching(judged, NvmeController::isTcp);
        if (!tcp.isEmpty()) {
            NvmeController c = tcp.get(0);
            return Judgement.only(Finding.of(Status.FALSE, TRANSPORT_TCP, "NVMe-oF over tcp, not rdma: " + pathList(tcp)
                    + ". If this storage should use RDMA, reconnect it: " + disconnectCommand(tcp) + ", then `nvme connect -t rdma -n "
                    + c.subsysnqn() + " -a " + c.address().traddr().orElse("<traddr>") + " -s "
                    + c.address().port(NvmeController.DEFAULT_PORT).orElse(NvmeController.DEFAULT_PORT)
                    + "`; if tcp is intended, list the RDMA targets in the profile's nvmeof.targets so that only they are judged"), details);
        }
        List<NvmeController> notLive = matching(judged, c -> c.isComplete() && !c.isLive());
        if (!notLive.isEmpty()) {
            NvmeController c = notLive.get(0);
            return Judgement.only(Finding.of(Status.FALSE, CONTROLLER_NOT_LIVE, "NVMe-oF controller not live: " + pathList(notLive)
                    + (c.isReconnecting() ? " (the kernel may still be reconnecting after a path or target loss)" : "")
                    + ". Check the target and the fabric with " + DIAGNOSE + "; if it does not become live, `nvme disconnect -d "
                    + c.name() + "` and connect it again with `nvme connect -t rdma ...`"), details);
        }
        List<NvmeController> unclear = matching(judged, c -> !c.isComplete());
        if (!unclear.isEmpty()) {
            NvmeController c = unclear.get(0);
            return Judgement.only(Finding.of(Status.UNKNOWN, CONTROLLER_UNREADABLE, String.join(", ", c.unreadable()) + " of " + c.name()
                    + " could not be read; run `cat " + NVME_CLASS + "/" + c.name() + "/{transport,address,subsysnqn,state}` and "
                    + DIAGNOSE), details);
        }
        return Judgement.only(Finding.passed(CONNECTED, judged.isEmpty()
                ? "no NVMe-oF controller over rdma or tcp on this node"
                : judged.size() + " NVMe-oF controller(s), all over rdma and live: " + names(judged)), details);
    }

    /**
     * An I/O controller on rdma or tcp, or one whose transport cannot be read. Persistent discovery
     * controllers carry no I/O; PCIe drives, FC and loop are not RDMA's business.
     */
    private static boolean isJudgedInSurvey(NvmeController c) {
        return !c.isDiscovery() && mayBeRdmaOrTcp(c);
    }

    private static boolean mayBeRdmaOrTcp(NvmeController c) {
        return c.isIpFabric() || c.transport().isEmpty();
    }

    private static String allConnected(List<TargetVerdict> verdicts) {
        List<String> others = new ArrayList<>();
        for (TargetVerdict v : verdicts) {
            // extra paths that are down do not fail a target with a live rdma path, but are worth a word
            v.paths.stream().filter(c -> !c.isLive()).forEach(c -> others.add(c.name() + " " + c.state()));
        }
        String message = verdicts.size() == 1
                ? "connected over rdma and live: " + verdicts.get(0).sentence
                : "all " + verdicts.size() + " declared NVMe-oF targets are connected over rdma and live";
        return others.isEmpty() ? message
                : message + "; other paths not live: " + String.join(", ", others) + " (see " + DIAGNOSE + ")";
    }


    private static List<NvmeController> matching(List<NvmeController> controllers, Predicate<NvmeController> filter) {
        return controllers.stream().filter(filter).toList();
    }

    /** {@code nqn... at 10.68.20.10:4420}, brackets around IPv6 so the port stays readable. */
    private static String describe(ProbeSpec.Target target) {
        return target.nqn() + " at " + IpAddress.withPort(target.address(), target.port());
    }

    private static String connectCommand(ProbeSpec.Target target) {
        return "`nvme connect -t rdma -n " + target.nqn() + " -a " + target.address() + " -s " + target.port() + "`";
    }

    private static String disconnectCommand(List<NvmeController> controllers) {
        return controllers.size() == 1
                ? "`nvme disconnect -d " + controllers.get(0).name() + "`"
                : "`nvme disconnect -d <dev>` for each of " + names(controllers);
    }

    private static String pathList(List<NvmeController> controllers) {
        return String.join(", ", controllers.stream().map(NvmeController::path).toList());
    }

    private static String names(List<NvmeController> controllers) {
        return String.join(", ", controllers.stream().map(NvmeController::name).toList());
    }

    /** A target's outcome; {@code sentence} is its part of the check's message. */
    private record TargetVerdict(ProbeSpec.Target target, Status status, String reason, String sentence,
                                 List<NvmeController> paths) {

        Map<String, Object> detail() {
            Map<String, Object> d = new LinkedHashMap<>();
            d.put("nqn", target.nqn());
            d.put("endpoint", IpAddress.withPort(target.address(), target.port()));
            d.put("result", reason);
            d.put("paths", paths.stream().limit(CheckResult.MAX_LIST_ITEMS).map(NvmeController::path).toList());
            return d;
        }
    }
}
