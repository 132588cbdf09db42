package io.rdmastorage.testing;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The project's images (node-probe, operator) as OCI archives, built from the modules' jars by
 * {@code scripts/build-image.sh} without a container engine, for a {@link RealNode} to import.
 */
public final class ProjectImages {

    private static final Logger LOG = LoggerFactory.getLogger(ProjectImages.class);

    private ProjectImages() {
    }

    /**
     * Builds {@code module}'s image tagged {@code tag} into {@code <module>/target/} (about 20 s with its
     * package layer cached, a Debian bootstrap the first time) and returns the archive. The module's
     * jar must be built.
     */
    public static Path build(String module, String tag) {
        Path repository = NodeRuntime.repository();
        Path output = repository.resolve(module).resolve("target").resolve(module + "-image-" + tag + ".oci.tar");
        long started = System.nanoTime();
        Commands.run(Duration.ofMinutes(10), List.of("bash", repository.resolve("scripts/build-image.sh").toString(), module, tag,
                output.toString())).orThrow("scripts/build-image.sh " + module);
        if (!Files.isRegularFile(output)) {
            throw new IllegalStateException("scripts/build-image.sh wrote no " + output);
        }
        LOG.info("image {}:{} built in {} ms", module, tag, (System.nanoTime() - started) / 1_000_000);
        return output;
    }
}
