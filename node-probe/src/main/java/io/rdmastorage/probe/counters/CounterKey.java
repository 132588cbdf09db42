package io.rdmastorage.probe.counters;

/**
 * Which counter: its source, the thing it counts for ({@code rxe0/1}, {@code eth2},
 * {@code 192.0.2.2:48712 -> 192.0.2.1:4420}, a GPFS peer), and its name ({@code port_xmit_data}).
 */
public record CounterKey(Source source, String subject, String name) {

    /** Where a counter comes from, and whether a subject that appears during the window started at zero. */
    public enum Source {
        /** {@code /sys/class/infiniband/<dev>/ports/<p>/counters|hw_counters}: the port outlives the window. */
        RDMA_PORT(false),
        /** {@code ethtool -S <if>}. */
        NETDEV(false),
        /** One TCP socket of {@code ss -tin}: a socket opened during the window carried its bytes within it. */
        TCP_SOCKET(true),
        /** One GPFS daemon connection of {@code mmdiag --network}: likewise counted from its opening. */
        GPFS_PEER(true);

        private final boolean bornAtZero;

        Source(boolean bornAtZero) {
            this.bornAtZero = bornAtZero;
        }

        /** A subject missing from the first sample was opened during the window, with its counters at zero. */
        public boolean bornAtZero() {
            return bornAtZero;
        }
    }

    @Override
    public String toString() {
        return subject + " " + name;
    }
}
