#!/bin/sh
# Prints the words of a Dockerfile instruction written as a JSON array (ENTRYPOINT, CMD), one per
# line, so the builds and tests that do not use a container engine start the image's own command:
#   scripts/dockerfile-array.sh ENTRYPOINT node-probe/Dockerfile
# Only plain "..." words (no escapes), which is how node-probe/Dockerfile writes them.
sed -n "/^$1 \[/,/]\$/p" "$2" | grep -o '"[^"]*"' | tr -d '"'
