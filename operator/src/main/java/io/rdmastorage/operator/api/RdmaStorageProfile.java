package io.rdmastorage.operator.api;

import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.ShortNames;
import io.fabric8.kubernetes.model.annotation.Singular;
import io.fabric8.kubernetes.model.annotation.Version;

/** What must be true about RDMA storage, and on which nodes. Cluster-scoped. */
@Group(RdmaStorageProfile.GROUP)
@Version(RdmaStorageProfile.VERSION)
@Kind("RdmaStorageProfile")
@Plural("rdmastorageprofiles")
@Singular("rdmastorageprofile")
@ShortNames("rsp")
public class RdmaStorageProfile extends CustomResource<RdmaStorageProfileSpec, RdmaStorageProfileStatus> {

    public static final String GROUP = "rdmastorage.io";
    public static final String VERSION = "v1alpha1";
}
