package io.rdmastorage.operator.docs;

import static org.assertj.core.api.Assertions.assertThat;

import io.rdmastorage.contract.CheckType;
import io.rdmastorage.contract.Reason;
import io.rdmastorage.contract.Reasons;
import io.rdmastorage.contract.Status;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * docs/troubleshooting.md has a row for every reason a user can meet, under the right heading and
 * with the statuses the code gives it: each check's reasons as its descriptor in probe-contract
 * declares them, the common ones, every reason the operator writes, and every reason of an
 * acceptance run. A reason added to the code without its row fails here.
 */
class TroubleshootingTest {

    static final String PAGE = "docs/troubleshooting.md";
    static final String HEADER = "| reason | status | what it means (what was seen) | what to run | what fixes it |";
    private static final Pattern REASON = Pattern.compile("^`([A-Z][A-Za-z0-9]*)`$");
    /** Values of the operator's Reasons.Acceptance that are condition types or phases, not reasons. */
    private static final Set<String> ACCEPTANCE_TYPES_AND_PHASES = Set.of(io.rdmastorage.operator.status.Reasons.Acceptance.COMPLETE,
            io.rdmastorage.operator.status.Reasons.Acceptance.RDMA_EFFECTIVE, io.rdmastorage.operator.status.Reasons.Acceptance.PENDING, io.rdmastorage.operator.status.Reasons.Acceptance.SUCCEEDED,
            io.rdmastorage.operator.status.Reasons.Acceptance.FAILED);

    private final Map<String, Map<String, Set<Status>>> sections = parse(Markdown.read(Markdown.ROOT.resolve(PAGE)));

    @Test
    void eachCheckHasItsSectionWithExactlyTheReasonsAndStatusesOfItsDescriptor() {
        for (CheckType type : CheckType.values()) {
            assertThat(sections).as("%s has a section \"## %s\"", PAGE, type.conditionType()).containsKey(type.conditionType());
            Map<String, Set<Status>> declared = new LinkedHashMap<>();
            for (Reason r : type.descriptor().reasons()) {
                declared.put(r.name(), EnumSet.copyOf(r.statuses()));
            }
            assertThat(sections.get(type.conditionType())).as("%s, section %s: each reason of the %s descriptor, with its statuses",
                    PAGE, type.conditionType(), type.conditionType()).isEqualTo(declared);
        }
    }

    @Test
    void theCommonReasonsHaveTheirSection() {
        Map<String, Set<Status>> declared = new LinkedHashMap<>();
        for (Reason r : Reasons.COMMON) {
            declared.put(r.name(), EnumSet.copyOf(r.statuses()));
        }
        assertThat(sections.get("Every check")).as("%s, section Every check: the contract's common reasons", PAGE)
                .isEqualTo(declared);
    }

    @Test
    void everyReasonTheOperatorWritesHasARow() throws IllegalAccessException {
        Set<String> rows = new TreeSet<>();
        sections.values().forEach(s -> rows.addAll(s.keySet()));
        Set<String> reasons = constants(io.rdmastorage.operator.status.Reasons.class);
        assertThat(reasons).hasSizeGreaterThan(25);
        assertThat(rows).as("%s has a row for each reason the operator writes", PAGE).containsAll(reasons);
    }

    @Test
    void everyReasonOfAnAcceptanceRunHasARowInItsSection() throws IllegalAccessException {
        Set<String> reasons = constants(io.rdmastorage.operator.status.Reasons.Acceptance.class);
        reasons.removeAll(ACCEPTANCE_TYPES_AND_PHASES);
        assertThat(reasons).hasSizeGreaterThan(10);
        assertThat(sections).containsKey("Acceptance runs");
        assertThat(sections.get("Acceptance runs").keySet()).as("%s, section Acceptance runs", PAGE).containsAll(reasons);
    }

    /** Section → reason → statuses, from the tables; every row is checked for its shape on the way. */
    private static Map<String, Map<String, Set<Status>>> parse(String text) {
        Map<String, Map<String, Set<Status>>> parsed = new LinkedHashMap<>();
        List<String> problems = new ArrayList<>();
        Markdown.sections(text).forEach((title, lines) -> {
            Map<String, Set<Status>> rows = new LinkedHashMap<>();
            boolean inTable = false;
            for (String line : lines) {
                if (line.strip().equals(HEADER)) {
                    inTable = true;
                    continue;
                }
                if (!line.startsWith("|")) {
                    inTable = false;
                    continue;
                }
                if (!inTable || line.startsWith("|---")) {
                    continue;
                }
                List<String> cells = Markdown.cells(line);
                Matcher name = REASON.matcher(cells.get(0));
                if (cells.size() != 5 || !name.matches()) {
                    problems.add(title + ": a row needs five cells and one `Reason` first: " + line);
                    continue;
                }
                Set<Status> statuses = EnumSet.noneOf(Status.class);
                for (String s : cells.get(1).split("/")) {
                    switch (s.strip()) {
                        case "True" -> statuses.add(Status.TRUE);
                        case "False" -> statuses.add(Status.FALSE);
                        case "Unknown" -> statuses.add(Status.UNKNOWN);
                        default -> problems.add(title + ", " + name.group(1) + ": status '" + s.strip() + "' is not True, False or Unknown");
                    }
                }
                if (cells.get(2).isEmpty()) {
                    problems.add(title + ", " + name.group(1) + ": says nothing about what it means");
                }
                if (!statuses.contains(Status.TRUE) && cells.get(3).isEmpty() && cells.get(4).isEmpty()) {
                    problems.add(title + ", " + name.group(1) + ": says neither what to run nor what fixes it");
                }
                if (rows.put(name.group(1), statuses) != null) {
                    problems.add(title + ": " + name.group(1) + " has two rows");
                }
            }
            parsed.put(title, rows);
        });
        assertThat(problems).as("rows of %s", PAGE).isEmpty();
        return parsed;
    }

    private static Set<String> constants(Class<?> type) throws IllegalAccessException {
        Set<String> values = new LinkedHashSet<>();
        for (Field f : type.getFields()) {
            if (Modifier.isStatic(f.getModifiers()) && f.getType() == String.class) {
                values.add((String) f.get(null));
            }
        }
        return values;
    }
}
