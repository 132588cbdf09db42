package io.rdmastorage.operator.api;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Size;
import java.util.List;

/**
 * Fence one faulty NIC instead of the node: a DRA DeviceTaintRule per RDMA device a False verdict
 * is about, on the device as its NIC's DRA driver publishes it.
 */
public class DeviceTaintsSpec {

    @JsonPropertyDescription("What the taint does: NoSchedule (default) keeps the device from new claims, NoExecute also evicts the pods whose claims hold it, None writes the rule as a dry run that taints nothing (Kubernetes 1.35 and later; on an older server no rule is written and the verdict says so).")
    @Default("NoSchedule")
    private DeviceTaintEffect effect;

    @JsonPropertyDescription("The DRA drivers that publish the nodes' NICs and the attributes to find a device by. Absent: dranet (dra.net: pciAddress, ifName, rdmaDevice) and the SR-IOV DRA driver, which NVIDIA's Network Operator ships (sriovnetwork.k8snetworkplumbingwg.io: pciAddress, pfPciAddress, PFName), both also by resource.kubernetes.io/pciBusID.")
    @Size(max = 8)
    private List<NicDriverSpec> drivers;

    public DeviceTaintEffect getEffect() {
        return effect;
    }

    public void setEffect(DeviceTaintEffect effect) {
        this.effect = effect;
    }

    public List<NicDriverSpec> getDrivers() {
        return drivers;
    }

    public void setDrivers(List<NicDriverSpec> drivers) {
        this.drivers = drivers;
    }
}
