package io.rdmastorage.operator.docs;

import static org.assertj.core.api.Assertions.assertThat;

import io.rdmastorage.contract.CheckType;
import io.rdmastorage.contract.Reason;
import io.rdmastorage.contract.Reasons;
import io.rdmastorage.contract.RecommendedAction;
import io.rdmastorage.contract.Status;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.EnumMap;
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
 * acceptance run. A reason that can stand on a check's condition has its recommended action in
 * the action column, as declared with each status. A reason added to the code without its row, or
 * an action changed without its cell, fails here.
 */
class TroubleshootingTest {

    static final String PAGE = "docs/troubleshooting.md";
    static final String HEADER = "| reason | status | what it means (what was seen) | what to run | what fixes it |";
    /** The tables of reasons that stand on a check's condition: with the action each recommends. */
    static final String ACTION_HEADER = "| reason | status | action | what it means (what was seen) | what to run | what fixes it |";
    /** The section with the operator's reasons on checks (an action table) and the node's Ready reasons (none). */
    static final String PROBES = "Probes and the node's Ready";
    private static final Pattern REASON = Pattern.compile("^`([A-Z][A-Za-z0-9]*)`$");
    /** Values of the operator's Reasons.Acceptance that are condition types or phases, not reasons. */
    private static final Set<String> ACCEPTANCE_TYPES_AND_PHASES = Set.of(io.rdmastorage.operator.status.Reasons.Acceptance.COMPLETE,
            io.rdmastorage.operator.status.Reasons.Acceptance.RDMA_EFFECTIVE, io.rdmastorage.operator.status.Reasons.Acceptance.PENDING, io.rdmastorage.operator.status.Reasons.Acceptance.SUCCEEDED,
            io.rdmastorage.operator.status.Reasons.Acceptance.FAILED);

    /**
     * One row: its statuses and, in an action table, the action with each of them (null in a table
     * without the column).
     */
    record Row(Set<Status> statuses, Map<Status, RecommendedAction> actions) {

        static Row of(Reason r) {
            return new Row(EnumSet.copyOf(r.statuses()), new EnumMap<>(r.actions()));
        }
    }

    private final Map<String, Map<String, Row>> sections = parse(Markdown.read(Markdown.ROOT.resolve(PAGE)));

    @Test
    void eachCheckHasItsSectionWithExactlyTheReasonsStatusesAndActionsOfItsDescriptor() {
        for (CheckType type : CheckType.values()) {
            assertThat(sections).as("%s has a section \"## %s\"", PAGE, type.conditionType()).containsKey(type.conditionType());
            assertThat(sections.get(type.conditionType())).as("%s, section %s: each reason of the %s descriptor, with its "
                    + "statuses and actions", PAGE, type.conditionType(), type.conditionType())
                    .isEqualTo(rows(type.descriptor().reasons()));
        }
    }

    @Test
    void theCommonReasonsHaveTheirSection() {
        assertThat(sections.get("Every check")).as("%s, section Every check: the contract's common reasons", PAGE)
                .isEqualTo(rows(Reasons.COMMON));
    }

    @Test
    void theOperatorsReasonsOnChecksHaveTheirActionsAndTheNodesReadyHasNone() {
        Map<String, Row> probes = sections.get(PROBES);
        Map<String, Row> withActions = new LinkedHashMap<>(probes);
        withActions.values().removeIf(r -> r.actions() == null);
        assertThat(withActions).as("%s, section %s: the action table is the operator's reasons on checks", PAGE, PROBES)
                .isEqualTo(rows(io.rdmastorage.operator.status.Reasons.ON_CHECKS));
        Map<String, Row> ready = new LinkedHashMap<>(probes);
        ready.keySet().removeAll(withActions.keySet());
        assertThat(ready.keySet()).as("the node's Ready reasons, in a table without actions").containsExactly(
                io.rdmastorage.operator.status.Reasons.ALL_CHECKS_PASSED, io.rdmastorage.operator.status.Reasons.CHECKS_FAILED,
                io.rdmastorage.operator.status.Reasons.CHECKS_UNKNOWN, io.rdmastorage.operator.status.Reasons.NO_CHECKS_CONFIGURED);
    }

    @Test
    void onlyReasonsOnChecksHaveAnActionColumn() {
        Set<String> withActions = new TreeSet<>();
        sections.forEach((title, rows) -> {
            if (rows.values().stream().anyMatch(r -> r.actions() != null)) {
                withActions.add(title);
            }
        });
        Set<String> expected = new TreeSet<>(CheckType.conditionTypes());
        expected.add("Every check");
        expected.add(PROBES);
        assertThat(withActions).as("%s: the sections with an action table", PAGE).isEqualTo(expected);
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

    private static Map<String, Row> rows(List<Reason> reasons) {
        Map<String, Row> rows = new LinkedHashMap<>();
        reasons.forEach(r -> rows.put(r.name(), Row.of(r)));
        return rows;
    }

    /** Section → reason → row, from the tables; every row is checked for its shape on the way. */
    private static Map<String, Map<String, Row>> parse(String text) {
        Map<String, Map<String, Row>> parsed = new LinkedHashMap<>();
        List<String> problems = new ArrayList<>();
        Markdown.sections(text).forEach((title, lines) -> {
            Map<String, Row> rows = new LinkedHashMap<>();
            boolean inTable = false;
            boolean withAction = false;
            for (String line : lines) {
                if (line.strip().equals(HEADER) || line.strip().equals(ACTION_HEADER)) {
                    inTable = true;
                    withAction = line.strip().equals(ACTION_HEADER);
                    continue;
                }
                if (!line.startsWith("|")) {
                    inTable = false;
                    continue;
                }
                if (!inTable || line.startsWith("|---")) {
                    continue;
                }
                List<String> cells = new ArrayList<>(Markdown.cells(line));
                Matcher name = REASON.matcher(cells.get(0));
                int size = withAction ? 6 : 5;
                if (cells.size() != size || !name.matches()) {
                    problems.add(title + ": a row needs " + size + " cells and one `Reason` first: " + line);
                    continue;
                }
                String where = title + ", " + name.group(1);
                List<Status> statuses = new ArrayList<>();
                for (String s : cells.get(1).split("/")) {
                    Status.ofWire(s.strip()).ifPresentOrElse(statuses::add,
                            () -> problems.add(where + ": status '" + s.strip() + "' is not True, False or Unknown"));
                }
                Map<Status, RecommendedAction> actions = withAction ? actions(where, statuses, cells.remove(2), problems) : null;
                if (cells.get(2).isEmpty()) {
                    problems.add(where + ": says nothing about what it means");
                }
                if (!statuses.contains(Status.TRUE) && cells.get(3).isEmpty() && cells.get(4).isEmpty()) {
                    problems.add(where + ": says neither what to run nor what fixes it");
                }
                Set<Status> set = statuses.isEmpty() ? EnumSet.noneOf(Status.class) : EnumSet.copyOf(statuses);
                if (rows.put(name.group(1), new Row(set, actions)) != null) {
                    problems.add(title + ": " + name.group(1) + " has two rows");
                }
            }
            parsed.put(title, rows);
        });
        assertThat(problems).as("rows of %s", PAGE).isEmpty();
        return parsed;
    }

    /**
     * The action cell: one action for every status of the row, or one per status separated by
     * {@code /} in the order of the status cell.
     */
    private static Map<Status, RecommendedAction> actions(String where, List<Status> statuses, String cell, List<String> problems) {
        List<RecommendedAction> named = new ArrayList<>();
        for (String a : cell.split("/")) {
            RecommendedAction.ofWire(a.strip()).ifPresentOrElse(named::add,
                    () -> problems.add(where + ": action '" + a.strip() + "' is none of " + List.of(RecommendedAction.values())));
        }
        Map<Status, RecommendedAction> actions = new EnumMap<>(Status.class);
        if (named.size() == 1) {
            statuses.forEach(s -> actions.put(s, named.get(0)));
        } else if (named.size() == statuses.size()) {
            for (int i = 0; i < statuses.size(); i++) {
                actions.put(statuses.get(i), named.get(i));
            }
        } else {
            problems.add(where + ": one action, or one per status, not '" + cell + "'");
        }
        return actions;
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
