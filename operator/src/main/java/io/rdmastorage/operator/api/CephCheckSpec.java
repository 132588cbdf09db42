package io.rdmastorage.operator.api;

/** Present = flag an experimental RDMA messenger in /etc/ceph/ceph.conf; it has no settings. */
public class CephCheckSpec {
}
