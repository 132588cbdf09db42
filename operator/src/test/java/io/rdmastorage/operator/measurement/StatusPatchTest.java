package io.rdmastorage.operator.measurement;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.javaoperatorsdk.operator.api.reconciler.ErrorStatusUpdateControl;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import io.rdmastorage.operator.api.RdmaStorageAcceptance;
import io.rdmastorage.operator.api.RdmaStorageAcceptanceStatus;
import io.rdmastorage.operator.api.RdmaStorageProfile;
import io.rdmastorage.operator.api.RdmaStorageProfileStatus;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The one status writer, for profiles and acceptance runs alike: a patch of the status alone, only when it differs. */
class StatusPatchTest {

    @Test
    void aStatusThatDiffersIsPatchedAloneUnderTheResourcesNameWithoutAResourceVersion() {
        RdmaStorageAcceptance run = acceptance("gpu-07-nvmeof", "Pending");
        RdmaStorageAcceptanceStatus running = status("Running");

        UpdateControl<RdmaStorageAcceptance> control = StatusPatch.update(run, running, RdmaStorageAcceptance::new, null);

        assertThat(control.isPatchStatus()).isTrue();
        RdmaStorageAcceptance patch = control.getResource().orElseThrow();
        assertThat(patch.getMetadata().getName()).isEqualTo("gpu-07-nvmeof");
        assertThat(patch.getMetadata().getResourceVersion()).isNull();
        assertThat(patch.getSpec()).isNull();
        assertThat(patch.getStatus()).isSameAs(running);
        assertThat(control.getScheduleDelay()).isEmpty();
    }

    @Test
    void theSameStatusOrNoneIsNoWriteAndTheWakeUpIsNeverSoonerThanASecond() {
        RdmaStorageAcceptance run = acceptance("gpu-07-nvmeof", "Running");

        UpdateControl<RdmaStorageAcceptance> same = StatusPatch.update(run, status("Running"), RdmaStorageAcceptance::new,
                Duration.ofMillis(-5));
        UpdateControl<RdmaStorageAcceptance> none = StatusPatch.update(run, null, RdmaStorageAcceptance::new,
                Duration.ofMinutes(3));

        assertThat(same.isNoUpdate()).isTrue();
        assertThat(same.getScheduleDelay()).isEqualTo(Optional.of(1_000L));
        assertThat(none.isNoUpdate()).isTrue();
        assertThat(none.getScheduleDelay()).isEqualTo(Optional.of(180_000L));
    }

    @Test
    void afterAFailedReconcileAProfilesStatusIsPatchedOnlyWhenItDiffers() {
        RdmaStorageProfile profile = new RdmaStorageProfile();
        profile.setMetadata(new ObjectMetaBuilder().withName("gpfs").withResourceVersion("42").build());
        RdmaStorageProfileStatus stored = new RdmaStorageProfileStatus();
        stored.setObservedGeneration(2L);
        profile.setStatus(stored);
        RdmaStorageProfileStatus next = new RdmaStorageProfileStatus();
        next.setObservedGeneration(3L);

        ErrorStatusUpdateControl<RdmaStorageProfile> differs = StatusPatch.afterFailure(profile, next, RdmaStorageProfile::new);
        RdmaStorageProfileStatus copy = new RdmaStorageProfileStatus();
        copy.setObservedGeneration(2L);
        ErrorStatusUpdateControl<RdmaStorageProfile> same = StatusPatch.afterFailure(profile, copy, RdmaStorageProfile::new);

        assertThat(differs.getResource().orElseThrow().getStatus()).isSameAs(next);
        assertThat(differs.getResource().orElseThrow().getMetadata().getResourceVersion()).isNull();
        assertThat(same.getResource()).isEmpty();
    }

    private static RdmaStorageAcceptance acceptance(String name, String phase) {
        RdmaStorageAcceptance run = new RdmaStorageAcceptance();
        run.setMetadata(new ObjectMetaBuilder().withName(name).withResourceVersion("7").build());
        run.setStatus(status(phase));
        return run;
    }

    private static RdmaStorageAcceptanceStatus status(String phase) {
        RdmaStorageAcceptanceStatus status = new RdmaStorageAcceptanceStatus();
        status.setPhase(phase);
        return status;
    }
}
