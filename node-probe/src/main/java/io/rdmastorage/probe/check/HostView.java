package io.rdmastorage.probe.check;

import io.rdmastorage.contract.Status;
import io.rdmastorage.contract.Reasons;
import io.rdmastorage.probe.host.HostRoot;
import java.util.EnumSet;
import java.util.Set;

/**
 * The parts of the host's file system the checks read, and how each one tells "not there at all"
 * (the probe cannot see it: Unknown {@link Reasons#HOST_VIEW_MISSING}) from "there, and showing the
 * problem" (evidence, possibly False). sysfs and procfs are file systems of their own: when the
 * host's root is mounted without its submounts their mount points are empty directories, so they are
 * not there when their marker directory is absent or empty (a real host always has
 * {@code /sys/class/net}, {@code /proc/1}). {@code /etc} is part of the root file system: it is not
 * there only when absent (the host root is not the host's root). Inside a visible part, an absent
 * subsystem directory ({@code /sys/class/infiniband}) is evidence.
 */
public enum HostView {
    SYSFS("/sys", "/sys/class", true),
    PROCFS("/proc", "/proc", true),
    ETC("/etc", "/etc", false),
    /** devtmpfs: an empty mount point when the host's / is mounted without its submounts. */
    DEV("/dev", "/dev", true);

    private final String mount;
    private final String marker;
    private final boolean ownFileSystem;

    HostView(String mount, String marker, boolean ownFileSystem) {
        this.mount = mount;
        this.marker = marker;
        this.ownFileSystem = ownFileSystem;
    }

    public String mount() {
        return mount;
    }

    public boolean visible(HostRoot host) {
        return ownFileSystem ? host.hasEntries(marker) : host.isDirectory(marker);
    }

    /** Which of these parts are not visible under the host root. */
    public static Set<HostView> missing(HostRoot host, HostView... views) {
        Set<HostView> missing = EnumSet.noneOf(HostView.class);
        for (HostView view : views) {
            if (!view.visible(host)) {
                missing.add(view);
            }
        }
        return missing;
    }

    /** The finding for this part not being visible under {@code hostRoot}: what to mount. */
    public Finding missing(String hostRoot) {
        return Finding.of(Status.UNKNOWN, Reasons.HOST_VIEW_MISSING, "the host's " + mount + " is not visible under the "
                + "host root " + hostRoot + " (" + marker + (ownFileSystem ? " is absent or empty" : " is absent")
                + "), so the node cannot be judged from it: mount the host's / there with its submounts (the probe "
                + "pod's hostPath volume does) or run node-probe on the host with --host-root /, then probe again",
                "the host's " + mount + " not visible");
    }
}
