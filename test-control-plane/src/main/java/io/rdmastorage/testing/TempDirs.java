package io.rdmastorage.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Removes the temporary directories tests and the demo create, so that runs leave nothing behind. */
public final class TempDirs {

    private static final Logger LOG = LoggerFactory.getLogger(TempDirs.class);

    private TempDirs() {
    }

    /** Deletes {@code dir} and everything under it; a directory that is gone already is fine, a failure only logged. */
    public static void delete(Path dir) {
        if (dir == null || !Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException | UncheckedIOException e) {
            LOG.warn("could not delete {}: {}", dir, e.toString());
        }
    }
}
