package io.rdmastorage.testing;

/** What goes wrong on a simulated node, on demand (see {@link SimulatedCluster#setFault}). */
public enum NodeFault {
    /** Pods run normally. */
    NONE,
    /** The kubelet accepts pods but never starts them: they stay Pending in ContainerCreating. */
    PODS_STAY_PENDING,
    /** The container cannot start: Pending with ErrImagePull, then ImagePullBackOff. */
    IMAGE_PULL_ERROR,
    /** The probe container starts (Running) and never finishes. */
    PROBE_HANGS,
    /** The node object is deleted while its probe runs; the pod is left Running, as with a lost node. */
    DISAPPEARS_MID_PROBE
}
