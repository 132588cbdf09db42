package io.rdmastorage.operator.quarantine;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.rdmastorage.contract.ReportSchema;
import io.rdmastorage.operator.api.DeviceTaintEffect;
import io.rdmastorage.operator.api.DeviceTaintsSpec;
import io.rdmastorage.operator.api.RdmaStorageNodeStatus;
import io.rdmastorage.operator.verdict.CheckTypes;
import java.net.HttpURLConnection;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;

/**
 * Fences faulty NICs one by one: brings a node's DeviceTaintRules for a profile in line with its
 * verdict. A rule is written for each device a False check names, on each published device that is
 * it (or one of its functions); a rule stays while a check that found the device is Unknown (no
 * fresh evidence), and goes when its checks are True again, name other devices, or left the
 * profile. Rules of other profiles and of other tools are never touched: only rules labelled as
 * this profile's on this node are listed, and a name taken by someone else is left to them.
 */
public final class DeviceQuarantine {

    /** Why a faulty device is not fenced. */
    public enum Unfenced {
        /** The cluster serves no DeviceTaintRule API. */
        NoDeviceTaintApi,
        /** Effect None asked for, which this server does not know (before Kubernetes 1.35). */
        NoneEffectUnsupported,
        /** No configured driver publishes the device in the node's ResourceSlices. */
        NotPublished,
        /** A rule of that name exists and is not the operator's. */
        NameTaken
    }

    /**
     * What one converge did and found.
     *
     * @param created         rules written, by name, with what they fence
     * @param deleted         rules deleted, by name
     * @param fenced          rule names per faulty RDMA device
     * @param unfenced        faulty RDMA devices left without a rule, and why
     * @param beyondDevices   the verdict is False for something no one device explains
     * @param dryRun          effect None: rules taint nothing, so the node is marked as without them
     */
    public record Outcome(List<String> created, List<String> deleted, Map<String, List<String>> fenced,
                          Map<String, Unfenced> unfenced, boolean beyondDevices, boolean dryRun) {

        static final Outcome NOTHING = new Outcome(List.of(), List.of(), Map.of(), Map.of(), false, false);

        /**
         * Whether the node's own taint (taintNotReady) stays off for this False verdict: every
         * faulty device is fenced, and nothing beyond them is wrong.
         */
        public boolean fencesInsteadOfNode() {
            return !dryRun && !fenced.isEmpty() && unfenced.isEmpty() && !beyondDevices;
        }

        public int writes() {
            return created.size() + deleted.size();
        }
    }

    private final KubernetesClient client;
    private final DeviceTaintApi api;
    private final DeviceTaintRules rules;
    /**
     * Profile and node pairs this operator saw without a rule of theirs: a healthy node's verdict then
     * costs no request at all (not even the list), which at 10,000 nodes a round is most of them.
     * Forgotten when a rule is written for the pair; empty after a restart, so each pair is listed once.
     */
    private final Set<String> withoutRules = ConcurrentHashMap.newKeySet();

    public DeviceQuarantine(KubernetesClient client) {
        this(client, new DeviceTaintApi(client));
    }

    public DeviceQuarantine(KubernetesClient client, DeviceTaintApi api) {
        this.client = client;
        this.api = api;
        this.rules = new DeviceTaintRules(client);
    }

    /** Brings the node's rules for the profile in line with its verdict {@code status} and the profile's options. */
    public Outcome converge(String profile, String node, DeviceTaintsSpec options, RdmaStorageNodeStatus status) {
        List<FaultyDevice> faulty = FaultyDevice.of(status);
        boolean beyond = beyondDevices(status);
        DeviceTaintEffect effect = options.getEffect() == null ? DeviceTaintEffect.NoSchedule : options.getEffect();
        boolean dryRun = effect == DeviceTaintEffect.None;
        String pair = profile + "/" + node;
        if (faulty.isEmpty() && withoutRules.contains(pair)) {
            return new Outcome(List.of(), List.of(), Map.of(), Map.of(), beyond, dryRun);
        }
        Outcome outcome = converge(profile, node, effect, options, status, faulty, beyond, dryRun);
        if (outcome.fenced().isEmpty() && outcome.unfenced().values().stream().noneMatch(u -> u == Unfenced.NameTaken)) {
            withoutRules.add(pair);
        } else {
            withoutRules.remove(pair);
        }
        return outcome;
    }

    private Outcome converge(String profile, String node, DeviceTaintEffect effect, DeviceTaintsSpec options,
                             RdmaStorageNodeStatus status, List<FaultyDevice> faulty, boolean beyond, boolean dryRun) {
        Optional<DeviceTaintApi.Served> served = api.served();
        if (served.isEmpty()) {
            return new Outcome(List.of(), List.of(), Map.of(), unfenced(faulty, Unfenced.NoDeviceTaintApi), beyond, dryRun);
        }
        String apiVersion = served.get().apiVersion();
        List<GenericKubernetesResource> existing;
        try {
            existing = rules.list(apiVersion, profile, node);
        } catch (KubernetesClientException e) {
            if (e.getCode() != HttpURLConnection.HTTP_NOT_FOUND) {
                throw e;
            }
            api.forget();   // the API went (switched off, another version now): asked again next time
            return new Outcome(List.of(), List.of(), Map.of(), unfenced(faulty, Unfenced.NoDeviceTaintApi), beyond, dryRun);
        }
        if (faulty.isEmpty() && existing.isEmpty()) {
            return new Outcome(List.of(), List.of(), Map.of(), Map.of(), beyond, dryRun);
        }
        Map<String, Unfenced> unfenced = new LinkedHashMap<>();
        List<DeviceTaintRules.Rule> wanted = new ArrayList<>();
        if (dryRun && !served.get().noneEffect()) {
            unfenced.putAll(unfenced(faulty, Unfenced.NoneEffectUnsupported));
        } else if (!faulty.isEmpty()) {
            Map<String, NicDriver> byName = NicDriver.byName(NicDriver.of(options.getDrivers()));
            List<PublishedNic> published = PublishedNic.onNode(client, node, byName);
            for (FaultyDevice device : faulty) {
                List<PublishedNic> matches = published.stream().filter(n -> n.is(device, byName.get(n.driver()))).toList();
                if (matches.isEmpty()) {
                    unfenced.put(device.device(), Unfenced.NotPublished);
                }
                matches.forEach(n -> wanted.add(DeviceTaintRules.rule(profile, node, n, device, effect.name())));
            }
        }
        Map<String, GenericKubernetesResource> stored = existing.stream()
                .collect(Collectors.toMap(r -> r.getMetadata().getName(), r -> r, (a, b) -> a, LinkedHashMap::new));
        List<String> created = new ArrayList<>();
        Map<String, List<String>> fenced = new LinkedHashMap<>();
        for (DeviceTaintRules.Rule rule : wanted) {
            GenericKubernetesResource mine = stored.remove(rule.name());
            if (mine == null) {
                if (!rules.create(apiVersion, profile, node, rule)) {
                    unfenced.putIfAbsent(rule.faulty().device(), Unfenced.NameTaken);
                    continue;
                }
                created.add(rule.name());
            } else if (!rule.matches(mine)) {
                rules.replace(apiVersion, profile, node, rule);
                created.add(rule.name());
            }
            fenced.computeIfAbsent(rule.faulty().device(), d -> new ArrayList<>()).add(rule.name());
        }
        List<String> deleted = new ArrayList<>();
        for (GenericKubernetesResource left : stored.values()) {
            if (noFreshEvidence(left, status)) {
                String device = left.getMetadata().getAnnotations().get(DeviceTaintRules.RDMA_DEVICE_ANNOTATION);
                fenced.computeIfAbsent(device, d -> new ArrayList<>()).add(left.getMetadata().getName());
                continue;
            }
            rules.delete(apiVersion, left.getMetadata().getName());
            deleted.add(left.getMetadata().getName());
        }
        return new Outcome(created, deleted, fenced, unfenced, beyond, dryRun);
    }

    /** Deletes every rule of the profile (the profile or its deviceTaints went); the number deleted. */
    public int removeAll(String profile) {
        Optional<DeviceTaintApi.Served> served = api.served();
        if (served.isEmpty()) {
            return 0;
        }
        List<GenericKubernetesResource> all = rules.listProfile(served.get().apiVersion(), profile);
        all.forEach(r -> rules.delete(served.get().apiVersion(), r.getMetadata().getName()));
        withoutRules.removeIf(pair -> pair.startsWith(profile + "/"));
        return all.size();
    }

    /**
     * Whether a rule the verdict no longer asks for must stay: one of the checks that found its device
     * faulty is Unknown now, so nothing shows the device healthy. A check that is True, False about
     * other devices only, or no longer in the verdict (the profile dropped it) lets the rule go.
     */
    static boolean noFreshEvidence(GenericKubernetesResource rule, RdmaStorageNodeStatus status) {
        Map<String, String> annotations = rule.getMetadata().getAnnotations();
        String checks = annotations == null ? null : annotations.get(DeviceTaintRules.CHECKS_ANNOTATION);
        if (checks == null || checks.isEmpty()) {
            return false;
        }
        Set<String> types = Set.copyOf(Arrays.asList(checks.split(",")));
        return types.stream().anyMatch(t -> FaultyDevice.condition(status, t)
                .map(c -> !"True".equals(c.getStatus()) && !"False".equals(c.getStatus())).orElse(false));
    }

    /** A False check whose findings are not all one device's: some False check names no device, or says more is wrong. */
    static boolean beyondDevices(RdmaStorageNodeStatus status) {
        if (status == null || status.getConditions() == null) {
            return false;
        }
        return status.getConditions().stream()
                .filter(c -> "False".equals(c.getStatus()) && CheckTypes.ALL.contains(c.getType()))
                .anyMatch(c -> {
                    var details = status.getDetails() == null ? null : status.getDetails().get(c.getType());
                    return details == null || !details.has(ReportSchema.FAULTY_DEVICES)
                            || details.path(ReportSchema.FAULTS_BEYOND_DEVICES).asBoolean(false);
                });
    }

    private static Map<String, Unfenced> unfenced(List<FaultyDevice> faulty, Unfenced why) {
        Map<String, Unfenced> map = new LinkedHashMap<>();
        faulty.forEach(d -> map.put(d.device(), why));
        return map;
    }
}
