package io.rdmastorage.probe.acceptance;

import io.rdmastorage.contract.acceptance.VerbsWorkload;
import io.rdmastorage.contract.spec.VerbsAcceptanceSpec;
import io.rdmastorage.probe.host.ToolResult;
import io.rdmastorage.probe.host.ToolRunner;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The server side of an acceptance run's verbs target, on the peer node: the four
 * {@link VerbsWorkload} servers at once, each on its own port and each waiting for its one client
 * for at most the runner's timeout, so the client may come to them in its own order and time.
 * Waiting costs no CPU (perftest and fio block in accept); what the client measures on its host is
 * the client side's cost.
 */
public final class VerbsAcceptanceServer {

    private final ToolRunner ownTools;
    private final VerbsAcceptanceSpec.Verbs verbs;
    private final int basePort;

    /** @param ownTools runs perftest and fio from the probe image; its timeout is how long each server waits and runs */
    public VerbsAcceptanceServer(ToolRunner ownTools, VerbsAcceptanceSpec spec, int basePort) {
        this.ownTools = ownTools;
        this.verbs = spec.verbs();
        this.basePort = basePort;
    }

    /** Per run (its workload's name), empty when it served its client, else what went wrong. */
    public Map<VerbsWorkload, String> serve() {
        ExecutorService pool = Executors.newFixedThreadPool(VerbsWorkload.PORTS);
        try {
            List<CompletableFuture<ToolResult>> runs = new ArrayList<>();
            for (VerbsWorkload w : VerbsWorkload.values()) {
                runs.add(CompletableFuture.supplyAsync(() -> ownTools.run(w.tool(), w.serverArguments(verbs, basePort)), pool));
            }
            Map<VerbsWorkload, String> served = new LinkedHashMap<>();
            for (VerbsWorkload w : VerbsWorkload.values()) {
                ToolResult r = runs.get(w.ordinal()).join();
                served.put(w, r.succeeded() ? "" : r.problem());
            }
            return served;
        } finally {
            pool.shutdownNow();
        }
    }
}
