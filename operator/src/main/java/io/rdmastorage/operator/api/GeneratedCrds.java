package io.rdmastorage.operator.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import io.fabric8.crd.generator.annotation.AdditionalPrinterColumn;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceColumnDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceColumnDefinitionBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionVersion;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.rdmastorage.contract.CheckType;
import io.rdmastorage.contract.PrinterColumn;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * The build step after fabric8's crd-generator (phase process-classes, see operator/pom.xml):
 * crd-generator 7.5.2 sorts printer columns by JSON path, so NODE would follow AGE; this puts them
 * back in the order the {@link AdditionalPrinterColumn} annotations are written on the model class,
 * which is the order {@code kubectl get} shows, and adds the checks' own columns to
 * RdmaStorageNode from their descriptors in probe-contract (after READY, in check order), and
 * gives the schema nodes crd-generator leaves without a description theirs ({@link SchemaDescriptions}). Build
 * tooling, not used by the running operator.
 */
public final class GeneratedCrds {

    /** The custom resources of this operator, each generated to {@code <plural>.<group>-v1.yml}. */
    public static final List<Class<? extends CustomResource<?, ?>>> RESOURCES =
            List.of(RdmaStorageProfile.class, RdmaStorageNode.class, RdmaStorageAcceptance.class);

    static final String HEADER = """
            # Generated from the Java model in operator/src/main/java/io/rdmastorage/operator/api/ and the check
            # descriptors in probe-contract/ by fabric8's crd-generator; do not edit.
            # Refresh crds/ with: mvn -pl operator -am process-classes -Dcrds.update
            """;

    private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();
    /** crd-generator's YAML style (quoted strings), without folding long CEL rules over several lines. */
    private static final ObjectMapper YAML = new ObjectMapper(YAMLFactory.builder()
            .disable(YAMLGenerator.Feature.SPLIT_LINES)
            .disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER)
            .build());

    private GeneratedCrds() {
    }

    /** The file name of a resource's CRD, as crd-generator writes it and crds/ keeps it. */
    public static String fileName(Class<? extends CustomResource<?, ?>> resource) {
        return CustomResource.getCRDName(resource) + "-v1.yml";
    }

    /** The printer columns of every version of {@code crd}, in the order of {@code resource}'s annotations. */
    public static CustomResourceDefinition orderPrinterColumns(CustomResourceDefinition crd, Class<?> resource) {
        List<String> order = Arrays.stream(resource.getAnnotationsByType(AdditionalPrinterColumn.class))
                .map(AdditionalPrinterColumn::name)
                .toList();
        for (CustomResourceDefinitionVersion version : crd.getSpec().getVersions()) {
            List<CustomResourceColumnDefinition> columns = version.getAdditionalPrinterColumns();
            if (columns == null) {
                continue;
            }
            List<CustomResourceColumnDefinition> sorted = new ArrayList<>(columns);
            // columns not declared on the class (none today) keep their place after the declared ones
            sorted.sort(Comparator.comparingInt(c -> order.contains(c.getName()) ? order.indexOf(c.getName()) : order.size()));
            version.setAdditionalPrinterColumns(sorted);
        }
        return crd;
    }

    /** The column after which {@link #withCheckColumns} puts the checks' columns. */
    static final String CHECK_COLUMNS_AFTER = "READY";

    /**
     * {@code crd} (RdmaStorageNode's) with a printer column per check whose descriptor has one,
     * after {@link #CHECK_COLUMNS_AFTER}, in check order.
     */
    public static CustomResourceDefinition withCheckColumns(CustomResourceDefinition crd) {
        for (CustomResourceDefinitionVersion version : crd.getSpec().getVersions()) {
            List<CustomResourceColumnDefinition> columns = new ArrayList<>(version.getAdditionalPrinterColumns());
            int at = columns.stream().map(CustomResourceColumnDefinition::getName).toList().indexOf(CHECK_COLUMNS_AFTER);
            if (at < 0) {
                throw new IllegalStateException("no " + CHECK_COLUMNS_AFTER + " column to put the checks' columns after");
            }
            for (CheckType type : CheckType.values()) {
                Optional<PrinterColumn> column = type.descriptor().column();
                if (column.isPresent()) {
                    columns.add(++at, new CustomResourceColumnDefinitionBuilder().withName(column.get().name())
                            .withJsonPath(column.get().jsonPath()).withType(column.get().type()).withPriority(0).build());
                }
            }
            version.setAdditionalPrinterColumns(columns);
        }
        return crd;
    }

    /** Rewrites each generated CRD in {@code directory} with its columns in declaration order. */
    public static void postProcess(Path directory) {
        for (Class<? extends CustomResource<?, ?>> resource : RESOURCES) {
            Path file = directory.resolve(fileName(resource));
            try {
                CustomResourceDefinition crd = orderPrinterColumns(
                        SERIALIZATION.unmarshal(Files.readString(file), CustomResourceDefinition.class), resource);
                SchemaDescriptions.describe(crd, resource);
                if (resource == RdmaStorageNode.class) {
                    withCheckColumns(crd);
                }
                JsonNode tree = YAML.readTree(SERIALIZATION.asJson(crd));
                Files.writeString(file, HEADER + YAML.writeValueAsString(tree), StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot post-process " + file, e);
            }
        }
    }

    /** {@code GeneratedCrds <directory of crd-generator's output>}, run by exec-maven-plugin. */
    public static void main(String[] args) {
        if (args.length != 1) {
            throw new IllegalArgumentException("usage: GeneratedCrds <directory of generated CRDs>");
        }
        postProcess(Path.of(args[0]));
    }
}
