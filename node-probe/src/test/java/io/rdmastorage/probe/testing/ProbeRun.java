package io.rdmastorage.probe.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rdmastorage.probe.cli.NodeProbe;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/** One run of the real CLI entry point, in-process, with its exit code, output and parsed report. */
public record ProbeRun(int exitCode, String stdout, String stderr) {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** Runs {@code node-probe --host-root <root> --exec-mode direct --node test-node <args>}. */
    public static ProbeRun on(FixtureHost host, String... args) {
        List<String> all = new ArrayList<>(List.of("--host-root", host.root().toString(), "--exec-mode", "direct",
                "--node", "test-node"));
        all.addAll(List.of(args));
        return run(all, "");
    }

    /** Same, with a spec given on stdin. */
    public static ProbeRun withSpec(FixtureHost host, String specJson, String... args) {
        List<String> all = new ArrayList<>(List.of("--host-root", host.root().toString(), "--exec-mode", "direct",
                "--node", "test-node", "--spec", "-"));
        all.addAll(List.of(args));
        return run(all, specJson);
    }

    public static ProbeRun run(List<String> args, String stdin) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = NodeProbe.run(args, new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)),
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        return new ProbeRun(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    public JsonNode report() {
        if (stdout.isBlank()) {
            // a run in a guest is killed by the guest's agent at its time limit (timeout(1): 124)
            throw new AssertionError("no report: node-probe printed nothing (exit " + exitCode
                    + (exitCode == 124 ? ", killed at its time limit" : "") + ")\nstderr: " + stderr);
        }
        try {
            return JSON.readTree(stdout);
        } catch (IOException e) {
            throw new UncheckedIOException("stdout is not a JSON report: " + stdout + "\nstderr: " + stderr, e);
        }
    }

    /** The check entry of the given condition type; fails when the report has none. */
    public JsonNode check(String type) {
        for (JsonNode c : report().path("checks")) {
            if (type.equals(c.path("type").asText())) {
                return c;
            }
        }
        throw new AssertionError("report has no " + type + " check: " + stdout + "\nstderr: " + stderr);
    }

    public boolean hasCheck(String type) {
        for (JsonNode c : report().path("checks")) {
            if (type.equals(c.path("type").asText())) {
                return true;
            }
        }
        return false;
    }
}
