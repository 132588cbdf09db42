package io.rdmastorage.operator.probe;

import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.rdmastorage.operator.api.RdmaStorageProfile;

/**
 * The owner reference from what the operator creates for a profile back to the profile.
 *
 * <p>The profile is cluster-scoped, so it may own namespaced objects (probe pods, the spec
 * ConfigMap) as well as cluster-scoped ones. {@code controller: true} lets informers map a pod to
 * its profile. {@code blockOwnerDeletion} is left unset: setting it needs update rights on the
 * profile's {@code finalizers} subresource (OwnerReferencesPermissionEnforcement), and nothing
 * must wait for a probe pod before the profile goes.
 */
public final class ProfileOwnerReference {

    private ProfileOwnerReference() {
    }

    /** Needs the profile as read from the API server: its uid is part of the reference. */
    public static OwnerReference of(RdmaStorageProfile profile) {
        String uid = profile.getMetadata().getUid();
        if (uid == null || uid.isEmpty()) {
            throw new IllegalArgumentException("profile " + profile.getMetadata().getName()
                    + " has no uid; owner references need the profile as stored by the API server");
        }
        return new OwnerReferenceBuilder()
                .withApiVersion(RdmaStorageProfile.GROUP + "/" + RdmaStorageProfile.VERSION)
                .withKind("RdmaStorageProfile")
                .withName(profile.getMetadata().getName())
                .withUid(uid)
                .withController(true)
                .build();
    }
}
