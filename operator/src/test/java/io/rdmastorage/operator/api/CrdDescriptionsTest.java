package io.rdmastorage.operator.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.fabric8.kubernetes.client.CustomResource;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every schema node of the committed CRDs has a description, so {@code kubectl explain} explains
 * every field: the root, each property, list items and map values. The descriptions come from the
 * model's {@code @JsonPropertyDescription} and {@code @JsonClassDescription} (see SchemaDescriptions).
 */
class CrdDescriptionsTest {

    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    static List<Class<? extends CustomResource<?, ?>>> resources() {
        return GeneratedCrds.RESOURCES;
    }

    @ParameterizedTest
    @MethodSource("resources")
    void everySchemaNodeHasADescription(Class<? extends CustomResource<?, ?>> resource) throws IOException {
        JsonNode crd = YAML.readTree(CrdDriftTest.committedCrds().resolve(GeneratedCrds.fileName(resource)).toFile());
        List<String> missing = new ArrayList<>();
        int[] nodes = {0};
        for (JsonNode version : crd.path("spec").path("versions")) {
            walk(version.path("schema").path("openAPIV3Schema"), "", missing, nodes);
        }
        assertThat(nodes[0]).as("schema nodes of %s", GeneratedCrds.fileName(resource)).isGreaterThan(10);
        assertThat(missing)
                .as("schema nodes of %s without a description: add @JsonPropertyDescription to the field (or "
                        + "@JsonClassDescription to its type) and refresh with %s", GeneratedCrds.fileName(resource),
                        CrdDriftTest.REFRESH)
                .isEmpty();
    }

    /** Records the path of every node under {@code schema} without a description. */
    static void walk(JsonNode schema, String path, List<String> missing, int[] nodes) {
        nodes[0]++;
        if (schema.path("description").asText("").isBlank()) {
            missing.add(path.isEmpty() ? "<root>" : path);
        }
        schema.path("properties").fields().forEachRemaining(e ->
                walk(e.getValue(), path.isEmpty() ? e.getKey() : path + "." + e.getKey(), missing, nodes));
        if (schema.path("items").isObject()) {
            walk(schema.path("items"), path + "[]", missing, nodes);
        }
        if (schema.path("additionalProperties").isObject()) {
            walk(schema.path("additionalProperties"), path + "{}", missing, nodes);
        }
    }
}
