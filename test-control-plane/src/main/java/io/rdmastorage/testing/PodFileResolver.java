package io.rdmastorage.testing;

import java.util.Optional;

/**
 * Turns a path as the container sees it (e.g. {@code /etc/rdmastorage/spec.json} from a mounted
 * ConfigMap) into a local file, since a simulated container has no mount namespace. Pluggable
 * because the operator decides how a probe pod gets its spec.
 */
@FunctionalInterface
public interface PodFileResolver {

    /** The local file for {@code containerPath}, or empty when this resolver cannot provide it. */
    Optional<java.nio.file.Path> resolve(ContainerContext context, String containerPath);
}
