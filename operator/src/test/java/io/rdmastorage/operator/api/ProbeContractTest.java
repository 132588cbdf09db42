package io.rdmastorage.operator.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.rdmastorage.contract.CheckType;
import io.rdmastorage.contract.PrinterColumn;
import io.rdmastorage.contract.Reason;
import io.rdmastorage.contract.Reasons;
import io.rdmastorage.contract.Status;
import io.rdmastorage.contract.spec.ProbeSpec;
import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Field;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The one place where what is not derived from probe-contract is checked against it: the CRD's
 * check sections (field names, types, defaults, the GDS filesystems), RdmaStorageNode's printer
 * columns, and the reason tables of the docs (docs/checks.md, docs/reading-verdicts.md). (The probe spec the operator writes and the
 * expected condition types are derived from the contract, so nothing is left to compare there.)
 */
class ProbeContractTest {

    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    private static final Pattern REASON = Pattern.compile("`([A-Z][a-z][A-Za-z0-9]*)`");
    /** The checks table (moved out of README.md with its rows as they were). */
    static final String CHECKS = "docs/checks.md";
    /** The operator's reasons table. */
    static final String READING_VERDICTS = "docs/reading-verdicts.md";

    @Test
    void theProfileHasOneSectionPerCheckInContractOrder() throws IOException {
        List<String> javaSections = Arrays.stream(RdmaStorageProfileSpec.class.getDeclaredFields())
                .filter(f -> f.getType().getSimpleName().endsWith("CheckSpec"))
                .map(Field::getName).toList();
        assertThat(javaSections).containsExactlyElementsOf(ProbeSpec.sectionNames());
        assertThat(Arrays.stream(CheckType.values()).map(CheckType::section).toList())
                .containsExactlyElementsOf(ProbeSpec.sectionNames());
        JsonNode spec = specSchema();
        for (String section : ProbeSpec.sectionNames()) {
            assertThat(spec.path("properties").path(section).path("type").asText()).as("CRD spec.%s", section).isEqualTo("object");
        }
    }

    @Test
    void eachCrdSectionHasTheFieldsOfItsContractRecord() throws IOException {
        JsonNode spec = specSchema();
        for (CheckType type : CheckType.values()) {
            Class<?> javaSection = CheckSections.getter(RdmaStorageProfileSpec.class, type.section()).getReturnType();
            compare(type.section(), spec.path("properties").path(type.section()), ProbeSpec.sectionType(type.section()), javaSection);
        }
    }

    /** The record's fields, types and defaults are the CRD's; the CRD's other fields are @OperatorOnly. */
    private static void compare(String path, JsonNode schema, Class<?> record, Class<?> javaType) {
        Set<String> crdFields = new TreeSet<>();
        schema.path("properties").fieldNames().forEachRemaining(crdFields::add);
        Set<String> operatorOnly = new TreeSet<>();
        for (Field f : javaType.getDeclaredFields()) {
            if (f.isAnnotationPresent(OperatorOnly.class)) {
                operatorOnly.add(f.getName());
            }
        }
        Set<String> contractFields = new TreeSet<>();
        Arrays.stream(record.getRecordComponents()).map(RecordComponent::getName).forEach(contractFields::add);
        Set<String> probeFields = new TreeSet<>(crdFields);
        probeFields.removeAll(operatorOnly);
        assertThat(probeFields).as("fields of the CRD's %s that are not @OperatorOnly = the fields of the contract's %s",
                path, record.getSimpleName()).isEqualTo(contractFields);

        Object[] defaults = defaults(record);
        RecordComponent[] components = record.getRecordComponents();
        for (int i = 0; i < components.length; i++) {
            RecordComponent c = components[i];
            String field = path + "." + c.getName();
            JsonNode property = schema.path("properties").path(c.getName());
            assertThat(property.path("type").asText()).as("CRD type of %s", field).isEqualTo(openApiType(c.getGenericType()));
            JsonNode crdDefault = property.get("default");
            Object contractDefault = defaults[i];
            boolean meaningful = contractDefault != null && !Boolean.FALSE.equals(contractDefault)
                    && !(contractDefault instanceof List<?> l && l.isEmpty());
            if (meaningful) {
                assertThat(crdDefault).as("CRD default of %s: the contract's is %s", field, contractDefault).isNotNull();
            }
            if (crdDefault != null) {
                assertThat(sameValue(crdDefault, contractDefault)).as("CRD default of %s is %s, the contract's %s",
                        field, crdDefault, contractDefault).isTrue();
            }
            Type item = itemType(c.getGenericType());
            if (item instanceof Class<?> itemRecord && itemRecord.isRecord()) {
                Class<?> javaItem = (Class<?>) itemType(CheckSections.getter(javaType, c.getName()).getGenericReturnType());
                compare(field + "[]", property.path("items"), itemRecord, javaItem);
            }
            if (c.getType().isRecord()) {
                compare(field, property, c.getType(), CheckSections.getter(javaType, c.getName()).getReturnType());
            }
        }
    }

    @Test
    void gdsFilesystemsAreTheContracts() throws Exception {
        List<String> crdEnum = new ArrayList<>();
        specSchema().path("properties").path("gds").path("properties").path("filesystems").path("items").path("enum")
                .forEach(v -> crdEnum.add(v.asText()));
        assertThat(crdEnum).containsExactlyInAnyOrderElementsOf(ProbeSpec.GDS_FILESYSTEMS);
        assertThat(Arrays.stream(GdsFilesystem.values()).map(GdsFilesystem::value).toList())
                .containsExactlyElementsOf(ProbeSpec.GDS_FILESYSTEMS);
        ObjectMapper json = new ObjectMapper();
        assertThat(json.writeValueAsString(GdsFilesystem.NVMEOF)).isEqualTo("\"nvmeof\"");
        assertThat(json.readValue("\"wekafs\"", GdsFilesystem.class)).isEqualTo(GdsFilesystem.WEKAFS);
    }

    @Test
    void theNodeCrdShowsEachChecksColumnAfterReady() throws IOException {
        JsonNode columns = crd(GeneratedCrds.fileName(RdmaStorageNode.class)).path("spec").path("versions").get(0)
                .path("additionalPrinterColumns");
        List<String> names = new ArrayList<>();
        columns.forEach(c -> names.add(c.path("name").asText()));
        List<PrinterColumn> expected = Arrays.stream(CheckType.values()).map(t -> t.descriptor().column())
                .flatMap(Optional::stream).toList();
        int ready = names.indexOf("READY");
        assertThat(ready).isNotNegative();
        for (int i = 0; i < expected.size(); i++) {
            JsonNode column = columns.get(ready + 1 + i);
            assertThat(column.path("name").asText()).isEqualTo(expected.get(i).name());
            assertThat(column.path("jsonPath").asText()).isEqualTo(expected.get(i).jsonPath());
            assertThat(column.path("type").asText()).isEqualTo(expected.get(i).type());
        }
        // every column that shows a condition shows Ready or a check's
        Pattern condition = Pattern.compile("\\?\\(@\\.type==\"([A-Za-z]+)\"\\)");
        for (JsonNode c : columns) {
            Matcher m = condition.matcher(c.path("jsonPath").asText());
            if (m.find()) {
                assertThat(m.group(1)).isIn(concat("Ready", CheckType.conditionTypes()));
            }
        }
    }

    @Test
    void theChecksTableNamesEveryProbeReasonUnderItsStatus() throws IOException {
        Map<String, String[]> rows = checksTable();
        assertThat(rows.keySet()).containsExactlyElementsOf(CheckType.conditionTypes());
        for (CheckType type : CheckType.values()) {
            String[] cells = rows.get(type.conditionType());
            List<Reason> probe = type.descriptor().reasons().stream().filter(r -> r.writtenBy(Reason.Writer.PROBE)).toList();
            assertThat(reasonsIn(cells[2])).as("docs/checks.md: %s's True column", type)
                    .isEqualTo(names(probe.stream().filter(r -> r.statuses().contains(Status.TRUE)).toList()));
            assertThat(reasonsIn(cells[3])).as("docs/checks.md: %s's False / Unknown column", type)
                    .isEqualTo(names(probe.stream().filter(r -> !r.statuses().contains(Status.TRUE)).toList()));
        }
        String checks = doc(CHECKS);
        String common = checks.substring(checks.indexOf("Common to all:"), checks.indexOf("\n\n", checks.indexOf("Common to all:")));
        assertThat(reasonsIn(common)).isEqualTo(names(Reasons.COMMON));
    }

    @Test
    void theOperatorTableNamesEveryReasonTheOperatorWritesForACheck() throws IOException {
        String verdicts = doc(READING_VERDICTS);
        int start = verdicts.indexOf("| reason | status | meaning, and what to do |");
        assertThat(start).as("%s's operator reasons table", READING_VERDICTS).isNotNegative();
        String table = verdicts.substring(start, endOfTable(verdicts, start));
        Set<String> named = new LinkedHashSet<>();
        for (String line : table.split("\n")) {
            String[] cells = line.split("\\|");
            if (cells.length > 1) {
                named.addAll(reasonsIn(cells[1]));
            }
        }
        for (CheckType type : CheckType.values()) {
            for (Reason r : type.descriptor().reasons()) {
                if (r.writtenBy(Reason.Writer.OPERATOR)) {
                    assertThat(named).as("%s's operator reasons table names %s (%s)", READING_VERDICTS, r.name(), type).contains(r.name());
                }
            }
        }
    }

    private static JsonNode specSchema() throws IOException {
        return crd(GeneratedCrds.fileName(RdmaStorageProfile.class)).path("spec").path("versions").get(0)
                .path("schema").path("openAPIV3Schema").path("properties").path("spec");
    }

    /** The CRD as the build generated it (CrdDriftTest holds crds/ equal to it). */
    private static JsonNode crd(String name) throws IOException {
        try (InputStream in = ProbeContractTest.class.getResourceAsStream("/META-INF/fabric8/" + name)) {
            assertThat(in).as("META-INF/fabric8/%s generated by the build (phase process-classes)", name).isNotNull();
            return YAML.readTree(in);
        }
    }

    private static Object[] defaults(Class<?> record) {
        RecordComponent[] components = record.getRecordComponents();
        try {
            Object none = record.getDeclaredConstructor(Arrays.stream(components).map(RecordComponent::getType)
                    .toArray(Class<?>[]::new)).newInstance(new Object[components.length]);
            Object[] values = new Object[components.length];
            for (int i = 0; i < components.length; i++) {
                values[i] = components[i].getAccessor().invoke(none);
            }
            return values;
        } catch (ReflectiveOperationException e) {
            throw new AssertionError("cannot build " + record.getSimpleName() + " with no fields set", e);
        }
    }

    private static boolean sameValue(JsonNode crd, Object contract) {
        if (contract instanceof Number n) {
            return crd.isNumber() && crd.asDouble() == n.doubleValue();
        }
        if (contract instanceof Boolean b) {
            return crd.isBoolean() && crd.asBoolean() == b;
        }
        return contract != null && crd.asText().equals(contract.toString());
    }

    private static String openApiType(Type type) {
        if (type == String.class) {
            return "string";
        }
        if (type == Boolean.class) {
            return "boolean";
        }
        if (type == Integer.class) {
            return "integer";
        }
        if (type == Double.class) {
            return "number";
        }
        if (type instanceof ParameterizedType p && p.getRawType() == List.class) {
            return "array";
        }
        if (type instanceof Class<?> c && c.isRecord()) {
            return "object";
        }
        throw new AssertionError("the contract's spec model has a field of type " + type + " this test does not know");
    }

    private static Type itemType(Type type) {
        return type instanceof ParameterizedType p && p.getRawType() == List.class ? p.getActualTypeArguments()[0] : null;
    }

    /** docs/checks.md's "Checks and what their reasons mean" table: condition type → its cells. */
    private static Map<String, String[]> checksTable() throws IOException {
        String text = doc(CHECKS);
        int start = text.indexOf("| check | source of truth | True | False / Unknown reasons |");
        assertThat(start).as("%s's checks table", CHECKS).isNotNegative();
        Map<String, String[]> rows = new java.util.LinkedHashMap<>();
        for (String line : text.substring(start, endOfTable(text, start)).split("\n")) {
            String[] cells = line.split("\\|", -1);
            Matcher type = REASON.matcher(cells[1]);
            if (cells.length >= 6 && type.find()) {
                rows.put(type.group(1), Arrays.copyOfRange(cells, 1, 5));
            }
        }
        return rows;
    }

    private static Set<String> reasonsIn(String text) {
        Set<String> found = new LinkedHashSet<>();
        Matcher m = REASON.matcher(text);
        while (m.find()) {
            found.add(m.group(1));
        }
        return found;
    }

    private static Set<String> names(List<Reason> reasons) {
        Set<String> names = new LinkedHashSet<>();
        reasons.forEach(r -> names.add(r.name()));
        return names;
    }

    /** Where the table that starts at {@code start} ends: the next blank line, or the end of the file. */
    private static int endOfTable(String text, int start) {
        int end = text.indexOf("\n\n", start);
        return end < 0 ? text.length() : end;
    }

    private static String doc(String path) throws IOException {
        return Files.readString(Path.of("..").resolve(path));
    }

    private static List<String> concat(String first, List<String> rest) {
        List<String> all = new ArrayList<>();
        all.add(first);
        all.addAll(rest);
        return all;
    }
}
