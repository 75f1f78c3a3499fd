#!/bin/sh
# The container's start: install the image's build into the volume's OUT_DIR (a no-op when
# it is current already), then serve. Node directly, not npm: the image has no dev packages.
set -eu
for build in /app/image-build/builds/*; do
  node scripts/install-build.ts "$build"
done
exec node scripts/serve.ts
