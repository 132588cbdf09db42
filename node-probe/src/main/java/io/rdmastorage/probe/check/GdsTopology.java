package io.rdmastorage.probe.check;

import static io.rdmastorage.contract.checks.GdsReady.*;

import io.rdmastorage.contract.Status;
import io.rdmastorage.contract.spec.DevicePort;
import io.rdmastorage.contract.spec.ProbeSpec;
import io.rdmastorage.probe.host.HostRoot;
import io.rdmastorage.probe.parse.PcieAcs;
import io.rdmastorage.probe.parse.PciePath;
import io.rdmastorage.probe.ports.PortView;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * GdsReady's PCIe placement ({@code requireNicGpuSameSwitch}): peer-to-peer DMA between a GPU and an
 * RDMA NIC stays in a PCIe switch only when both sit below it and no switch port between them
 * redirects it. Where each GPU and NIC sits comes from sysfs's device tree; whether a port redirects
 * comes from the Access Control Services control bits of each bridge between a GPU and a NIC that
 * share a switch, read from its configuration space ({@link PcieAcs}). With ACS redirect on, the
 * traffic goes up through the root complex although the pair shares a switch: GDS and GPUDirect RDMA
 * lose most of their bandwidth without an error anywhere ({@code gdscheck} does not show it).
 */
final class GdsTopology {

    static final String PCI_DEVICES = "/sys/bus/pci/devices";
    private static final String NVIDIA_VENDOR = "0x10de";

    /**
     * What the host shows of the placement.
     *
     * @param gpus         NVIDIA GPUs by PCI address, with their PCIe paths
     * @param nics         RDMA NICs by device name, with their PCIe paths
     * @param nicsNotFound devices rdma.devices names that /sys/class/infiniband does not have: their place is unknown
     * @param bridges      the ACS of each bridge between a GPU and a NIC that share a switch, by PCI address
     */
    record View(Map<String, PciePath> gpus, Map<String, PciePath> nics, List<String> nicsNotFound,
                Map<String, PcieAcs> bridges) {

        static final View NOT_READ = new View(Map.of(), Map.of(), List.of(), Map.of());

        View {
            gpus = copy(gpus);
            nics = copy(nics);
            nicsNotFound = List.copyOf(nicsNotFound);
            bridges = copy(bridges);
        }

        /** Only the places, no bridge read: what judging the switch alone needs. */
        View(Map<String, PciePath> gpus, Map<String, PciePath> nics) {
            this(gpus, nics, List.of(), Map.of());
        }

        private static <V> Map<String, V> copy(Map<String, V> map) {
            return java.util.Collections.unmodifiableMap(new LinkedHashMap<>(map));
        }
    }

    private GdsTopology() {
    }

    /** The GPUs, the NICs the spec names (else every RDMA device), and the bridges between pairs that share a switch. */
    static View read(HostRoot host, PortView ports, ProbeSpec spec) {
        Map<String, PciePath> gpus = nvidiaGpus(host);
        List<String> names = spec.rdma() != null && !spec.rdma().devices().isEmpty()
                ? spec.rdma().devicePorts().stream().map(DevicePort::device).distinct().toList()
                : ports.deviceNames();
        Map<String, PciePath> nics = new LinkedHashMap<>();
        List<String> notFound = new ArrayList<>();
        for (String name : names) {
            if (ports.device(name).isEmpty()) {
                notFound.add(name);
            }
            // a device without a PCIe function (soft-RoCE) has no place to compare
            ports.device(name).flatMap(d -> PciePath.parse(d.pciFunction())).ifPresent(p -> nics.put(name, p));
        }
        Map<String, PcieAcs> bridges = new LinkedHashMap<>();
        for (PciePath gpu : gpus.values()) {
            for (PciePath nic : nics.values()) {
                if (gpu.sharedSwitch(nic).isEmpty()) {
                    continue;
                }
                for (String bridge : gpu.bridgesTo(nic)) {
                    PciePath on = gpu.chain().contains(bridge) ? gpu : nic;
                    String config = on.sysfsPath(bridge) + "/config";
                    bridges.computeIfAbsent(bridge, b -> host.readBytes(config).map(PcieAcs::parse)
                            .orElseGet(() -> PcieAcs.unreadable(config + " cannot be read")));
                }
            }
        }
        return new View(gpus, nics, notFound, bridges);
    }

    /**
     * Judges the placement into {@code findings}; what it proves goes to {@code passed}.
     *
     * @param sysfsMissing the finding to give when the host's /sys is not visible at all
     */
    static void judge(View view, Optional<Finding> sysfsMissing, Details details, List<Finding> findings,
                      List<String> passed) {
        Map<String, PciePath> gpus = view.gpus();
        Map<String, PciePath> nics = view.nics();
        if ((gpus.isEmpty() || nics.isEmpty()) && sysfsMissing.isPresent()) {
            findings.add(sysfsMissing.get());
            return;
        }
        if (gpus.isEmpty() || nics.isEmpty()) {
            findings.add(Finding.of(Status.UNKNOWN, TOPOLOGY_UNKNOWN,
                    "cannot compare PCIe placement: " + (gpus.isEmpty() ? "no NVIDIA GPU (vendor 0x10de, display or 3D "
                            + "controller) found under " + PCI_DEVICES : "no RDMA NIC found under " + PortView.IB_CLASS
                            + notFound(view)) + ". Check that the probe sees the host's /sys, or run `nvidia-smi topo -m` on the node"));
            return;
        }
        List<String> paired = new ArrayList<>();
        List<String> crossing = new ArrayList<>();
        List<String> seen = new ArrayList<>();
        Map<String, Set<String>> redirecting = new LinkedHashMap<>();
        Map<String, Set<String>> unreadable = new LinkedHashMap<>();
        Set<String> clear = new LinkedHashSet<>();
        for (Map.Entry<String, PciePath> gpu : gpus.entrySet()) {
            Optional<String> match = Optional.empty();
            for (Map.Entry<String, PciePath> nic : nics.entrySet()) {
                Optional<String> sw = gpu.getValue().sharedSwitch(nic.getValue());
                if (sw.isEmpty()) {
                    continue;
                }
                if (match.isEmpty()) {
                    match = Optional.of("GPU " + gpu.getKey() + " and " + nic.getKey() + " share PCIe switch " + sw.get());
                }
                String pair = "GPU " + gpu.getKey() + " and " + nic.getKey() + " (" + nic.getValue().function() + ")";
                for (String bridge : gpu.getValue().bridgesTo(nic.getValue())) {
                    PcieAcs acs = view.bridges().getOrDefault(bridge, PcieAcs.unreadable("its config was not read"));
                    if (acs.redirects()) {
                        redirecting.computeIfAbsent(bridge, b -> new LinkedHashSet<>()).add(pair);
                    } else if (acs.kind() == PcieAcs.Kind.UNREADABLE) {
                        unreadable.computeIfAbsent(bridge, b -> new LinkedHashSet<>()).add(pair);
                    } else {
                        clear.add(bridge);
                    }
                }
            }
            if (match.isPresent()) {
                paired.add(match.get());
                seen.add(match.get());
            } else {
                Map.Entry<String, PciePath> nearest = nearest(gpu.getValue(), nics);
                seen.add("GPU " + gpu.getKey() + " shares no switch with " + String.join(", ", nics.keySet()));
                crossing.add("GPU " + gpu.getKey() + " at " + gpu.getValue() + " and " + nearest.getKey() + " at "
                        + nearest.getValue() + " " + (gpu.getValue().hostBridge().equals(nearest.getValue().hostBridge())
                        ? "meet only at root complex " + gpu.getValue().hostBridge()
                        : "are on different root complexes"));
            }
        }
        details.list("topology", seen);
        if (!crossing.isEmpty() && !view.nicsNotFound().isEmpty()) {
            // the NIC that is not there may be the one under the GPU's switch: no evidence of a crossing
            findings.add(Finding.of(Status.UNKNOWN, TOPOLOGY_UNKNOWN, "cannot tell whether every GPU shares a PCIe switch "
                    + "with an RDMA NIC: " + String.join("; ", crossing) + ", but " + String.join(", ", view.nicsNotFound())
                    + " (rdma.devices) " + (view.nicsNotFound().size() == 1 ? "is" : "are") + " not in " + PortView.IB_CLASS
                    + ", so " + (view.nicsNotFound().size() == 1 ? "its" : "their") + " PCIe place is unknown. Bring the "
                    + "device back (RdmaDevices says why it is missing), then probe again"));
        } else if (!crossing.isEmpty()) {
            findings.add(Finding.of(Status.FALSE, CROSS_SWITCH_TOPOLOGY,
                    "no RDMA NIC shares a PCIe switch with the GPU: " + String.join("; ", crossing) + ". GPUDirect traffic "
                            + "then crosses the CPU root complex, at a fraction of the bandwidth. Put GPU and NIC in slots "
                            + "under one PCIe switch (`nvidia-smi topo -m` should show PIX or PXB for the pair), or drop "
                            + "requireNicGpuSameSwitch if this platform has none"));
        }
        acs(view, redirecting, unreadable, details, findings);
        if (crossing.isEmpty()) {
            passed.add(String.join(", ", paired) + (clear.isEmpty() ? ""
                    : ", ACS redirect off on the " + clear.size() + " bridge(s) between them"));
        }
    }

    /** Redirecting bridges are False, unreadable ones Unknown; each named with the pairs it stands between. */
    private static void acs(View view, Map<String, Set<String>> redirecting, Map<String, Set<String>> unreadable,
                            Details details, List<Finding> findings) {
        if (!redirecting.isEmpty()) {
            List<String> named = new ArrayList<>();
            List<String> shown = new ArrayList<>();
            redirecting.forEach((bridge, pairs) -> {
                PcieAcs acs = view.bridges().get(bridge);
                named.add("bridge " + bridge + " (ACSCtl: " + acs.controlFlags() + ") between " + String.join(", ", pairs));
                shown.add(bridge + ": " + acs.redirecting());
            });
            details.list("pcieAcsRedirect", shown);
            String first = redirecting.keySet().iterator().next();
            findings.add(Finding.of(Status.FALSE, PCIE_ACS_REDIRECT, "PCIe Access Control Services redirect peer-to-peer "
                    + "traffic on " + String.join("; ", named) + ": GPUDirect DMA between them goes up through the root "
                    + "complex instead of turning around in their switch, at a fraction of the bandwidth (and GPUDirect "
                    + "RDMA may fail with completion errors). Disable ACS on the switch's downstream ports in the BIOS "
                    + "(PCIe ACS control: disabled; the IOMMU is off for GDS anyway), or at each boot `setpci -s " + first
                    + " ECAP_ACS+0x6.w=0000` for every bridge named; check with `lspci -vvv -s " + first + " | grep ACSCtl`"));
        }
        if (!unreadable.isEmpty()) {
            List<String> named = new ArrayList<>();
            unreadable.forEach((bridge, pairs) -> named.add("bridge " + bridge + " between " + String.join(", ", pairs)
                    + " (" + Optional.ofNullable(view.bridges().get(bridge)).map(PcieAcs::why)
                    .orElse("its config was not read") + ")"));
            findings.add(Finding.of(Status.UNKNOWN, PCIE_ACS_UNREADABLE, "cannot tell whether PCIe Access Control Services "
                    + "redirect GPUDirect traffic: the ACS control of " + String.join("; ", named) + " cannot be read. The "
                    + "kernel gives the full configuration space only to a reader with CAP_SYS_ADMIN: run the probe as "
                    + "root (its pod does), or check with `sudo lspci -vvv -s " + unreadable.keySet().iterator().next()
                    + " | grep ACSCtl`", "ACS of " + String.join(", ", unreadable.keySet()) + " unreadable"));
        }
    }

    private static String notFound(View view) {
        return view.nicsNotFound().isEmpty() ? "" : " (" + String.join(", ", view.nicsNotFound()) + " of rdma.devices "
                + "not there)";
    }

    /** NVIDIA display or 3D controllers (PCI class 0x0300xx, 0x0302xx), by PCI address. */
    private static Map<String, PciePath> nvidiaGpus(HostRoot host) {
        Map<String, PciePath> gpus = new LinkedHashMap<>();
        for (String address : host.list(PCI_DEVICES)) {
            String dir = PCI_DEVICES + "/" + address;
            if (!host.readAttribute(dir + "/vendor").filter(NVIDIA_VENDOR::equalsIgnoreCase).isPresent()) {
                continue;
            }
            String pciClass = host.readAttribute(dir + "/class").orElse("");
            if (pciClass.startsWith("0x0300") || pciClass.startsWith("0x0302")) {
                PciePath.parse(host.hostRealPath(dir)).ifPresent(p -> gpus.put(address, p));
            }
        }
        return gpus;
    }

    /** The NIC whose PCIe path shares the longest stretch with the GPU's, for the message. */
    private static Map.Entry<String, PciePath> nearest(PciePath gpu, Map<String, PciePath> nics) {
        Map.Entry<String, PciePath> best = null;
        int bestShared = Integer.MIN_VALUE;
        for (Map.Entry<String, PciePath> nic : nics.entrySet()) {
            int shared = gpu.sharedDepth(nic.getValue());
            if (shared > bestShared) {
                best = nic;
                bestShared = shared;
            }
        }
        return best;
    }
}
