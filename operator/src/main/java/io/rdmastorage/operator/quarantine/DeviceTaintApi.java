package io.rdmastorage.operator.quarantine;

import io.fabric8.kubernetes.api.model.APIResourceList;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.VersionInfo;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Which {@code resource.k8s.io} version serves DeviceTaintRules (KEP-5055): v1 from Kubernetes 1.37,
 * v1beta2 from 1.36 where its gate is on, v1alpha3 from 1.33 behind DRADeviceTaints; and whether the
 * server knows the effect None (1.35 and later). Asked again after a failure, and every
 * {@link #RETRY_ABSENT} while no version serves it, since an admin may switch the API on while the
 * operator runs.
 */
public final class DeviceTaintApi {

    static final String GROUP = "resource.k8s.io";
    static final List<String> VERSIONS = List.of("v1", "v1beta2", "v1alpha3");
    static final String RESOURCE = "devicetaintrules";
    /** The first minor version whose DeviceTaint has the effect None. */
    static final int NONE_EFFECT_SINCE = 35;
    static final Duration RETRY_ABSENT = Duration.ofMinutes(5);

    /**
     * What the server serves.
     *
     * @param apiVersion   {@code resource.k8s.io/v1} and the like
     * @param noneEffect   whether the effect None is known
     */
    public record Served(String apiVersion, boolean noneEffect) {
    }

    private record Discovery(Optional<Served> served, Instant at) {
    }

    private final KubernetesClient client;
    private final Clock clock;
    private Discovery last;

    public DeviceTaintApi(KubernetesClient client) {
        this(client, Clock.systemUTC());
    }

    DeviceTaintApi(KubernetesClient client, Clock clock) {
        this.client = client;
        this.clock = clock;
    }

    /** The served API, discovered on first use, after {@link #forget} and a while after none was; empty when none serves it. */
    public synchronized Optional<Served> served() {   // once, not once per write thread of the first round
        Discovery known = last;
        Instant now = clock.instant();
        if (known == null || (known.served().isEmpty() && !now.isBefore(known.at().plus(RETRY_ABSENT)))) {
            known = new Discovery(discover(), now);
            last = known;
        }
        return known.served();
    }

    /** Discover again on next use: a write failed as if the API had gone, or it was absent. */
    public synchronized void forget() {
        last = null;
    }

    private Optional<Served> discover() {
        for (String version : VERSIONS) {
            String apiVersion = GROUP + "/" + version;
            try {
                APIResourceList resources = client.getApiResources(apiVersion);
                if (resources != null && resources.getResources().stream().anyMatch(r -> RESOURCE.equals(r.getName()))) {
                    return Optional.of(new Served(apiVersion, minor(client.getKubernetesVersion()) >= NONE_EFFECT_SINCE));
                }
            } catch (KubernetesClientException e) {
                if (e.getCode() != 404) {
                    throw e;
                }
            }
        }
        return Optional.empty();
    }

    /** "34", "34+" (some distributions) as a number; 0 when unreadable. */
    static int minor(VersionInfo version) {
        String digits = version == null || version.getMinor() == null ? "" : version.getMinor().replaceAll("[^0-9].*$", "");
        return digits.isEmpty() ? 0 : Integer.parseInt(digits);
    }
}
