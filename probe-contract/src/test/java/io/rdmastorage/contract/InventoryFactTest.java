package io.rdmastorage.contract;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class InventoryFactTest {

    @Test
    void theKeyRegexAcceptsExactlyTheKeys() {
        Pattern regex = Pattern.compile(InventoryFact.KEY_REGEX);
        for (String key : InventoryFact.keys()) {
            assertThat(regex.matcher(key).matches()).as(key).isTrue();
        }
        String alternatives = InventoryFact.KEY_REGEX.substring(2, InventoryFact.KEY_REGEX.length() - 2);
        assertThat(alternatives.split("\\|")).containsExactlyElementsOf(InventoryFact.keys());
        assertThat(regex.matcher("kernel2").matches()).isFalse();
        assertThat(regex.matcher("").matches()).isFalse();
    }

    @Test
    void keysAreUniqueCamelCaseAndFoundByKey() {
        assertThat(InventoryFact.keys()).doesNotHaveDuplicates().allMatch(k -> k.matches("[a-z][A-Za-z0-9]*"));
        for (InventoryFact fact : InventoryFact.values()) {
            assertThat(InventoryFact.ofKey(fact.key())).hasValue(fact);
        }
        assertThat(InventoryFact.ofKey("uptime")).isEmpty();
    }
}
