package io.rdmastorage.contract.json;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * JSON as plain Java values ({@code Map}, {@code List}, {@code String}, {@code Long}/{@code Double},
 * {@code Boolean}, {@code null}) on Jackson's streaming layer.
 *
 * <p>Why not jackson-databind: the probe starts a JVM for every run, and building databind's first
 * ObjectMapper costs about 0.2 s of class loading on a 2-core node, more than all checks together.
 * The probe's JSON is small and its shapes are fixed, so the streaming layer is all it needs.
 */
public final class Json {

    private static final JsonFactory STRICT = JsonFactory.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .build();
    /** Hand-edited configuration files (cufile.json) carry comments and trailing commas. */
    private static final JsonFactory LENIENT = JsonFactory.builder()
            .enable(JsonReadFeature.ALLOW_JAVA_COMMENTS, JsonReadFeature.ALLOW_TRAILING_COMMA)
            .build();

    private Json() {
    }

    /** Strict JSON: one value, no comments, no duplicate keys, nothing after it. */
    public static Object parse(String text) throws JsonSyntaxException {
        return parse(STRICT, text);
    }

    /** JSON with {@code //} and {@code /* *}{@code /} comments and trailing commas allowed. */
    public static Object parseLenient(String text) throws JsonSyntaxException {
        return parse(LENIENT, text);
    }

    private static Object parse(JsonFactory factory, String text) throws JsonSyntaxException {
        try (JsonParser parser = factory.createParser(text)) {
            if (parser.nextToken() == null) {
                throw new JsonSyntaxException("no JSON value", 1, 1);
            }
            Object value = read(parser);
            if (parser.nextToken() != null) {
                throw new JsonSyntaxException("unexpected content after the JSON value",
                        parser.currentLocation().getLineNr(), parser.currentLocation().getColumnNr());
            }
            return value;
        } catch (JsonProcessingException e) {
            String message = e.getOriginalMessage().split("[\\n(]")[0].strip();
            throw new JsonSyntaxException(message, e.getLocation().getLineNr(), e.getLocation().getColumnNr());
        } catch (IOException e) {
            throw new UncheckedIOException(e);   // reading a String does no I/O
        }
    }

    private static Object read(JsonParser parser) throws IOException, JsonSyntaxException {
        JsonToken token = parser.currentToken();
        switch (token) {
            case START_OBJECT: {
                Map<String, Object> map = new LinkedHashMap<>();
                while (parser.nextToken() == JsonToken.FIELD_NAME) {
                    String name = parser.currentName();
                    parser.nextToken();
                    map.put(name, read(parser));
                }
                return map;
            }
            case START_ARRAY: {
                List<Object> list = new ArrayList<>();
                while (parser.nextToken() != JsonToken.END_ARRAY) {
                    list.add(read(parser));
                }
                return list;
            }
            case VALUE_STRING:
                return parser.getText();
            case VALUE_NUMBER_INT:
                return parser.getNumberType() == JsonParser.NumberType.BIG_INTEGER ? (Object) parser.getDoubleValue() : (Object) parser.getLongValue();
            case VALUE_NUMBER_FLOAT:
                return parser.getDoubleValue();
            case VALUE_TRUE:
                return Boolean.TRUE;
            case VALUE_FALSE:
                return Boolean.FALSE;
            case VALUE_NULL:
                return null;
            default:
                throw new JsonSyntaxException("unexpected " + token, parser.currentLocation().getLineNr(),
                        parser.currentLocation().getColumnNr());
        }
    }

    /** Compact JSON of plain values; records and other objects are written with toString(). */
    public static String write(Object value) {
        StringWriter out = new StringWriter();
        try (JsonGenerator generator = STRICT.createGenerator(out)) {
            write(generator, value);
        } catch (IOException e) {
            throw new UncheckedIOException(e);   // writing to a String does no I/O
        }
        return out.toString();
    }

    private static void write(JsonGenerator out, Object value) throws IOException {
        if (value == null) {
            out.writeNull();
        } else if (value instanceof Map<?, ?> map) {
            out.writeStartObject();
            for (Map.Entry<?, ?> e : map.entrySet()) {
                out.writeFieldName(String.valueOf(e.getKey()));
                write(out, e.getValue());
            }
            out.writeEndObject();
        } else if (value instanceof Iterable<?> list) {
            out.writeStartArray();
            for (Object item : list) {
                write(out, item);
            }
            out.writeEndArray();
        } else if (value instanceof Boolean b) {
            out.writeBoolean(b);
        } else if (value instanceof Integer || value instanceof Long || value instanceof Short) {
            out.writeNumber(((Number) value).longValue());
        } else if (value instanceof Number n) {
            double d = n.doubleValue();
            if (Double.isFinite(d)) {
                out.writeNumber(d);
            } else {
                out.writeNull();   // JSON has no NaN or infinity
            }
        } else {
            out.writeString(value.toString());
        }
    }

    /** A syntax error with its place, as "... at line 1, column 10". */
    public static final class JsonSyntaxException extends Exception {
        public JsonSyntaxException(String message, int line, int column) {
            super(message + " at line " + line + ", column " + column);
        }
    }
}
