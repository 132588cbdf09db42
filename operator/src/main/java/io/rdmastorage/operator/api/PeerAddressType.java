package io.rdmastorage.operator.api;

/**
 * Which entry of a Node's {@code status.addresses} a latency client connects to. Only IP address
 * types: node-probe's {@code --peer} takes an address, never a name to resolve.
 */
public enum PeerAddressType {
    InternalIP,
    ExternalIP
}
