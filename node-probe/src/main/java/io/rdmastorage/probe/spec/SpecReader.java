package io.rdmastorage.probe.spec;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;

/** Reads a spec document strictly: unknown fields and wrong types are errors that name the field. */
public final class SpecReader {

    private static final ObjectMapper MAPPER = new ObjectMapper()
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
            .disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

    private SpecReader() {
    }

    public static ProbeSpec read(String json) throws InvalidSpecException {
        if (json.isBlank()) {
            throw new InvalidSpecException("spec", "is empty; give a JSON object such as {\"gpfs\":{}}");
        }
        JsonNode tree;
        try {
            tree = MAPPER.readTree(json);
        } catch (JsonProcessingException e) {
            throw new InvalidSpecException("spec", "is not valid JSON: " + e.getOriginalMessage().split("[\\n(]")[0].strip()
                    + " at line " + e.getLocation().getLineNr() + ", column " + e.getLocation().getColumnNr());
        }
        if (tree == null || !tree.isObject()) {
            throw new InvalidSpecException("spec", "must be a JSON object such as {\"gpfs\":{}}");
        }
        ProbeSpec spec;
        try {
            spec = MAPPER.treeToValue(tree, ProbeSpec.class);
        } catch (UnrecognizedPropertyException e) {
            throw new InvalidSpecException(path(e), "unknown field; allowed: " + e.getKnownPropertyIds());
        } catch (JsonMappingException e) {
            throw new InvalidSpecException(path(e), "has the wrong type: " + e.getOriginalMessage().split("\n")[0]);
        } catch (JsonProcessingException e) {
            throw new InvalidSpecException("spec", "cannot be read: " + e.getOriginalMessage().split("\n")[0]);
        }
        return SpecValidator.validate(spec);
    }

    /** Jackson's reference chain as "gpfs.verbsPorts[1]". */
    private static String path(JsonMappingException e) {
        StringBuilder s = new StringBuilder();
        for (JsonMappingException.Reference ref : e.getPath()) {
            if (ref.getFieldName() != null) {
                s.append(s.length() == 0 ? "" : ".").append(ref.getFieldName());
            } else if (ref.getIndex() >= 0) {
                s.append('[').append(ref.getIndex()).append(']');
            }
        }
        return s.length() == 0 ? "spec" : s.toString();
    }
}
