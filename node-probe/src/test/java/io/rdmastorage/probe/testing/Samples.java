package io.rdmastorage.probe.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * Recorded real outputs of host tools (test resources under {@code samples/}, copied from the
 * project's fixture collection; see {@code samples/SOURCES.md}). Each file starts with a header of
 * {@code # } lines naming its source, then one blank line, then the output exactly as printed.
 */
public final class Samples {

    private Samples() {
    }

    /** The recorded output of a sample, header removed: what the tool printed, byte for byte. */
    public static String body(String name) {
        String text = raw(name);
        int i = 0;
        while (text.startsWith("# ", i)) {
            int nl = text.indexOf('\n', i);
            i = nl < 0 ? text.length() : nl + 1;
        }
        if (text.startsWith("\n", i)) {
            i++;
        }
        return text.substring(i);
    }

    public static String raw(String name) {
        try (InputStream in = Samples.class.getResourceAsStream("/samples/" + name)) {
            if (in == null) {
                throw new IllegalArgumentException("no such sample: " + name);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
