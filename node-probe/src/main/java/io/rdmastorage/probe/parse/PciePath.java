package io.rdmastorage.probe.parse;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Where a PCI function sits in the PCIe tree, read from its sysfs path
 * ({@code /sys/devices/pci0000:00/0000:00:01.0/0000:01:00.0/0000:02:00.0/0000:03:00.0}): the host
 * bridge ({@code pci0000:00}) and the chain of functions from the root port down to the device.
 *
 * @param hostBridge the root complex's host bridge, {@code pciDDDD:BB}
 * @param chain      PCI addresses from the root port to the device itself
 */
public record PciePath(String hostBridge, List<String> chain) {

    public PciePath {
        chain = List.copyOf(chain);
    }

    /** The path's PCIe position; empty when it does not run through a host bridge (not a PCI device). */
    public static Optional<PciePath> parse(String sysfsPath) {
        String bridge = null;
        List<String> chain = new ArrayList<>();
        for (String part : sysfsPath.split("/")) {
            if (bridge == null) {
                if (part.startsWith("pci") && part.length() > 3 && part.indexOf(':') > 0) {
                    bridge = part;
                }
            } else if (isPciAddress(part)) {
                chain.add(part);
            } else {
                break;   // below the device: infiniband/mlx5_0, net/ib0, ...
            }
        }
        return bridge == null || chain.isEmpty() ? Optional.empty() : Optional.of(new PciePath(bridge, chain));
    }

    /** The device's own PCI address. */
    public String function() {
        return chain.get(chain.size() - 1);
    }

    /**
     * The PCIe switch port both devices sit below, if any: their deepest common bridge under the root
     * port. Peer-to-peer traffic between them then turns around in that switch instead of crossing the
     * root complex (what {@code nvidia-smi topo -m} shows as PIX or PXB). Devices that only share a
     * root complex, or not even that, share no switch.
     */
    public Optional<String> sharedSwitch(PciePath other) {
        int common = sharedDepth(other);
        // chain[0] is the root port; a shared bridge below it is a switch port
        return common >= 2 ? Optional.of(chain.get(common - 1)) : Optional.empty();
    }

    /**
     * How many bridges from the root port down both paths share, never counting the devices
     * themselves; -1 when they are on different root complexes.
     */
    public int sharedDepth(PciePath other) {
        if (!hostBridge.equals(other.hostBridge)) {
            return -1;
        }
        int common = 0;
        int limit = Math.min(chain.size(), other.chain.size()) - 1;   // never the devices themselves
        while (common < limit && chain.get(common).equals(other.chain.get(common))) {
            common++;
        }
        return common;
    }

    /**
     * The bridges peer-to-peer traffic between the two devices crosses below their deepest shared
     * bridge: this path's from there down to the device, then the other's; the devices themselves
     * are not among them. Empty on different root complexes.
     */
    public List<String> bridgesTo(PciePath other) {
        int common = sharedDepth(other);
        if (common < 0) {
            return List.of();
        }
        List<String> bridges = new ArrayList<>(chain.subList(common, chain.size() - 1));
        bridges.addAll(other.chain.subList(common, other.chain.size() - 1));
        return bridges;
    }

    /** The sysfs directory of one function of this path ({@code /sys/devices/pci0000:00/0000:00:01.0}). */
    public String sysfsPath(String function) {
        int at = chain.indexOf(function);
        if (at < 0) {
            throw new IllegalArgumentException(function + " is not on " + this);
        }
        return "/sys/devices/" + hostBridge + "/" + String.join("/", chain.subList(0, at + 1));
    }

    @Override
    public String toString() {
        return "/sys/devices/" + hostBridge + "/" + String.join("/", chain);
    }

    /** {@code 0000:3b:00.0}: domain, bus, device, function. */
    static boolean isPciAddress(String s) {
        if (s.length() != 12 || s.charAt(4) != ':' || s.charAt(7) != ':' || s.charAt(10) != '.') {
            return false;
        }
        for (int i = 0; i < s.length(); i++) {
            if (i != 4 && i != 7 && i != 10 && Character.digit(s.charAt(i), 16) < 0) {
                return false;
            }
        }
        return true;
    }
}
