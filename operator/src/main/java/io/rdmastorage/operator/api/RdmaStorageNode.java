package io.rdmastorage.operator.api;

import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.ShortNames;
import io.fabric8.kubernetes.model.annotation.Singular;
import io.fabric8.kubernetes.model.annotation.Version;

/**
 * One node's verdict for one profile; named {@code <profile>.<node>} (hashed when too long),
 * labelled with both, owned by the profile. Cluster-scoped.
 */
@Group(RdmaStorageProfile.GROUP)
@Version(RdmaStorageProfile.VERSION)
@Kind("RdmaStorageNode")
@Plural("rdmastoragenodes")
@Singular("rdmastoragenode")
@ShortNames("rsn")
public class RdmaStorageNode extends CustomResource<RdmaStorageNodeSpec, RdmaStorageNodeStatus> {

    public static final String PROFILE_LABEL = "rdmastorage.io/profile";
    public static final String NODE_LABEL = "rdmastorage.io/node";
}
