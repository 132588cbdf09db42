package io.rdmastorage.probe.rails;

import io.rdmastorage.contract.spec.DevicePort;
import java.util.Optional;

/**
 * One RDMA rail a storage client's own configuration names: a GPFS verbsPort, an LNet o2ib NI, an
 * NVMe-oF path, an NFS-over-RDMA mount's client address.
 *
 * @param client     the client, as one judgement groups its rails ({@code GPFS}, {@code LNet o2ib},
 *                   {@code NVMe-oF nqn.… (iopolicy numa)}, {@code NFS 192.0.2.10})
 * @param configured what its configuration says of the rail ({@code verbsPorts mlx5_1/1},
 *                   {@code NI 10.0.0.2@o2ib on ib1}, {@code nvme2 to 192.0.2.10:4420 from 192.0.2.2})
 * @param port       the RDMA port under it; empty when it cannot be told (no local address on the path, a
 *                   netdev without an RDMA device)
 */
public record StorageRail(String client, String configured, Optional<DevicePort> port) {
}
