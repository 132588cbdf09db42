package io.rdmastorage.operator.api;

import io.rdmastorage.testing.Kubectl;
import io.rdmastorage.testing.LocalControlPlane;
import java.time.Duration;

/** The committed CRDs (crds/) installed, once per JVM, into the shared real API server of the tests. */
final class ApiServerCrds {

    static final String PROFILES_CRD = "rdmastorageprofiles.rdmastorage.io";
    static final String NODES_CRD = "rdmastoragenodes.rdmastorage.io";

    private static boolean installed;

    private ApiServerCrds() {
    }

    static synchronized LocalControlPlane installed() {
        LocalControlPlane plane = LocalControlPlane.shared();
        if (!installed) {
            Kubectl kubectl = plane.kubectl();
            kubectl.apply(CrdDriftTest.committedCrds()).orThrow("kubectl apply -f crds/");
            kubectl.awaitEstablished(Duration.ofSeconds(60), "crd/" + PROFILES_CRD, "crd/" + NODES_CRD);
            installed = true;
        }
        return plane;
    }
}
