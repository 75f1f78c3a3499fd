#!/bin/sh
# The single-machine deploy (reviews-deploy.service): pull, and build when the pull
# brought something or nothing is built yet. The build switches OUT_DIR/current; the
# running server follows and its hub notifies subscribers. Run from the checkout.
set -eu
before=$(git rev-parse HEAD)
git pull --ff-only --quiet
after=$(git rev-parse HEAD)
if [ "$after" = "$before" ] && [ -e "${OUT_DIR:-dist}/current" ]; then
  echo "Nothing new at $after; the served build stays."
  exit 0
fi
echo "Building $after (was $before)."
exec npm run build
