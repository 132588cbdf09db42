package io.rdmastorage.probe.cli;

/** Bad command line or spec: exit code 2 with one line that names what is wrong. */
public final class UsageException extends Exception {
    public UsageException(String message) {
        super(message);
    }
}
