package io.rdmastorage.operator.status;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** Users alert and filter on the operator's reasons: the operator reasons table of docs/reading-verdicts.md names every one. */
class ReasonsReadmeTest {

    private static final Pattern NAME = Pattern.compile("`([A-Z][A-Za-z]+)`");

    @Test
    void theReadmeNamesEveryReasonTheOperatorWrites() throws IOException, IllegalAccessException {
        String text = Files.readString(Path.of("../docs/reading-verdicts.md"));
        int start = text.indexOf("| reason | status | meaning, and what to do |");
        assertThat(start).as("docs/reading-verdicts.md's operator reasons table").isNotNegative();
        Set<String> named = new LinkedHashSet<>();
        int end = text.indexOf("\n\n", start);
        for (String line : text.substring(start, end < 0 ? text.length() : end).split("\n")) {
            String[] cells = line.split("\\|");
            if (cells.length > 1) {
                Matcher m = NAME.matcher(cells[1]);
                while (m.find()) {
                    named.add(m.group(1));
                }
            }
        }
        Set<String> reasons = new LinkedHashSet<>();
        for (Field f : Reasons.class.getFields()) {
            if (Modifier.isStatic(f.getModifiers()) && f.getType() == String.class) {
                reasons.add((String) f.get(null));
            }
        }
        assertThat(reasons).hasSizeGreaterThan(20);
        assertThat(named).containsAll(reasons);
    }
}
