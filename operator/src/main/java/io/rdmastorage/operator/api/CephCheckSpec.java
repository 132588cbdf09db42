package io.rdmastorage.operator.api;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * Present = flag an experimental RDMA messenger in /etc/ceph/ceph.conf; it has no settings.
 * The annotation tells Jackson that an object without properties is meant: it writes {@code {}}.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class CephCheckSpec {
}
