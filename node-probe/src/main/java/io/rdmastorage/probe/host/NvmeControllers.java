package io.rdmastorage.probe.host;

import io.rdmastorage.probe.parse.NvmeController;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The host's NVMe controllers as sysfs lists them: what the NvmeofRdma check judges and an acceptance run uses. */
public final class NvmeControllers {

    public static final String NVME_CLASS = "/sys/class/nvme";

    private NvmeControllers() {
    }

    /**
     * Every controller under /sys/class/nvme, by number; entries there are symbolic links into
     * /sys/devices.
     */
    public static List<NvmeController> list(HostRoot host) {
        List<NvmeController> controllers = new ArrayList<>();
        for (String name : host.list(NVME_CLASS)) {
            if (!isControllerName(name)) {
                continue;
            }
            Map<String, String> attributes = new LinkedHashMap<>();
            for (String attribute : NvmeController.ATTRIBUTES) {
                host.read(NVME_CLASS + "/" + name + "/" + attribute).ifPresent(v -> attributes.put(attribute, v));
            }
            controllers.add(NvmeController.fromSysfs(name, attributes));
        }
        controllers.sort((a, b) -> Integer.compare(number(a.name()), number(b.name())));
        return controllers;
    }

    /** nvme0, nvme12: not the per-namespace or generic entries some kernels add elsewhere. */
    private static boolean isControllerName(String name) {
        return name.length() > 4 && name.length() < 12 && name.startsWith("nvme")
                && name.substring(4).chars().allMatch(Character::isDigit);
    }

    private static int number(String name) {
        return Integer.parseInt(name.substring(4));
    }
}
