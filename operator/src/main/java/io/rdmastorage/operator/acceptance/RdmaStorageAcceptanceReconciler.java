package io.rdmastorage.operator.acceptance;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.javaoperatorsdk.operator.api.config.informer.InformerEventSourceConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.Cleaner;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.ControllerConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.DeleteControl;
import io.javaoperatorsdk.operator.api.reconciler.EventSourceContext;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.javaoperatorsdk.operator.processing.event.source.EventSource;
import io.javaoperatorsdk.operator.processing.event.source.informer.InformerEventSource;
import io.rdmastorage.contract.spec.InvalidSpecException;
import io.rdmastorage.operator.api.AcceptanceTransportResult;
import io.rdmastorage.operator.api.Labels;
import io.rdmastorage.operator.api.PeerAddressType;
import io.rdmastorage.operator.api.RdmaStorageAcceptance;
import io.rdmastorage.operator.api.RdmaStorageAcceptanceStatus;
import io.rdmastorage.operator.config.OperatorConfig;
import io.rdmastorage.operator.events.VerdictEvents;
import io.rdmastorage.operator.latency.Peer;
import io.rdmastorage.operator.metrics.OperatorMetrics;
import io.rdmastorage.operator.probe.ProbeOutcome;
import io.rdmastorage.operator.probe.ProbeOutcomeReader;
import io.rdmastorage.operator.verdict.Conditions;
import io.rdmastorage.operator.verdict.SafeText;
import io.rdmastorage.operator.verdict.Timestamps;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Carries one RdmaStorageAcceptance through Pending → Running → Succeeded or Failed, like a Job:
 * <ul>
 * <li>at most one run per node at a time: of the unfinished runs on a node, the oldest (then by
 * name) measures and the others wait, Pending {@code WaitingForNode};</li>
 * <li>Running: the run's spec ConfigMap and pod exist ({@link AcceptancePods}); the pod reports
 * through its termination message;</li>
 * <li>the end: the report becomes the status table, the ratios and RdmaEffective
 * ({@link AcceptanceVerdict}), the Markdown record its ConfigMap ({@link AcceptanceRecord}); the
 * pod and spec are deleted. A pod that fails, is lost or passes the deadline ends the run Failed;
 * deleting the pod is what stops the probe, and the probe disconnects what it connected on its way
 * out;</li>
 * <li>deleting the run deletes its pod and ConfigMaps (also where no garbage collector runs).</li>
 * </ul>
 * A finished run is never run again: its status is its record.
 */
@ControllerConfiguration(name = RdmaStorageAcceptanceReconciler.NAME)
public class RdmaStorageAcceptanceReconciler implements Reconciler<RdmaStorageAcceptance>, Cleaner<RdmaStorageAcceptance> {

    public static final String NAME = "rdmastorageacceptance";
    private static final Logger LOG = LoggerFactory.getLogger(RdmaStorageAcceptanceReconciler.class);
    /** A waiting run looks again this often (the run before it may end at any moment). */
    static final Duration WAIT_RETRY = Duration.ofSeconds(5);
    /** A pod that the cache does not show yet right after its creation is not lost. */
    static final Duration CACHE_LAG = Duration.ofSeconds(10);

    private final OperatorConfig config;
    private final OperatorMetrics metrics;
    private final AcceptanceGauges gauges;
    private final Clock clock;

    public RdmaStorageAcceptanceReconciler(OperatorConfig config, OperatorMetrics metrics, Clock clock) {
        this.config = config;
        this.metrics = metrics;
        this.gauges = new AcceptanceGauges(metrics);
        this.clock = clock;
        metrics.registerAcceptanceRuns(AcceptanceSpecDocument.TARGETS);
    }

    @Override
    public List<EventSource<?, RdmaStorageAcceptance>> prepareEventSources(EventSourceContext<RdmaStorageAcceptance> context) {
        var pods = new InformerEventSource<>(InformerEventSourceConfiguration.from(Pod.class, RdmaStorageAcceptance.class)
                .withNamespaces(Set.of(config.namespace()))
                .withLabelSelector(Labels.MANAGED_BY_SELECTOR + "," + Labels.COMPONENT + "=" + AcceptancePods.COMPONENT)
                .withSecondaryToPrimaryMapper(RdmaStorageAcceptanceReconciler::byRunLabel)
                .build(), context);
        return List.of(pods);
    }

    private static Set<ResourceID> byRunLabel(HasMetadata resource) {
        Map<String, String> labels = resource.getMetadata().getLabels();
        String run = labels == null ? null : labels.get(RdmaStorageAcceptance.RUN_LABEL);
        return run == null ? Set.of() : Set.of(new ResourceID(run));
    }

    @Override
    public UpdateControl<RdmaStorageAcceptance> reconcile(RdmaStorageAcceptance run, Context<RdmaStorageAcceptance> context) {
        RdmaStorageAcceptanceStatus previous = run.getStatus() == null ? new RdmaStorageAcceptanceStatus() : run.getStatus();
        if (finished(previous)) {
            gauges.show(run, previous);   // after a restart, the gauges come back from the runs' statuses
            return UpdateControl.noUpdate();
        }
        Instant now = clock.instant();
        KubernetesClient client = context.getClient();
        AcceptanceSpecDocument document;
        try {
            document = AcceptanceSpecDocument.of(run.getSpec(), run.getMetadata().getName());
        } catch (InvalidSpecException e) {
            // the CRD schema should have refused it; never let it reach a privileged pod
            return end(run, previous, AcceptanceReasons.INVALID_SPEC, "invalid spec: " + e.getMessage(), now, context);
        }
        String podName = AcceptancePods.podName(run);
        Optional<Pod> pod = context.getSecondaryResources(Pod.class).stream()
                .filter(p -> podName.equals(p.getMetadata().getName())).findFirst();
        boolean podGoing = pod.isEmpty() || pod.get().getMetadata().getDeletionTimestamp() != null;
        if (podGoing && AcceptanceReasons.PHASE_RUNNING.equals(previous.getPhase()) && endedMeanwhile(client, run)) {
            // this run's own end deleted its pods, and their events came before the cache saw the end
            return UpdateControl.noUpdate();
        }
        if (pod.isEmpty() && AcceptanceReasons.PHASE_RUNNING.equals(previous.getPhase())) {
            pod = podFromServer(client, run, podName, previous, now);
            if (pod.isEmpty()) {
                return end(run, previous, AcceptanceReasons.PROBE_FAILED, "the run's pod " + podName
                        + " is gone without a report (deleted, or its node was lost); create a new run", now, context);
            }
        }
        if (pod.isPresent()) {
            return observe(run, previous, document, pod.get(), context, now);
        }
        return start(run, previous, document, context, now);
    }

    /** Not started yet: wait for the node's earlier run, or create the spec and the pod. */
    private UpdateControl<RdmaStorageAcceptance> start(RdmaStorageAcceptance run, RdmaStorageAcceptanceStatus previous,
                                                       AcceptanceSpecDocument document, Context<RdmaStorageAcceptance> context,
                                                       Instant now) {
        String node = run.getSpec().getNodeName();
        KubernetesClient client = context.getClient();
        if (client.nodes().withName(node).get() == null) {
            return end(run, previous, AcceptanceReasons.NODE_NOT_FOUND, "node " + node
                    + " does not exist; check spec.nodeName (kubectl get nodes)", now, context);
        }
        Optional<Peer> peer = Optional.empty();
        if (document.isVerbs()) {
            String peerNode = run.getSpec().getVerbs().getPeerNode();
            Node peerObject = client.nodes().withName(peerNode).get();
            if (peerObject == null) {
                return end(run, previous, AcceptanceReasons.NODE_NOT_FOUND, "peer node " + peerNode
                        + " does not exist; check spec.verbs.peerNode (kubectl get nodes)", now, context);
            }
            peer = Peer.of(peerObject, PeerAddressType.InternalIP);
            if (peer.isEmpty()) {
                return end(run, previous, AcceptanceReasons.NODE_NOT_FOUND, "peer node " + peerNode
                        + " has no InternalIP address in its status for the client to connect to", now, context);
            }
        }
        Set<String> nodes = nodes(run);
        Optional<RdmaStorageAcceptance> before = context.getPrimaryCache().list()
                .filter(other -> nodes(other).stream().anyMatch(nodes::contains))
                .filter(other -> other.getStatus() == null || !finished(other.getStatus()))
                .filter(other -> other.getMetadata().getDeletionTimestamp() == null)
                .min(ORDER);
        if (before.isPresent() && !before.get().getMetadata().getName().equals(run.getMetadata().getName())) {
            RdmaStorageAcceptanceStatus status = base(run, previous, AcceptanceReasons.PENDING);
            String waiting = "acceptance run " + before.get().getMetadata().getName() + " is measuring node "
                    + String.join(" or ", nodes(before.get()).stream().filter(nodes::contains).toList())
                    + "; this run starts when it ends (one run per node at a time)";
            status.setConditions(conditions(run, previous, Conditions.FALSE, AcceptanceReasons.WAITING_FOR_NODE,
                    waiting, null, now));
            if (previous.getPhase() == null) {
                new AcceptanceEvents(new VerdictEvents(client)).waiting(run, waiting);
            }
            return patch(run, status, WAIT_RETRY);
        }
        Optional<String> refusal = compareWithRefusal(run, context);
        if (refusal.isPresent()) {
            // refused before anything runs on the node: the comparison would compare nothing
            return end(run, previous, AcceptanceReasons.COMPARE_WITH_INVALID, refusal.get(), now, context);
        }
        client.configMaps().resource(AcceptancePods.spec(run, document, config)).serverSideApply();
        if (document.isVerbs()) {
            create(client, VerbsAcceptancePods.server(run, document, config));
            create(client, VerbsAcceptancePods.client(run, document, peer.orElseThrow(), config));
        } else {
            create(client, AcceptancePods.pod(run, document, config));
        }
        LOG.info("acceptance run {} started on node {}", run.getMetadata().getName(), node);
        RdmaStorageAcceptanceStatus status = base(run, previous, AcceptanceReasons.PHASE_RUNNING);
        status.setStartTime(Timestamps.format(now));
        status.setPodName(AcceptancePods.podName(run));
        String what = document.isVerbs() ? "rdma then tcp between " + node + " and " + peer.orElseThrow()
                : document.what() + " on " + node;
        String running = "measuring " + what + "; deadline " + Timestamps.format(now.plus(document.deadline()));
        status.setConditions(conditions(run, previous, Conditions.FALSE, AcceptanceReasons.RUNNING, running, null, now));
        if (!AcceptanceReasons.PHASE_RUNNING.equals(previous.getPhase())) {
            new AcceptanceEvents(new VerdictEvents(client)).started(run, running + " (pod " + AcceptancePods.podName(run) + ")");
        }
        return patch(run, status, document.deadline());
    }

    /** Creates a pod of the run; one created by a reconcile before a restart is adopted. */
    private static void create(KubernetesClient client, Pod pod) {
        try {
            client.pods().resource(pod).create();
        } catch (KubernetesClientException e) {
            if (e.getCode() != 409) {
                throw e;
            }
        }
    }

    /** The nodes a run measures on: its node, and the verbs target's peer. */
    static Set<String> nodes(RdmaStorageAcceptance run) {
        if (run.getSpec() == null || run.getSpec().getNodeName() == null) {
            return Set.of();
        }
        return run.getSpec().getVerbs() == null || run.getSpec().getVerbs().getPeerNode() == null
                ? Set.of(run.getSpec().getNodeName())
                : Set.of(run.getSpec().getNodeName(), run.getSpec().getVerbs().getPeerNode());
    }

    /** Running: harvest the pod once it ended, or end the run at its deadline. */
    private UpdateControl<RdmaStorageAcceptance> observe(RdmaStorageAcceptance run, RdmaStorageAcceptanceStatus previous,
                                                         AcceptanceSpecDocument document, Pod pod,
                                                         Context<RdmaStorageAcceptance> context, Instant now) {
        KubernetesClient client = context.getClient();
        ProbeOutcome outcome = ProbeOutcomeReader.of(pod, now, document.deadline());
        Optional<String> peerFailed = document.isVerbs() && outcome instanceof ProbeOutcome.InProgress
                ? VerbsServerState.failure(context.getSecondaryResources(Pod.class), run, previous, now, document.deadline())
                : Optional.empty();
        if (peerFailed.isPresent()) {
            deleteRunObjects(client, run, false);
            return end(run, previous, AcceptanceReasons.PROBE_FAILED, peerFailed.get(), now, context);
        }
        if (outcome instanceof ProbeOutcome.InProgress progress) {
            RdmaStorageAcceptanceStatus status = base(run, previous, AcceptanceReasons.PHASE_RUNNING);
            status.setStartTime(previous.getStartTime() != null ? previous.getStartTime() : Timestamps.format(now));
            status.setPodName(pod.getMetadata().getName());
            status.setConditions(conditions(run, previous, Conditions.FALSE, AcceptanceReasons.RUNNING,
                    "measuring on " + run.getSpec().getNodeName() + " in pod " + pod.getMetadata().getName(), null, now));
            return patch(run, status, Duration.between(now, progress.timesOutAt()));
        }
        deleteRunObjects(client, run, false);
        if (outcome instanceof ProbeOutcome.Finished finished) {
            Optional<AcceptanceResult> result = AcceptanceResult.parse(finished.terminationMessage());
            if (result.isEmpty()) {
                return end(run, previous, AcceptanceReasons.PROBE_FAILED, "the pod exited " + finished.exitCode()
                        + " without a readable acceptance report: " + SafeText.quote(finished.terminationMessage(), SafeText.EXCERPT)
                        + "; see the probe image's version and the pod's log", now, context);
            }
            return harvest(run, previous, document, result.get(), context, now);
        }
        String message;
        if (outcome instanceof ProbeOutcome.TimedOut t) {
            message = "no result after " + t.age().toSeconds() + "s (deadline " + document.deadline().toSeconds()
                    + "s); the pod was deleted, and the probe disconnects what it connected as it stops. "
                    + "Raise spec.timeoutSeconds or shorten the workloads";
        } else if (outcome instanceof ProbeOutcome.FailedToStart f) {
            message = "the pod did not start: " + f.reason() + ": " + f.message();
        } else if (outcome instanceof ProbeOutcome.Lost l) {
            message = "the pod was lost: " + l.reason() + ": " + l.message();
        } else {
            message = "unexpected pod state " + outcome;
        }
        return end(run, previous, outcome instanceof ProbeOutcome.TimedOut ? AcceptanceReasons.TIMED_OUT
                : AcceptanceReasons.PROBE_FAILED, message, now, context);
    }

    private UpdateControl<RdmaStorageAcceptance> harvest(RdmaStorageAcceptance run, RdmaStorageAcceptanceStatus previous,
                                                         AcceptanceSpecDocument document, AcceptanceResult result,
                                                         Context<RdmaStorageAcceptance> context, Instant now) {
        KubernetesClient client = context.getClient();
        double minRatio = run.getSpec().getMinLatencyRatio() == null ? 2.0 : run.getSpec().getMinLatencyRatio();
        List<AcceptanceTransportResult> rows = result.transports();
        AcceptanceVerdict.Judged verdict;
        if (run.getSpec().getPath() != null) {
            String compareWith = run.getSpec().getPath().getCompareWith();
            Optional<RdmaStorageAcceptance> earlier = compareWith == null ? Optional.empty() : earlier(compareWith, context);
            // looked at again: the earlier run may have been deleted while this one measured
            Optional<String> refusal = compareWith == null ? Optional.empty() : PathComparison.refusal(run, earlier);
            if (earlier.isPresent() && refusal.isEmpty()) {
                rows = PathComparison.rows(rows, earlier.get());
            }
            verdict = PathComparison.judge(rows, refusal, compareWith != null, minRatio);
        } else if (document.isVerbs()) {
            verdict = AcceptanceVerdict.judge(rows, minRatio, VerbsAcceptanceRecord.WORDING);
        } else {
            verdict = AcceptanceVerdict.judge(rows, minRatio);
        }
        AcceptanceResult shown = new AcceptanceResult(result.complete(), result.message(), result.probeVersion(),
                result.fioVersion(), result.startedAt(), rows, result.disconnected());
        client.configMaps().resource(AcceptancePods.report(run, AcceptanceRecord.markdown(run, document, shown, verdict), config))
                .serverSideApply();
        boolean complete = result.complete();
        RdmaStorageAcceptanceStatus status = base(run, previous, complete ? AcceptanceReasons.SUCCEEDED : AcceptanceReasons.FAILED);
        status.setStartTime(previous.getStartTime());
        status.setPodName(previous.getPodName());
        status.setCompletionTime(Timestamps.format(now));
        status.setReport(AcceptancePods.reportName(run.getMetadata().getName()));
        status.setTransports(new ArrayList<>(rows));
        status.setRatios(verdict.ratios().orElse(null));
        status.setConditions(conditions(run, previous,
                complete ? Conditions.TRUE : Conditions.FALSE,
                complete ? AcceptanceReasons.MEASURED : AcceptanceReasons.INCOMPLETE,
                !complete ? result.message() : run.getSpec().getPath() != null ? measuredPath(result)
                        : "every transport measured by itself: " + String.join(", ", transports(result.transports()))
                        + (result.disconnected().isEmpty() ? "" : "; connected and disconnected again: "
                        + String.join(", ", result.disconnected())),
                verdict, now));
        finish(run, status, context);
        LOG.info("acceptance run {} on {}: {}, RdmaEffective {}", run.getMetadata().getName(), run.getSpec().getNodeName(),
                status.getPhase(), verdict.status());
        return patch(run, status, null);
    }

    /** A path run's Complete message: the transport its counters showed, and the file it wrote and removed. */
    private static String measuredPath(AcceptanceResult result) {
        AcceptanceTransportResult own = result.transports().get(0);
        return "measured over " + own.getTransport() + " (the storage counters: " + own.getTraffic() + "); " + own.getDevice()
                + " was written for the run and removed after it";
    }

    /** The run's end: its Events, its count, and the node's ratio gauges. */
    private void finish(RdmaStorageAcceptance run, RdmaStorageAcceptanceStatus status, Context<RdmaStorageAcceptance> context) {
        new AcceptanceEvents(new VerdictEvents(context.getClient())).ended(run, status);
        Condition effective = Conditions.byType(status.getConditions()).get(AcceptanceReasons.RDMA_EFFECTIVE);
        metrics.recordAcceptanceRun(AcceptanceSpecDocument.target(run.getSpec()), status.getPhase(), effective.getStatus());
        gauges.show(run, status);
    }

    /** Why a path run's compareWith cannot be used, before the run starts; empty when it can (or names none). */
    private static Optional<String> compareWithRefusal(RdmaStorageAcceptance run, Context<RdmaStorageAcceptance> context) {
        if (run.getSpec().getPath() == null || run.getSpec().getPath().getCompareWith() == null) {
            return Optional.empty();
        }
        return PathComparison.refusal(run, earlier(run.getSpec().getPath().getCompareWith(), context));
    }

    private static Optional<RdmaStorageAcceptance> earlier(String name, Context<RdmaStorageAcceptance> context) {
        return context.getPrimaryCache().get(new ResourceID(name));
    }

    /** Failed before any report: Complete False with the reason, RdmaEffective Unknown. */
    private UpdateControl<RdmaStorageAcceptance> end(RdmaStorageAcceptance run, RdmaStorageAcceptanceStatus previous,
                                                     String reason, String message, Instant now,
                                                     Context<RdmaStorageAcceptance> context) {
        RdmaStorageAcceptanceStatus status = base(run, previous, AcceptanceReasons.FAILED);
        status.setStartTime(previous.getStartTime());
        status.setPodName(previous.getPodName());
        status.setCompletionTime(Timestamps.format(now));
        status.setConditions(conditions(run, previous, Conditions.FALSE, reason, message, null, now));
        LOG.info("acceptance run {} failed: {}: {}", run.getMetadata().getName(), reason, message);
        finish(run, status, context);
        return patch(run, status, null);
    }

    /** Whether the API server has the run finished (or gone) though the cache still shows it Running. */
    private static boolean endedMeanwhile(KubernetesClient client, RdmaStorageAcceptance run) {
        // a list by name, not a get: the operator's RBAC has list for this kind, and needs no more
        List<RdmaStorageAcceptance> latest = client.resources(RdmaStorageAcceptance.class)
                .withField("metadata.name", run.getMetadata().getName()).list().getItems();
        return latest.isEmpty() || latest.get(0).getStatus() != null && finished(latest.get(0).getStatus());
    }

    /** The pod by a list call, when the cache does not show it: just created, or really gone. */
    private Optional<Pod> podFromServer(KubernetesClient client, RdmaStorageAcceptance run, String podName,
                                        RdmaStorageAcceptanceStatus previous, Instant now) {
        Optional<Pod> listed = client.pods().inNamespace(config.namespace())
                .withLabel(RdmaStorageAcceptance.RUN_LABEL, run.getMetadata().getName()).list().getItems().stream()
                .filter(p -> podName.equals(p.getMetadata().getName())).findFirst();
        if (listed.isPresent()) {
            return listed;
        }
        Instant started = previous.getStartTime() == null ? now : Timestamps.parse(previous.getStartTime()).orElse(now);
        // inside the cache's lag the pod may exist without being listed yet by either: not lost yet
        return now.isBefore(started.plus(CACHE_LAG)) ? Optional.of(placeholder(podName)) : Optional.empty();
    }

    /** A pod object that reads as in progress, for the moments the API has not shown the new pod yet. */
    private static Pod placeholder(String name) {
        Pod pod = new Pod();
        pod.setMetadata(new ObjectMetaBuilder().withName(name).build());
        return pod;
    }

    @Override
    public DeleteControl cleanup(RdmaStorageAcceptance run, Context<RdmaStorageAcceptance> context) {
        deleteRunObjects(context.getClient(), run, true);
        gauges.forget(run);
        LOG.info("acceptance run {} deleted: its pod and ConfigMaps are removed", run.getMetadata().getName());
        return DeleteControl.defaultDelete();
    }

    /** The pod and the spec, and with {@code record} also the Markdown record. */
    private void deleteRunObjects(KubernetesClient client, RdmaStorageAcceptance run, boolean record) {
        String name = run.getMetadata().getName();
        client.pods().inNamespace(config.namespace()).withName(AcceptancePods.podName(run)).delete();
        if (run.getSpec() != null && run.getSpec().getVerbs() != null) {
            client.pods().inNamespace(config.namespace()).withName(VerbsAcceptancePods.serverName(run)).delete();
        }
        client.configMaps().inNamespace(config.namespace()).withName(AcceptancePods.specName(name)).delete();
        if (record) {
            client.configMaps().inNamespace(config.namespace()).withName(AcceptancePods.reportName(name)).delete();
        }
    }

    private static final ObjectMapper SAME = new ObjectMapper();

    private static final Comparator<RdmaStorageAcceptance> ORDER = Comparator
            .comparing((RdmaStorageAcceptance r) -> Objects.requireNonNullElse(r.getMetadata().getCreationTimestamp(), ""))
            .thenComparing(r -> r.getMetadata().getName());

    static boolean finished(RdmaStorageAcceptanceStatus status) {
        return AcceptanceReasons.SUCCEEDED.equals(status.getPhase()) || AcceptanceReasons.FAILED.equals(status.getPhase());
    }

    private static RdmaStorageAcceptanceStatus base(RdmaStorageAcceptance run, RdmaStorageAcceptanceStatus previous, String phase) {
        RdmaStorageAcceptanceStatus status = new RdmaStorageAcceptanceStatus();
        status.setObservedGeneration(run.getMetadata().getGeneration());
        status.setPhase(phase);
        status.setTarget(target(run));
        status.setTransports(previous.getTransports() == null ? new ArrayList<>() : previous.getTransports());
        return status;
    }

    /** What kubectl's TARGET column shows: the subsystem, the directory, or the verbs device and the peer. */
    static String target(RdmaStorageAcceptance run) {
        if (run.getSpec().getPath() != null) {
            return "path " + run.getSpec().getPath().getDirectory();
        }
        if (run.getSpec().getVerbs() != null) {
            return "verbs " + run.getSpec().getVerbs().getDevice() + " to " + run.getSpec().getVerbs().getPeerNode();
        }
        return run.getSpec().getNvmeof() == null ? null : run.getSpec().getNvmeof().getNqn();
    }

    /** Complete as given; RdmaEffective from the verdict, or Unknown while there is none. */
    private static List<Condition> conditions(RdmaStorageAcceptance run, RdmaStorageAcceptanceStatus previous,
                                              String completeStatus, String completeReason, String completeMessage,
                                              AcceptanceVerdict.Judged verdict, Instant now) {
        long generation = run.getMetadata().getGeneration() == null ? 0 : run.getMetadata().getGeneration();
        Condition complete = Conditions.of(AcceptanceReasons.COMPLETE, completeStatus, completeReason, completeMessage,
                generation, now);
        Condition effective = verdict == null
                ? Conditions.of(AcceptanceReasons.RDMA_EFFECTIVE, Conditions.UNKNOWN, AcceptanceReasons.NO_COMPARISON,
                        "no measurement yet" + (completeStatus.equals(Conditions.FALSE) && !AcceptanceReasons.RUNNING.equals(completeReason)
                                && !AcceptanceReasons.WAITING_FOR_NODE.equals(completeReason) ? " (the run ended " + completeReason + ")" : ""),
                        generation, now)
                : Conditions.of(AcceptanceReasons.RDMA_EFFECTIVE, verdict.status(), verdict.reason(), verdict.message(), generation, now);
        return Conditions.merge(previous.getConditions(), List.of(complete, effective), now, generation);
    }

    private static List<String> transports(List<AcceptanceTransportResult> results) {
        // the verbs target has no controller: its device (rxe0/1, TCP to 10.0.0.2) says what was measured
        return results.stream().map(t -> t.getTransport() + " (" + (t.getController() == null || t.getController().isEmpty()
                ? t.getDevice() : t.getController()) + ")").toList();
    }

    /** Patches the status (ours alone: no resourceVersion), then looks again after {@code delay} if given. */
    private static UpdateControl<RdmaStorageAcceptance> patch(RdmaStorageAcceptance run, RdmaStorageAcceptanceStatus status,
                                                              Duration delay) {
        if (SAME.valueToTree(status).equals(SAME.valueToTree(run.getStatus()))) {
            // a no-op patch is still an API request
            UpdateControl<RdmaStorageAcceptance> none = UpdateControl.noUpdate();
            return delay == null ? none : none.rescheduleAfter(Math.max(1_000, delay.toMillis()));
        }
        RdmaStorageAcceptance patch = new RdmaStorageAcceptance();
        patch.setMetadata(new ObjectMetaBuilder().withName(run.getMetadata().getName()).build());
        patch.setStatus(status);
        UpdateControl<RdmaStorageAcceptance> control = UpdateControl.patchStatus(patch);
        return delay == null ? control : control.rescheduleAfter(Math.max(1_000, delay.toMillis()));
    }
}
