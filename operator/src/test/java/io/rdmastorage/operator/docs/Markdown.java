package io.rdmastorage.operator.docs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The repository's Markdown as GitHub shows it, as far as the documentation tests need it: the
 * files, their headings' anchors, their links, their tables and their fenced code blocks.
 */
final class Markdown {

    /** The repository root, seen from a module's directory (where surefire runs the tests). */
    static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

    private static final Pattern FENCE = Pattern.compile("^ {0,3}(`{3,}|~{3,})");
    private static final Pattern HEADING = Pattern.compile("^ {0,3}(#{1,6})\\s+(.*?)\\s*#*\\s*$");
    private static final Pattern HTML_ANCHOR = Pattern.compile("<a\\s+(?:name|id)=\"([^\"]+)\"", Pattern.CASE_INSENSITIVE);
    private static final Pattern CODE_SPAN = Pattern.compile("(`+)(.+?)\\1", Pattern.DOTALL);
    private static final Pattern INLINE_LINK = Pattern.compile("!?\\[((?:[^\\[\\]]|\\[[^\\[\\]]*\\])*)\\]\\(\\s*<?([^)\\s>]*)>?(?:\\s+\"[^\"]*\")?\\s*\\)");
    private static final Pattern REFERENCE_DEFINITION = Pattern.compile("(?m)^ {0,3}\\[[^\\]]+\\]:\\s*<?(\\S+?)>?(?:\\s+\"[^\"]*\")?\\s*$");

    private Markdown() {
    }

    /** Every Markdown file of the repository, build output, hidden folders and dependencies left out. */
    static List<Path> files() {
        try (Stream<Path> walk = Files.walk(ROOT)) {
            return walk.filter(p -> p.getFileName().toString().endsWith(".md"))
                    .filter(Files::isRegularFile)
                    .filter(p -> {
                        for (Path part : ROOT.relativize(p)) {
                            String name = part.toString();
                            if (name.startsWith(".") || name.equals("target") || name.equals("node_modules")) {
                                return false;
                            }
                        }
                        return true;
                    })
                    .sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The text with every fenced code block's lines blanked (line numbers stay). */
    static String withoutCodeBlocks(String text) {
        StringBuilder out = new StringBuilder();
        String fence = null;
        for (String line : text.split("\n", -1)) {
            Matcher m = FENCE.matcher(line);
            if (fence == null && m.find()) {
                fence = m.group(1);
                out.append('\n');
                continue;
            }
            if (fence != null) {
                if (closes(line, fence)) {
                    fence = null;
                }
                out.append('\n');
                continue;
            }
            out.append(line).append('\n');
        }
        return out.toString();
    }

    /** A closing fence: the opening one's character, at least as many, nothing else. */
    private static boolean closes(String line, String fence) {
        String s = line.strip();
        return s.startsWith(fence) && s.chars().allMatch(c -> c == fence.charAt(0));
    }

    /** The fenced code blocks, each with its info string (the language): {info, body}. */
    static List<String[]> codeBlocks(String text) {
        List<String[]> blocks = new ArrayList<>();
        String fence = null;
        String info = null;
        StringBuilder body = new StringBuilder();
        for (String line : text.split("\n", -1)) {
            Matcher m = FENCE.matcher(line);
            if (fence == null && m.find()) {
                fence = m.group(1);
                info = line.strip().substring(fence.length()).strip();
                body.setLength(0);
            } else if (fence != null && closes(line, fence)) {
                blocks.add(new String[] {info, body.toString()});
                fence = null;
            } else if (fence != null) {
                body.append(line).append('\n');
            }
        }
        return blocks;
    }

    /**
     * The anchors GitHub gives the file's headings: the heading's text as rendered (links reduced to
     * their text, code spans to their content, emphasis marks dropped), lower-cased, every character
     * that is not a letter, digit, space, hyphen or underscore dropped, each space a hyphen; a
     * repeated anchor gets -1, -2, ... Explicit {@code <a name>} / {@code id} anchors count too.
     */
    static Set<String> anchors(String text) {
        Set<String> anchors = new LinkedHashSet<>();
        Map<String, Integer> seen = new HashMap<>();
        String prose = withoutCodeBlocks(text);
        for (String line : prose.split("\n")) {
            Matcher h = HEADING.matcher(line);
            if (h.matches()) {
                String slug = slug(h.group(2));
                int n = seen.merge(slug, 1, Integer::sum) - 1;
                anchors.add(n == 0 ? slug : slug + "-" + n);
            }
            Matcher a = HTML_ANCHOR.matcher(line);
            while (a.find()) {
                anchors.add(a.group(1));
            }
        }
        return anchors;
    }

    static String slug(String heading) {
        String text = heading.replaceAll("!?\\[([^\\]]*)\\]\\([^)]*\\)", "$1");
        StringBuilder rendered = new StringBuilder();
        Matcher code = CODE_SPAN.matcher(text);
        int last = 0;
        while (code.find()) {
            rendered.append(text, last, code.start()).append('\u0000').append(code.group(2).strip()).append('\u0001');
            last = code.end();
        }
        rendered.append(text.substring(last));
        StringBuilder slug = new StringBuilder();
        boolean inCode = false;
        for (int i = 0; i < rendered.length(); ) {
            int c = rendered.codePointAt(i);
            i += Character.charCount(c);
            if (c == 0 || c == 1) {
                inCode = c == 0;
            } else if (!inCode && c == '*') {
                continue;   // emphasis
            } else if (Character.isLetterOrDigit(c) || c == '-' || c == '_') {
                slug.appendCodePoint(Character.toLowerCase(c));
            } else if (c == ' ') {
                slug.append('-');
            }
        }
        return slug.toString().toLowerCase(Locale.ROOT);
    }

    /** The link targets of the file's prose (code blocks and code spans left out), in order. */
    static List<String> links(String text) {
        String prose = CODE_SPAN.matcher(withoutCodeBlocks(text))
                .replaceAll(m -> Matcher.quoteReplacement(m.group().replaceAll("[^\n]", " ")));
        List<String> targets = new ArrayList<>();
        Matcher m = INLINE_LINK.matcher(prose);
        while (m.find()) {
            targets.add(m.group(2));
        }
        Matcher r = REFERENCE_DEFINITION.matcher(prose);
        while (r.find()) {
            targets.add(r.group(1));
        }
        return targets;
    }

    /** The file's second-level sections: heading text → the section's lines (code blocks blanked). */
    static Map<String, List<String>> sections(String text) {
        Map<String, List<String>> sections = new LinkedHashMap<>();
        List<String> current = null;
        for (String line : withoutCodeBlocks(text).split("\n")) {
            if (line.startsWith("## ")) {
                current = new ArrayList<>();
                sections.put(line.substring(3).strip(), current);
            } else if (current != null) {
                current.add(line);
            }
        }
        return sections;
    }

    /** A table row's cells, without the outer pipes; {@code \|} stays inside its cell. */
    static List<String> cells(String row) {
        String inner = row.strip();
        inner = inner.substring(1, inner.endsWith("|") && !inner.endsWith("\\|") ? inner.length() - 1 : inner.length());
        List<String> cells = new ArrayList<>();
        for (String cell : inner.split("(?<!\\\\)\\|", -1)) {
            cells.add(cell.strip());
        }
        return cells;
    }
}
