package io.rdmastorage.probe.parse;

import io.rdmastorage.probe.spec.IpAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * One NVMe controller as sysfs describes it in {@code /sys/class/nvme/nvmeN/}: the kernel's own
 * view, stable across nvme-cli versions (whose list-subsys output changed shape several times).
 *
 * @param name       {@code nvme1}
 * @param transport  {@code rdma}, {@code tcp}, {@code fc}, {@code loop}, {@code pcie}, lower case; empty when unreadable
 * @param subsysnqn  the subsystem NQN; empty when unreadable
 * @param state      {@code live}, {@code connecting}, {@code resetting}, {@code deleting}, {@code deleting (no IO)},
 *                   {@code dead}, {@code new}, as the kernel prints it; empty when unreadable
 * @param unreadable the attributes that could not be read, plus {@code traddr} when an rdma or tcp
 *                   controller's address has none: such a controller cannot be matched to a target
 */
public record NvmeController(String name, String transport, String subsysnqn, NvmeFabricsAddress address, String state,
                             List<String> unreadable) {

    /** The sysfs attributes a controller is judged by, in the order they are listed when missing. */
    public static final List<String> ATTRIBUTES = List.of("transport", "address", "subsysnqn", "state");
    /** Persistent discovery controllers connect to this NQN; they carry no I/O. */
    public static final String DISCOVERY_NQN = "nqn.2014-08.org.nvmexpress.discovery";
    /** rdma and tcp controllers without a trsvcid were connected to the NVMe-oF default port. */
    public static final int DEFAULT_PORT = 4420;

    public NvmeController {
        unreadable = List.copyOf(unreadable);
    }

    /**
     * @param attributes attribute name → file content as read; an absent key means it could not be read
     */
    public static NvmeController fromSysfs(String name, Map<String, String> attributes) {
        List<String> unreadable = new ArrayList<>();
        for (String attribute : ATTRIBUTES) {
            if (!attributes.containsKey(attribute) || firstLine(attributes.get(attribute)).isEmpty()) {
                unreadable.add(attribute);
            }
        }
        String transport = firstLine(attributes.get("transport")).toLowerCase(Locale.ROOT);
        NvmeFabricsAddress address = NvmeFabricsAddress.parse(attributes.get("address"));
        if (isIpTransport(transport) && !unreadable.contains("address") && address.traddr().isEmpty()) {
            unreadable.add("traddr");
        }
        return new NvmeController(name, transport, firstLine(attributes.get("subsysnqn")), address,
                firstLine(attributes.get("state")), unreadable);
    }

    /** rdma and tcp: the transports where tcp is the silent fallback for rdma. */
    public static boolean isIpTransport(String transport) {
        return transport.equals("rdma") || transport.equals("tcp");
    }

    public boolean isIpFabric() {
        return isIpTransport(transport);
    }

    public boolean isRdma() {
        return transport.equals("rdma");
    }

    public boolean isTcp() {
        return transport.equals("tcp");
    }

    public boolean isLive() {
        return state.equalsIgnoreCase("live");
    }

    /** Still trying: the kernel reconnects a fabrics controller after a path loss, or resets it. */
    public boolean isReconnecting() {
        String s = state.toLowerCase(Locale.ROOT);
        return s.equals("connecting") || s.equals("resetting") || s.equals("new");
    }

    public boolean isDiscovery() {
        return subsysnqn.equals(DISCOVERY_NQN);
    }

    public boolean isComplete() {
        return unreadable.isEmpty();
    }

    /** Whether this is a {@code transport} controller of subsystem {@code nqn} at that address (as IPs) and port. */
    public boolean connects(String transport, String nqn, String targetAddress, int targetPort) {
        return this.transport.equals(transport) && subsysnqn.equals(nqn) && reaches(targetAddress, targetPort);
    }

    /** Whether this controller reaches the given address (compared as IPs) and port. */
    public boolean reaches(String targetAddress, int targetPort) {
        return address.traddr().filter(a -> IpAddress.same(a, targetAddress)).isPresent()
                && address.port(DEFAULT_PORT).filter(p -> p == targetPort).isPresent();
    }

    /** {@code 10.68.20.10:4420}, or the raw attribute when it has no traddr. */
    public String endpoint() {
        Optional<String> traddr = address.traddr();
        if (traddr.isEmpty()) {
            return address.raw().isEmpty() ? "?" : address.raw();
        }
        return address.port(DEFAULT_PORT)
                .map(p -> IpAddress.withPort(traddr.get(), p))
                .orElse(traddr.get() + " trsvcid=" + address.trsvcid().orElse(""));
    }

    /** {@code nvme1 rdma 10.68.20.10:4420 live}: one path, as a detail line. */
    public String path() {
        return name + " " + orUnknown(transport) + " " + endpoint() + " " + orUnknown(state);
    }

    private static String orUnknown(String value) {
        return value.isEmpty() ? "?" : value;
    }

    private static String firstLine(String text) {
        if (text == null) {
            return "";
        }
        String s = text.strip();
        int nl = s.indexOf('\n');
        return (nl >= 0 ? s.substring(0, nl) : s).strip();
    }
}
