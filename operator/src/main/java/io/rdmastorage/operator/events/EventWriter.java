package io.rdmastorage.operator.events;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes one core/v1 Event about a cluster-scoped object of this operator, best effort: a failed
 * write is logged and forgotten, never an error of the reconcile that caused it. Which Events are
 * written is for its users: verdicts' and profiles' condition changes ({@link VerdictEvents}),
 * acceptance runs' lifecycle ({@code AcceptanceEvents}).
 */
public final class EventWriter {

    private static final Logger LOG = LoggerFactory.getLogger(EventWriter.class);

    public static final String COMPONENT = "rdma-storage-operator";
    /**
     * Where events about cluster-scoped objects live, and so every event of this operator: the only
     * namespace the Helm chart lets it create Events in (a Role there, files/events-rules.yaml).
     */
    public static final String NAMESPACE = "default";
    public static final int MAX_MESSAGE_LENGTH = 1024;
    /** The API server's limit on a reason. */
    static final int MAX_REASON_LENGTH = 128;
    static final int MAX_NAME_LENGTH = 253;

    private final KubernetesClient client;
    private final Clock clock;
    private final String instance;
    private final AtomicLong lastStamp = new AtomicLong();

    /** Reports as this pod (HOSTNAME), or as this host outside a cluster. */
    public EventWriter(KubernetesClient client) {
        this(client, Clock.systemUTC(), System.getenv().getOrDefault("HOSTNAME", COMPONENT));
    }

    public EventWriter(KubernetesClient client, Clock clock, String instance) {
        this.client = client;
        this.clock = clock;
        this.instance = instance;
    }

    /**
     * Records one event; false when it could not be written (logged, never thrown).
     *
     * @param type Normal or Warning
     */
    public boolean record(HasMetadata object, String type, String reason, String message) {
        try {
            // raw: the API server's answer (the event) is not needed, so it is not deserialized
            client.raw("/api/v1/namespaces/" + NAMESPACE + "/events", "POST",
                    eventFor(object, type, reason, message, clock.instant(), uniqueStamp(), instance));
            return true;
        } catch (RuntimeException e) {
            LOG.warn("could not record event {} on {} {}: {}", reason, object.getKind(), object.getMetadata().getName(),
                    e.getMessage());
            return false;
        }
    }

    /** The event: pure, so its shape is tested without an API server. */
    static Event eventFor(HasMetadata object, String type, String reason, String message, Instant now, long stamp,
                          String instance) {
        String time = now.truncatedTo(ChronoUnit.SECONDS).toString();
        return new EventBuilder()
                .withNewMetadata()
                    .withName(eventName(object.getMetadata().getName(), stamp))
                    .withNamespace(NAMESPACE)
                .endMetadata()
                .withNewInvolvedObject()
                    .withApiVersion(HasMetadata.getApiVersion(object.getClass()))
                    .withKind(HasMetadata.getKind(object.getClass()))
                    .withName(object.getMetadata().getName())
                    .withUid(object.getMetadata().getUid())
                    .withResourceVersion(object.getMetadata().getResourceVersion())
                .endInvolvedObject()
                .withType(type)
                .withReason(truncate(reason, MAX_REASON_LENGTH))
                .withMessage(truncate(message, MAX_MESSAGE_LENGTH))
                .withNewSource().withComponent(COMPONENT).endSource()
                .withReportingComponent(COMPONENT)
                .withReportingInstance(instance)
                .withFirstTimestamp(time)
                .withLastTimestamp(time)
                .withCount(1)
                .build();
    }

    /** {@code <object>.<hex stamp>}, as client-go names events; the object part shortened to fit. */
    static String eventName(String objectName, long stamp) {
        String suffix = "." + Long.toHexString(stamp);
        String base = objectName.length() + suffix.length() > MAX_NAME_LENGTH
                ? objectName.substring(0, MAX_NAME_LENGTH - suffix.length())
                : objectName;
        // A shortened name must still end alphanumeric before the dot (a DNS subdomain).
        while (!base.isEmpty() && !Character.isLetterOrDigit(base.charAt(base.length() - 1))) {
            base = base.substring(0, base.length() - 1);
        }
        return base + suffix;
    }

    /** Nanoseconds since the epoch, strictly increasing within this process so names never collide. */
    private long uniqueStamp() {
        Instant now = clock.instant();
        long nanos = now.getEpochSecond() * 1_000_000_000L + now.getNano();
        return lastStamp.updateAndGet(last -> Math.max(last + 1, nanos));
    }

    private static String truncate(String text, int max) {
        if (text == null || text.length() <= max) {
            return text;
        }
        int end = max - 3;
        if (Character.isHighSurrogate(text.charAt(end - 1))) {
            end--;
        }
        return text.substring(0, end) + "...";
    }
}
