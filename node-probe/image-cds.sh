#!/bin/sh
# Runs inside the probe image at build time (node-probe/Dockerfile, scripts/build-image.sh):
# a class-data-sharing archive of the classes a probe run loads. The probe runs once per node per
# interval, and most of its wall time is JVM start (docs/benchmarks.md). The training run checks the
# build environment itself, so every check takes its "nothing here" path; its verdict is ignored.
set -eu
printf '%s' '{"rdma":{"devices":["mlx5_0/1"],"userspaceVerbs":true},"gpfs":{},"nvmeof":{"targets":[{"nqn":"nqn.2014-08.org.example:cds","address":"127.0.0.1"}]},"gds":{},"ceph":{}}' > /tmp/cds-spec.json
# Every probe reads the kernel log from /dev/kmsg through libc (jnr-ffi), which loads some 300
# classes: with the device there (made here if the build has none, whether or not it may be read),
# the training run loads them too and they come from the archive (0.61 -> 0.49 CPU-seconds per probe
# of all checks, measured on a host's root; docs/benchmarks.md)
made_kmsg=""
if [ ! -e /dev/kmsg ] && mknod -m 0600 /dev/kmsg c 1 11 2>/dev/null; then made_kmsg=1; fi
java -XX:ArchiveClassesAtExit=/opt/node-probe/node-probe.jsa -XX:TieredStopAtLevel=1 -XX:+UseSerialGC \
  -jar /opt/node-probe/node-probe.jar --host-root / --exec-mode direct --spec /tmp/cds-spec.json >/dev/null || true
[ -z "$made_kmsg" ] || rm -f /dev/kmsg
rm /tmp/cds-spec.json
test -s /opt/node-probe/node-probe.jsa
