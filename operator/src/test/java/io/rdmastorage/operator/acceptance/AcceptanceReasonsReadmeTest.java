package io.rdmastorage.operator.acceptance;

import static org.assertj.core.api.Assertions.assertThat;

import io.rdmastorage.operator.status.Reasons;
import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Users filter and alert on an acceptance run's reasons: docs/acceptance.md names every one, and the Events' own. */
class AcceptanceReasonsReadmeTest {

    @Test
    void theAcceptanceSectionNamesEveryConditionReasonAndEvent() throws IOException, IllegalAccessException {
        String section = Files.readString(Path.of("../docs/acceptance.md"));
        Set<String> values = new LinkedHashSet<>();
        for (Field f : Reasons.Acceptance.class.getFields()) {
            if (Modifier.isStatic(f.getModifiers()) && f.getType() == String.class) {
                values.add((String) f.get(null));
            }
        }
        values.addAll(Set.of(AcceptanceEvents.STARTED, AcceptanceEvents.COMPLETED, AcceptanceEvents.WAITING));
        assertThat(values).hasSizeGreaterThan(15);
        for (String value : values) {
            assertThat(section).as("docs/acceptance.md names %s", value).contains("`" + value + "`");
        }
    }
}
