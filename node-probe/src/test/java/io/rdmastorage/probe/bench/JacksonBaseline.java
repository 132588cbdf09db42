package io.rdmastorage.probe.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.Map;

/** The floor for node-probe's start-up: a JVM that loads Jackson and prints one small JSON document. */
public final class JacksonBaseline {
    public static void main(String[] args) throws Exception {
        System.out.println(new ObjectMapper().writeValueAsString(Map.of("node", "gpu-01", "status", "True")));
    }
}
