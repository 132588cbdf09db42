package io.rdmastorage.probe.verbs;

import java.util.Map;

/** Linux errno names for the values libibverbs reports, so messages say ENOMEM rather than 12. */
public final class Errno {

    public static final int EPERM = 1;
    public static final int ENOMEM = 12;

    private static final Map<Integer, String> NAMES = Map.ofEntries(
            Map.entry(EPERM, "EPERM"), Map.entry(2, "ENOENT"), Map.entry(5, "EIO"), Map.entry(6, "ENXIO"),
            Map.entry(11, "EAGAIN"), Map.entry(ENOMEM, "ENOMEM"), Map.entry(13, "EACCES"), Map.entry(14, "EFAULT"),
            Map.entry(16, "EBUSY"), Map.entry(19, "ENODEV"), Map.entry(22, "EINVAL"), Map.entry(24, "EMFILE"),
            Map.entry(32, "EPIPE"), Map.entry(38, "ENOSYS"), Map.entry(95, "EOPNOTSUPP"));

    private Errno() {
    }

    /** "ENOMEM", or "errno 77" for values without a name here; "no errno" for 0. */
    public static String name(int errno) {
        if (errno == 0) {
            return "no errno";
        }
        String name = NAMES.get(errno);
        return name != null ? name : "errno " + errno;
    }
}
