/**
 * Counters read twice, a window apart, and what moved in between: the proof of which transport
 * carried the storage bytes.
 *
 * <ul>
 * <li>{@link io.rdmastorage.probe.counters.CounterSnapshot}: one reading of many counters, each
 * under a {@link io.rdmastorage.probe.counters.CounterKey} (where and which), with what could not be
 * read;</li>
 * <li>{@link io.rdmastorage.probe.counters.CounterWindow}: two snapshots; its
 * {@link io.rdmastorage.probe.counters.CounterDelta}s are pure: a counter at its maximum (a saturated
 * legacy IB register) or going backwards (a reset, a driver reload) has no delta, never a computed
 * number;</li>
 * <li>{@link io.rdmastorage.probe.counters.StorageCounters}: reads one snapshot of a node's storage
 * counters through the host root (RDMA port counters, {@code ethtool -S}, {@code ss -tin} in the
 * host's network namespace, {@code mmdiag --network});</li>
 * <li>{@link io.rdmastorage.probe.counters.CounterSampler}: read, wait the window, read again;</li>
 * <li>{@link io.rdmastorage.probe.counters.TransportTraffic}: what each transport carried over a
 * window (RDMA packets and bytes per port, TCP bytes per storage peer, GPFS per node).</li>
 * </ul>
 * The RdmaTraffic check judges a window; the acceptance run can read one around its own I/O:
 * {@code StorageCounters.read()} before and after it, then {@code TransportTraffic.of(new
 * CounterWindow(before, after), ports)}.
 */
package io.rdmastorage.probe.counters;
