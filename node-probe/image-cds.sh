#!/bin/sh
# Runs inside the probe image at build time (node-probe/Dockerfile, scripts/build-image.sh):
# a class-data-sharing archive of the classes a probe run loads. The probe runs once per node per
# interval, and most of its wall time is JVM start (docs/benchmarks.md). The training run checks the
# build environment itself, so every check takes its "nothing here" path; its verdict is ignored.
set -eu
printf '%s' '{"rdma":{"devices":["mlx5_0/1"],"userspaceVerbs":true},"gpfs":{},"nvmeof":{"targets":[{"nqn":"nqn.2014-08.org.example:cds","address":"127.0.0.1"}]},"gds":{},"ceph":{}}' > /tmp/cds-spec.json
java -XX:ArchiveClassesAtExit=/opt/node-probe/node-probe.jsa -XX:TieredStopAtLevel=1 -XX:+UseSerialGC \
  -jar /opt/node-probe/node-probe.jar --host-root / --exec-mode direct --spec /tmp/cds-spec.json >/dev/null || true
rm /tmp/cds-spec.json
test -s /opt/node-probe/node-probe.jsa
