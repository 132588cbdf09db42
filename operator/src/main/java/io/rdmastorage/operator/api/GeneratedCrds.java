package io.rdmastorage.operator.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import io.fabric8.crd.generator.annotation.AdditionalPrinterColumn;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceColumnDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionVersion;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * The build step after fabric8's crd-generator (phase process-classes, see operator/pom.xml):
 * crd-generator 7.5.2 sorts printer columns by JSON path, so NODE would follow AGE; this puts them
 * back in the order the {@link AdditionalPrinterColumn} annotations are written on the model class,
 * which is the order {@code kubectl get} shows. Build tooling, not used by the running operator.
 */
public final class GeneratedCrds {

    /** The custom resources of this operator, each generated to {@code <plural>.<group>-v1.yml}. */
    public static final List<Class<? extends CustomResource<?, ?>>> RESOURCES =
            List.of(RdmaStorageProfile.class, RdmaStorageNode.class);

    static final String HEADER = """
            # Generated from the Java model in operator/src/main/java/io/rdmastorage/operator/api/ by
            # fabric8's crd-generator; do not edit. Refresh crds/ with: mvn -pl operator process-classes -Dcrds.update
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

    /** Rewrites each generated CRD in {@code directory} with its columns in declaration order. */
    public static void postProcess(Path directory) {
        for (Class<? extends CustomResource<?, ?>> resource : RESOURCES) {
            Path file = directory.resolve(fileName(resource));
            try {
                CustomResourceDefinition crd = SERIALIZATION.unmarshal(Files.readString(file), CustomResourceDefinition.class);
                JsonNode tree = YAML.readTree(SERIALIZATION.asJson(orderPrinterColumns(crd, resource)));
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
