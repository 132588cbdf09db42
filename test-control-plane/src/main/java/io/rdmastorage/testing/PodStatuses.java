package io.rdmastorage.testing;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerState;
import io.fabric8.kubernetes.api.model.ContainerStateBuilder;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.ContainerStatusBuilder;
import io.fabric8.kubernetes.api.model.HostIPBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.PodConditionBuilder;
import io.fabric8.kubernetes.api.model.PodIPBuilder;
import io.fabric8.kubernetes.api.model.PodStatus;
import io.fabric8.kubernetes.api.model.PodStatusBuilder;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The pod statuses a kubelet writes, as values: Pending (ContainerCreating or an image pull
 * error), Running, and terminated (Succeeded/Failed with each container's exit code and message).
 */
public final class PodStatuses {

    /** How one container ended. */
    public record Exit(int exitCode, String message) {
    }

    private PodStatuses() {
    }

    public static PodStatus containerCreating(Pod pod, String hostIp, Instant started) {
        return pending(pod, hostIp, started, "ContainerCreating", null);
    }

    /** {@code reason} is ErrImagePull or ImagePullBackOff. */
    public static PodStatus imagePullError(Pod pod, String hostIp, Instant started, String reason) {
        return pending(pod, hostIp, started, reason, null);
    }

    public static PodStatus running(Pod pod, String hostIp, Instant started) {
        return base(pod, hostIp, started, "Running", true, true, null)
                .withContainerStatuses(statuses(pod, c -> new ContainerStateBuilder().withNewRunning()
                        .withStartedAt(time(started)).endRunning().build(), true))
                .build();
    }

    /** Succeeded when every container exited 0, else Failed. */
    public static PodStatus terminated(Pod pod, String hostIp, Instant started, Instant finished, Map<String, Exit> exits) {
        boolean succeeded = exits.values().stream().allMatch(e -> e.exitCode() == 0);
        return base(pod, hostIp, started, succeeded ? "Succeeded" : "Failed", true, false, "PodCompleted")
                .withContainerStatuses(statuses(pod, c -> {
                    Exit exit = exits.getOrDefault(c.getName(), new Exit(0, null));
                    return new ContainerStateBuilder().withNewTerminated()
                            .withExitCode(exit.exitCode())
                            .withReason(exit.exitCode() == 0 ? "Completed" : "Error")
                            .withMessage(exit.message() == null || exit.message().isEmpty() ? null : exit.message())
                            .withStartedAt(time(started))
                            .withFinishedAt(time(finished))
                            .withContainerID(containerId(pod, c))
                            .endTerminated().build();
                }, false))
                .build();
    }

    private static PodStatus pending(Pod pod, String hostIp, Instant started, String waitingReason, String message) {
        String text = message;
        if (text == null && !waitingReason.equals("ContainerCreating")) {
            text = "Back-off pulling image \"" + pod.getSpec().getContainers().get(0).getImage() + "\": simulated pull failure";
        }
        String finalText = text;
        return base(pod, hostIp, started, "Pending", !waitingReason.equals("ContainerCreating"), false, "ContainersNotReady")
                .withContainerStatuses(statuses(pod, c -> new ContainerStateBuilder().withNewWaiting()
                        .withReason(waitingReason).withMessage(finalText).endWaiting().build(), false))
                .build();
    }

    private static PodStatusBuilder base(Pod pod, String hostIp, Instant started, String phase, boolean sandboxReady,
                                         boolean ready, String notReadyReason) {
        String now = time(Instant.now());
        List<PodCondition> conditions = new ArrayList<>();
        conditions.add(condition("PodReadyToStartContainers", sandboxReady && !phase.equals("Succeeded") && !phase.equals("Failed"), now, null));
        conditions.add(condition("Initialized", true, now, null));
        conditions.add(condition("Ready", ready, now, ready ? null : notReadyReason));
        conditions.add(condition("ContainersReady", ready, now, ready ? null : notReadyReason));
        conditions.add(condition("PodScheduled", true, now, null));
        return new PodStatusBuilder()
                .withPhase(phase)
                .withConditions(conditions)
                .withHostIP(hostIp)
                .withHostIPs(new HostIPBuilder().withIp(hostIp).build())
                // probe pods use hostNetwork; the host address is as good as any for the others
                .withPodIP(hostIp)
                .withPodIPs(new PodIPBuilder().withIp(hostIp).build())
                .withStartTime(time(started))
                .withQosClass(pod.getStatus() != null ? pod.getStatus().getQosClass() : null);
    }

    private static List<ContainerStatus> statuses(Pod pod, Function<Container, ContainerState> state, boolean ready) {
        List<ContainerStatus> result = new ArrayList<>();
        for (Container container : pod.getSpec().getContainers()) {
            ContainerState s = state.apply(container);
            boolean started = s.getRunning() != null;
            result.add(new ContainerStatusBuilder()
                    .withName(container.getName())
                    .withImage(container.getImage())
                    .withImageID(s.getWaiting() != null ? "" : "simulated://" + container.getImage())
                    .withContainerID(s.getWaiting() != null ? null : containerId(pod, container))
                    .withState(s)
                    .withReady(ready)
                    .withStarted(started)
                    .withRestartCount(0)
                    .build());
        }
        return result;
    }

    private static PodCondition condition(String type, boolean status, String now, String reason) {
        return new PodConditionBuilder().withType(type).withStatus(status ? "True" : "False")
                .withLastTransitionTime(now).withReason(reason).build();
    }

    private static String containerId(Pod pod, Container container) {
        return "simulated://" + pod.getMetadata().getUid() + "/" + container.getName();
    }

    static String time(Instant instant) {
        return instant.truncatedTo(ChronoUnit.SECONDS).toString();
    }
}
