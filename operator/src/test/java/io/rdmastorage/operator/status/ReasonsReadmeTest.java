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

/** Users alert and filter on the operator's reasons: README's operator reasons table names every one. */
class ReasonsReadmeTest {

    private static final Pattern NAME = Pattern.compile("`([A-Z][A-Za-z]+)`");

    @Test
    void theReadmeNamesEveryReasonTheOperatorWrites() throws IOException, IllegalAccessException {
        String readme = Files.readString(Path.of("../README.md"));
        int start = readme.indexOf("| reason | status | meaning, and what to do |");
        assertThat(start).as("README's operator reasons table").isNotNegative();
        Set<String> named = new LinkedHashSet<>();
        for (String line : readme.substring(start, readme.indexOf("\n\n", start)).split("\n")) {
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
