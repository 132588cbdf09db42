package io.rdmastorage.operator.api;

import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Size;
import io.fabric8.generator.annotation.ValidationRule;
import io.rdmastorage.contract.spec.Rules;
import java.util.List;

/** RDMA devices that must be present and ACTIVE: the probe's {@code rdma} section. */
public class RdmaCheckSpec {

    /** The longest device/port/fabric that Rules.DEVICE_PORT_REGEX matches: 64 + 1 + 3 + 1 + 3 (bounds CEL's cost). */
    public static final int DEVICE_PORT_MAX_LENGTH = 72;

    /** HCA ports as device/port, e.g. mlx5_0/1; empty = every port the node has. */
    @Size(max = Rules.MAX_LIST)
    @ValidationRule(value = "self.all(d, !d.matches(r'" + Rules.DEVICE_PORT_REGEX + "') || "
            + "(int(d.split('/')[1]) >= " + Rules.MIN_HCA_PORT + " && int(d.split('/')[1]) <= " + Rules.MAX_HCA_PORT + "))",
            message = "HCA port numbers must be between " + Rules.MIN_HCA_PORT + " and " + Rules.MAX_HCA_PORT)
    private List<@Pattern(Rules.DEVICE_PORT_REGEX) @Size(max = DEVICE_PORT_MAX_LENGTH) String> devices;

    /** Also open each device and register memory through libibverbs. */
    private Boolean userspaceVerbs;

    public List<String> getDevices() {
        return devices;
    }

    public void setDevices(List<String> devices) {
        this.devices = devices;
    }

    public Boolean getUserspaceVerbs() {
        return userspaceVerbs;
    }

    public void setUserspaceVerbs(Boolean userspaceVerbs) {
        this.userspaceVerbs = userspaceVerbs;
    }
}
