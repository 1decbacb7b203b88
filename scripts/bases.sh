#!/bin/bash
# bases.sh: every queue's base, the default (6.1, series/) first, then
# one per series-<base>/ folder. Adding a base is adding that folder.
set -euo pipefail
. "$(dirname "$0")/common.sh"
bases
