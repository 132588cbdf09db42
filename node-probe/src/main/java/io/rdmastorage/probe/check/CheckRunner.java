package io.rdmastorage.probe.check;

import io.rdmastorage.contract.Reasons;
import io.rdmastorage.contract.Status;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Runs the applicable checks side by side (each mostly waits on host tools) and returns their
 * verdicts in registry order. A check that throws becomes Unknown; it never takes the others down.
 */
public final class CheckRunner {

    private final List<Check> checks;

    public CheckRunner(List<Check> checks) {
        this.checks = List.copyOf(checks);
    }

    public List<CheckResult> run(ProbeContext context) {
        List<Check> applicable = checks.stream().filter(c -> c.applies(context)).toList();
        if (applicable.isEmpty()) {
            return List.of();
        }
        ExecutorService pool = Executors.newFixedThreadPool(applicable.size(), r -> {
            Thread t = new Thread(r, "check");
            t.setDaemon(true);
            return t;
        });
        try {
            List<Future<CheckResult>> futures = new ArrayList<>();
            for (Check check : applicable) {
                futures.add(pool.submit(() -> check.run(context)));
            }
            List<CheckResult> results = new ArrayList<>();
            for (int i = 0; i < applicable.size(); i++) {
                results.add(await(applicable.get(i), futures.get(i)));
            }
            return results;
        } finally {
            pool.shutdownNow();
        }
    }

    private static CheckResult await(Check check, Future<CheckResult> future) {
        try {
            return future.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return crashed(check, e);
        } catch (ExecutionException e) {
            return crashed(check, e.getCause());
        }
    }

    private static CheckResult crashed(Check check, Throwable cause) {
        return CheckResult.builder(check.type())
                .condition(Status.UNKNOWN, Reasons.CHECK_CRASHED,
                        "the " + check.type() + " check failed inside node-probe (" + cause.getClass().getSimpleName()
                                + (cause.getMessage() == null ? "" : ": " + cause.getMessage())
                                + "); this is a node-probe bug, please report it with the probe's stderr")
                .build();
    }
}
