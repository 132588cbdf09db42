package io.rdmastorage.operator.tools;

/**
 * The test classes that need a binary the Maven build starts building in the background on the cold
 * path (the newest Kubernetes control plane, argocd-health, bundle-validate: each cached under the
 * user's home once built) carry {@link #TAG}. Maven runs them after the other unit tests, so the
 * builds have those tests' minutes to finish instead of holding them up; a test that comes to a
 * build still under way waits for its lock.
 */
public final class BackgroundBuilds {

    public static final String TAG = "background-builds";

    private BackgroundBuilds() {
    }
}
