package io.rdmastorage.probe.parse;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code lctl get_param mdc.*.import osc.*.import}: a Lustre client's connections to its metadata
 * (MDC) and object (OSC) targets, which carry every metadata and file byte. Each match is printed as
 * {@code <param>=} and then its {@code import:} block from column 0 (lprocfs_import_seq_show):
 * {@code name}, {@code target}, {@code state}, {@code import_flags}, and under {@code connection:}
 * {@code failover_nids: [ a@o2ib, b@o2ib ]} and {@code current_connection: a@o2ib}, the NID the
 * client addresses the target by (quoted since Lustre 2.16; {@code <none>} before the first try).
 * A server's OSP devices ({@code fs-OST0000-osc-MDT0000}) also match {@code osc.*} and are left out.
 */
public record LustreImports(List<Import> imports) {

    /** The states of an import that has a working connection (IDLE: closed after idle_timeout, reconnects on demand). */
    private static final Set<String> CONNECTED = Set.of("FULL", "IDLE");
    private static final Pattern NAME = Pattern.compile(
            "(?<fs>.+?)-(?<kind>MDT|OST)(?<index>[0-9a-fA-F]{4})-(?:mdc|osc)-(?<instance>\\S+)");
    private static final Pattern FIELD = Pattern.compile("\\s*(?<key>[a-z_-]+):\\s*(?<value>.*)");

    public LustreImports {
        imports = List.copyOf(imports);
    }

    /**
     * One client import.
     *
     * @param name     {@code lustre-OST0001-osc-ffff8803c9a4f000}
     * @param fsname   the file system ({@code lustre})
     * @param target   {@code lustre-OST0001} (its UUID without {@code _UUID})
     * @param state    {@code FULL}, {@code IDLE}, {@code DISCONN}, {@code CONNECTING}, {@code EVICTED}, ...
     * @param current  the NID it is connected (or connecting) through; empty before the first try
     * @param failover every NID configured for the target
     */
    public record Import(String name, String fsname, String target, String state, Optional<LnetNid> current,
                         List<LnetNid> failover) {
        public Import {
            failover = List.copyOf(failover);
        }

        /** Connected now, or idle after being connected: its current NID is the one its data uses. */
        public boolean connected() {
            return CONNECTED.contains(state);
        }

        /** {@code lustre-OST0001 via 10.2.0.13@o2ib (FULL)}. */
        public String shown() {
            return target + " via " + current.map(LnetNid::toString).orElse("no NID yet") + " (" + state + ")";
        }
    }

    /** The imports in {@code text}; empty when it holds an import block this parser cannot read. */
    public static Optional<LustreImports> parse(String text) {
        List<Import> imports = new ArrayList<>();
        List<String> block = null;
        for (String line : text.split("\r\n|\r|\n")) {
            if (line.equals("import:")) {
                if (block != null && !add(block, imports)) {
                    return Optional.empty();
                }
                block = new ArrayList<>();
            } else if (block != null && line.startsWith(" ")) {
                block.add(line);
            } else if (block != null) {
                // a "<param>=" line, or lctl's error line for a pattern that matched nothing, ends the block
                if (!add(block, imports)) {
                    return Optional.empty();
                }
                block = null;
            }
        }
        if (block != null && !add(block, imports)) {
            return Optional.empty();
        }
        return Optional.of(new LustreImports(imports));
    }

    private static boolean add(List<String> block, List<Import> into) {
        Optional<String> name = field(block, "name");
        Optional<String> state = field(block, "state");
        if (name.isEmpty() || state.isEmpty()) {
            return false;
        }
        Matcher m = NAME.matcher(name.get());
        if (!m.matches()) {
            return name.get().startsWith("MGC");   // an mgc block: the MGS's connection, no file data
        }
        if (m.group("instance").startsWith("MDT") || m.group("instance").startsWith("OST")) {
            return true;   // a server's OSP device, not a client's import
        }
        Optional<LnetNid> current = field(block, "current_connection").map(LustreImports::unquote).flatMap(LnetNid::parse);
        List<LnetNid> failover = new ArrayList<>();
        field(block, "failover_nids").ifPresent(list -> {
            for (String nid : list.replaceAll("[\\[\\]]", "").split(",")) {
                LnetNid.parse(unquote(nid.strip())).ifPresent(failover::add);
            }
        });
        String target = m.group("fs") + "-" + m.group("kind") + m.group("index").toUpperCase(Locale.ROOT);
        into.add(new Import(name.get(), m.group("fs"), target, state.get().strip(), current, failover));
        return true;
    }

    private static Optional<String> field(List<String> block, String key) {
        for (String line : block) {
            Matcher m = FIELD.matcher(line);
            if (m.matches() && m.group("key").equals(key)) {
                return Optional.of(m.group("value").strip());
            }
        }
        return Optional.empty();
    }

    private static String unquote(String value) {
        return value.length() >= 2 && value.startsWith("\"") && value.endsWith("\"") ? value.substring(1, value.length() - 1) : value;
    }

    /** The imports of one file system. */
    public List<Import> of(String fsname) {
        return imports.stream().filter(i -> i.fsname().equals(fsname)).toList();
    }
}
