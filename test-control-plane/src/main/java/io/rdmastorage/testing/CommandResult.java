package io.rdmastorage.testing;

/** Exit code and captured output of a finished command. */
public record CommandResult(int exitCode, String stdout, String stderr) {

    public boolean succeeded() {
        return exitCode == 0;
    }

    /** Throws with the command's stderr unless it exited 0; returns stdout. */
    public String orThrow(String what) {
        if (!succeeded()) {
            throw new IllegalStateException(what + " failed with exit code " + exitCode + ": " + stderr.strip());
        }
        return stdout;
    }
}
