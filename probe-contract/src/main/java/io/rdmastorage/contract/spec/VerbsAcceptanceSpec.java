package io.rdmastorage.contract.spec;

/**
 * What the verbs target of an acceptance run measures between two nodes: one RDMA device and port,
 * used by both sides (perftest's {@code -d}/{@code -i}), how many ping-pongs the latency workload
 * makes and how long the bandwidth workload runs. The operator writes this document from the
 * RdmaStorageAcceptance's {@code verbs} section (the peer node stays with the operator: node-probe
 * gets the peer's address as {@code --peer}); node-probe's {@code acceptance-server} and
 * {@code acceptance-client} read it. Defaults are applied here; {@link #validate()} holds every
 * rule, and the CRD schema states the same bounds.
 */
public record VerbsAcceptanceSpec(Verbs verbs) {

    public VerbsAcceptanceSpec validate() throws InvalidSpecException {
        if (verbs == null) {
            throw new InvalidSpecException("verbs", "is required: the RDMA device and port to measure");
        }
        verbs.validate();
        return this;
    }

    /**
     * @param iterations      ping-pongs of the latency workload, on each transport (default 100000)
     * @param durationSeconds seconds the bandwidth workload streams, on each transport (default 30)
     */
    public record Verbs(String device, Integer port, Integer iterations, Integer durationSeconds) {
        public static final int DEFAULT_ITERATIONS = 100_000;
        public static final int MIN_ITERATIONS = 1_000;
        public static final int MAX_ITERATIONS = 10_000_000;

        public Verbs {
            port = port == null ? 1 : port;
            iterations = iterations == null ? DEFAULT_ITERATIONS : iterations;
            durationSeconds = durationSeconds == null ? AcceptanceSpec.DEFAULT_DURATION_SECONDS : durationSeconds;
        }

        void validate() throws InvalidSpecException {
            SpecValidator.required("verbs.device", device);
            if (!Rules.DEVICE.matcher(device).matches()) {
                throw new InvalidSpecException("verbs.device", Rules.show(device) + " must be an RDMA device name such as mlx5_0");
            }
            SpecValidator.portInRange("verbs.port", port);
            SpecValidator.range("verbs.iterations", iterations, MIN_ITERATIONS, MAX_ITERATIONS);
            SpecValidator.range("verbs.durationSeconds", durationSeconds, AcceptanceSpec.MIN_DURATION_SECONDS,
                    AcceptanceSpec.MAX_DURATION_SECONDS);
        }
    }
}
