package io.rdmastorage.probe.parse;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code ofed_info -s} of MLNX_OFED (and DOCA-OFED): one line naming the bundle,
 * {@code MLNX_OFED_LINUX-24.10-1.1.4.0:}. The bundle, not its rdma-core package, is what differs
 * between nodes installed from different MLNX_OFED releases.
 */
public final class OfedInfo {

    /** One token naming an OFED bundle with a version ({@code OFED-internal-4.4-2.0.7:} from older releases too). */
    private static final Pattern BUNDLE = Pattern.compile("^\\s*([A-Za-z0-9_.\\-]*OFED[A-Za-z0-9_.\\-]*-[0-9][A-Za-z0-9_.\\-]*?):?\\s*$",
            Pattern.MULTILINE);

    private OfedInfo() {
    }

    /** The bundle without its colon, e.g. {@code MLNX_OFED_LINUX-24.10-1.1.4.0}; empty for anything else. */
    public static Optional<String> bundle(String text) {
        Matcher m = BUNDLE.matcher(text);
        return m.find() ? Optional.of(m.group(1)) : Optional.empty();
    }
}
