package io.rdmastorage.operator.it;

import static io.rdmastorage.operator.it.OperatorEnvironment.await;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Event;
import io.rdmastorage.testing.ContendedEdits;
import io.rdmastorage.testing.OperatorRbac;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * One transition of a profile's Ready is one Event (issue 27): its Events said
 * "Ready Unknown -> True" twice. The Event was recorded before the status write, and a reconcile
 * started from a status older than the last write (JOSDK 5 does not cache its own status patch):
 * each reconcile that found the stored status short of the transition said it again. Here the
 * status writes are refused for a while (RBAC), so that every reconcile finds it short.
 */
class ProfileEventsTest {

    private static final String PROFILE = "events";
    private static final Duration WAIT = Duration.ofSeconds(90);

    private OperatorEnvironment env;

    @BeforeEach
    void start() {
        env = OperatorEnvironment.start("profile-events");
    }

    @AfterEach
    void stop() {
        env.close();
    }

    @Test
    void oneTransitionOfReadyIsOneEventAlsoWhenItsStatusWriteIsRefusedFirst() throws InterruptedException {
        OperatorRbac shipped = OperatorEnvironment.SHIPPED_RBAC;
        env.grant(new OperatorRbac(shipped.cluster().stream()
                .filter(rule -> !rule.getResources().contains("rdmastorageprofiles/status")).toList(),
                shipped.namespace(), shipped.events()));
        env.addNode("e1", null);
        env.startOperator();
        env.applyProfile(PROFILE, "interval: 1h\nprobeTimeout: 30s", OperatorEndToEndTest.CHECKS);
        await("verdict True", WAIT, () -> env.conditions(PROFILE, "e1").get("Ready").startsWith("True/"));
        // the profile's Ready turns True in every reconcile now, and every status write is refused
        Thread.sleep(8_000);
        assertThat(ready()).as("profile status while its writes are refused").isNull();

        env.grant(shipped);
        // after its last retry JOSDK waits for an event: a node label of no concern to the operator
        ContendedEdits.label(env.admin, "e1", "rdmastorage.test/touched", "yes");
        await("profile Ready True", WAIT, () -> "True".equals(ready()));
        // the reconciles that the status write itself and the last ones set off
        Thread.sleep(5_000);

        List<String> messages = events().stream().map(Event::getMessage).toList();
        assertThat(messages).filteredOn(m -> m.startsWith("Ready ") && m.contains("True"))
                .as("the profile's Events: %s", messages).hasSize(1);
        assertThat(messages).as("no Event twice").doesNotHaveDuplicates();
    }

    private String ready() {
        return env.profileCondition(PROFILE, "Ready").getStatus();
    }

    private List<Event> events() {
        return env.admin.v1().events().inNamespace("default")
                .withField("involvedObject.uid", env.profile(PROFILE).getMetadata().getUid()).list().getItems();
    }
}
