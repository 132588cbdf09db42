package io.rdmastorage.operator.status;

/**
 * Text from a probe pod (a termination message, a crash's stderr) shown inside a condition
 * message: it may be anything, so it is quoted and cut, and characters that could garble a terminal
 * or hide text (control characters, bidi overrides, zero-width marks) are escaped.
 */
public final class SafeText {

    /** How much of an unparseable termination message a condition quotes. */
    public static final int EXCERPT = 80;

    private SafeText() {
    }

    /**
     * {@code "<text>"} with escapes, or {@code "<first max characters>" (first 80 of 4000 characters)}
     * when longer; {@code (empty)} for an empty text. Counts code points, so it never splits one.
     */
    public static String quote(String text, int max) {
        if (text.isEmpty()) {
            return "(empty)";
        }
        int total = text.codePointCount(0, text.length());
        int end = total <= max ? text.length() : text.offsetByCodePoints(0, max);
        String quoted = "\"" + escape(text.substring(0, end)) + "\"";
        return total <= max ? quoted : quoted + " (first " + max + " of " + total + " characters)";
    }

    /**
     * The text with what must not reach a terminal escaped (as {@code \n}, {@code \t}, {@code \\uXXXX}),
     * for strings written into messages verbatim. Backslashes and quotes are escaped too.
     */
    public static String escape(String text) {
        StringBuilder b = new StringBuilder(text.length() + 8);
        text.codePoints().forEach(cp -> {
            switch (cp) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                case '\r' -> b.append("\\r");
                case '\t' -> b.append("\\t");
                default -> {
                    if (safe(cp)) {
                        b.appendCodePoint(cp);
                    } else {
                        unicodeEscape(b, cp);
                    }
                }
            }
        });
        return b.toString();
    }

    /**
     * The text with only invisible and control characters escaped, quotes left alone: for messages
     * that come from a parsed report (our own probe's prose, which may hold tool output).
     */
    public static String clean(String text) {
        for (int i = 0; i < text.length(); ) {
            int cp = text.codePointAt(i);
            if (!safe(cp) && cp != '\n' && cp != '\t') {
                return cleanFrom(text);
            }
            i += Character.charCount(cp);
        }
        return text;
    }

    private static String cleanFrom(String text) {
        StringBuilder b = new StringBuilder(text.length() + 8);
        text.codePoints().forEach(cp -> {
            if (safe(cp) || cp == '\n' || cp == '\t') {
                b.appendCodePoint(cp);
            } else {
                unicodeEscape(b, cp);
            }
        });
        return b.toString();
    }

    /** Printable ASCII, or a non-ASCII letter, digit, punctuation mark, symbol or space (µ, é, →). */
    private static boolean safe(int cp) {
        if (cp >= 0x20 && cp < 0x7F) {
            return true;
        }
        if (cp < 0xA0) {
            return false;
        }
        return switch (Character.getType(cp)) {
            case Character.UPPERCASE_LETTER, Character.LOWERCASE_LETTER, Character.TITLECASE_LETTER,
                 Character.MODIFIER_LETTER, Character.OTHER_LETTER, Character.DECIMAL_DIGIT_NUMBER,
                 Character.LETTER_NUMBER, Character.OTHER_NUMBER, Character.CONNECTOR_PUNCTUATION,
                 Character.DASH_PUNCTUATION, Character.START_PUNCTUATION, Character.END_PUNCTUATION,
                 Character.INITIAL_QUOTE_PUNCTUATION, Character.FINAL_QUOTE_PUNCTUATION,
                 Character.OTHER_PUNCTUATION, Character.MATH_SYMBOL, Character.CURRENCY_SYMBOL,
                 Character.MODIFIER_SYMBOL, Character.OTHER_SYMBOL -> true;
            default -> false; // controls, format (bidi, zero-width), marks, separators, unassigned, surrogates
        };
    }

    private static void unicodeEscape(StringBuilder b, int cp) {
        for (char c : Character.toChars(cp)) {
            b.append(String.format("\\u%04x", (int) c));
        }
    }
}
