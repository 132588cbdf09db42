package io.rdmastorage.operator.api;

/** What a device taint does to claims for the device (KEP-5055's effects). */
public enum DeviceTaintEffect {
    /** The scheduler allocates the device to no new claim; pods that hold it keep it. */
    NoSchedule,
    /** As NoSchedule, and pods whose claims hold the device are evicted. */
    NoExecute,
    /** A dry run: the rule is written but taints nothing (Kubernetes 1.35 and later). */
    None
}
