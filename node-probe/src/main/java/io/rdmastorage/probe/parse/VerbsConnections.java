package io.rdmastorage.probe.parse;

import java.util.Collection;
import java.util.HashSet;
import java.util.Locale;
import java.util.Set;

/**
 * {@code mmfsadm test verbs conn}: the peers this daemon has an RDMA connection to. A peer that is
 * not listed talks to us over TCP. The column layout differs between releases and no stable sample
 * is public, so the output is read as a bag of whole tokens (host names and IP addresses), never by
 * column: {@code nsd-01}, {@code 10.10.0.1:1191}, {@code nsd-01(10.10.0.1)} and {@code <10.10.0.1>}
 * all mention 10.10.0.1, while {@code 10.10.0.12} does not.
 *
 * <p>Built for 10,000-peer clusters: one pass over the characters, no regular expressions.
 */
public final class VerbsConnections {

    private final Set<String> tokens;

    private VerbsConnections(Set<String> tokens) {
        this.tokens = tokens;
    }

    public static VerbsConnections parse(String text) {
        // a char array and a lookup table, not charAt() and a switch: the probe parses once per
        // JVM, in the interpreter, where every method call per character counts (docs/benchmarks.md)
        char[] chars = text.toLowerCase(Locale.ROOT).toCharArray();   // lower case once, not per token
        Set<String> tokens = new HashSet<>(Math.max(16, chars.length / 8));
        int start = -1;
        for (int i = 0; i <= chars.length; i++) {
            boolean separator = i == chars.length || (chars[i] < SEPARATORS.length && SEPARATORS[chars[i]]);
            if (!separator && start < 0) {
                start = i;
            } else if (separator && start >= 0) {
                addToken(chars, start, i, tokens);
                start = -1;
            }
        }
        return new VerbsConnections(tokens);
    }

    /** Whether the output names any of these identifiers (names or addresses) of one peer. */
    public boolean mentionsAny(Collection<String> identifiers) {
        for (String id : identifiers) {
            for (String form : forms(id)) {
                if (tokens.contains(form)) {
                    return true;
                }
            }
        }
        return false;
    }

    /** Whether two names or addresses stand for the same host (case and domain suffix aside). */
    public static boolean sameHost(String a, String b) {
        if (a.isEmpty() || b.isEmpty()) {
            return false;
        }
        Set<String> formsOfB = forms(b);
        for (String form : forms(a)) {
            if (formsOfB.contains(form)) {
                return true;
            }
        }
        return false;
    }

    public boolean isEmpty() {
        return tokens.isEmpty();
    }

    /** ':' is not a separator: it belongs to IPv6 addresses. "host:port" is split in addToken. */
    private static final boolean[] SEPARATORS = new boolean[128];

    static {
        for (char c : " \t\r\n,;()[]{}<>=\"'|/@".toCharArray()) {
            SEPARATORS[c] = true;
        }
    }

    /** Adds text[start, end) and the forms it may be looked up by; allocation-light, it runs per token. */
    private static void addToken(char[] text, int start, int end, Set<String> tokens) {
        while (end > start && (text[end - 1] == '.' || text[end - 1] == ':')) {
            end--;   // sentence or label punctuation: "nsd-01." "nsd-01:"
        }
        if (end == start) {
            return;
        }
        int firstColon = -1;
        int colons = 0;
        int firstDot = -1;
        boolean numeric = true;
        for (int i = start; i < end; i++) {
            char c = text[i];
            if (c == ':') {
                colons++;
                firstColon = firstColon < 0 ? i : firstColon;
            } else if (c == '.') {
                firstDot = firstDot < 0 ? i : firstDot;
            } else if (c < '0' || c > '9') {
                numeric = false;
            }
        }
        if (numeric && firstDot < 0 && colons == 0) {
            return;   // a bare number (index, port, counter) names no peer; most tokens are such
        }
        tokens.add(new String(text, start, end - start));
        if (colons == 1 && firstColon > start) {
            addToken(text, start, firstColon, tokens);   // host:port, 10.10.0.1:1191
        } else if (colons == 0 && firstDot > start && !numeric) {
            tokens.add(new String(text, start, firstDot - start));   // short name of nsd-01.cluster.example
        }
    }

    /** A name in lower case, plus its short form (first label) so nsd-01 matches nsd-01.cluster.example. */
    static Set<String> forms(String id) {
        String lower = trimPunctuation(id).toLowerCase(Locale.ROOT);
        int dot = lower.indexOf('.');
        if (dot <= 0 || isNumeric(lower) || lower.indexOf(':') >= 0) {
            return Set.of(lower);
        }
        return Set.of(lower, lower.substring(0, dot));
    }

    private static String trimPunctuation(String s) {
        int end = s.length();
        while (end > 0 && (s.charAt(end - 1) == '.' || s.charAt(end - 1) == ':')) {
            end--;
        }
        return s.substring(0, end);
    }

    /** Digits and dots only: an IPv4 address or a number, never shortened to its first label. */
    private static boolean isNumeric(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c != '.' && (c < '0' || c > '9')) {
                return false;
            }
        }
        return true;
    }
}
