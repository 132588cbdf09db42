#!/usr/bin/env bash
# After a red run: what failed, short, as the last lines of the output. A CI log is often read from
# its tail only, and Maven's own summary names the module, not the test nor the reason.
#   scripts/test-failures.sh        # from the repository root, after `mvn verify`
# For each failed test (surefire and failsafe reports): the test, the first lines of its
# exception and the first line of each of its causes; then the end of each VM node build log a
# failed VM test may have left.
set -uo pipefail
cd "$(dirname "$0")/.."
shopt -s nullglob
echo "==> failed tests (full reports under each module's target/surefire-reports and target/failsafe-reports)"
found=0
for report in */target/surefire-reports/*.txt */target/failsafe-reports/*.txt; do
  grep -q -e '<<< FAILURE!' -e '<<< ERROR!' "$report" || continue
  found=1
  # the test's line, its exception's first 3 lines (a message can span several), and the first
  # line of each cause (a shared VM boot's failure is the cause of every test that needed it)
  awk '/<<< (FAILURE|ERROR)!/ && !/^Tests run:/ { print "  " $0; left = 3; causes = 3; next }
       left > 0 && !/^\tat / { print "      " substr($0, 1, 400); left-- ; next }
       left > 0 { left = 0 }
       /^Caused by: / && causes > 0 { print "      " substr($0, 1, 400); causes-- }' "$report"
done
[ "$found" = 1 ] || echo "  none in the reports (a build step failed: see the Maven output above)"
for log in node-probe-vm/target/vm-node-*.log; do
  echo "==> the end of $log (a VM node built beside the tests)"
  tail -n 8 "$log" | cut -c1-300
done
