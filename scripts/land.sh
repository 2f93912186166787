#!/usr/bin/env bash
# Development helper: land the current worktree branch on main.
# Run from a git worktree whose branch holds committed work. Under a lock:
# rebase onto main, build (make -j2 lib cli tests examples), fast-forward main,
# and update the checkout of main in /work/main. Never used by CI.
set -euo pipefail
branch=$(git rev-parse --abbrev-ref HEAD)
[ "$branch" != main ] || { echo "land: run from a worktree branch, not main" >&2; exit 1; }
[ -z "$(git status --porcelain --untracked-files=no)" ] || { echo "land: commit first" >&2; exit 1; }
mainwt=${BG_MAIN_WT:-/work/main}
exec 9>/work/.land.lock
flock 9
git rebase main || { echo "land: rebase conflict - resolve (git status), git rebase --continue, re-run" >&2; exit 1; }
make -j2 lib cli tests examples >/tmp/land-$branch.log 2>&1 || { tail -30 /tmp/land-$branch.log; echo "land: build failed after rebase; fix and re-run" >&2; exit 1; }
cd "$mainwt"
git merge --ff-only "$branch"
echo "land: main is now $(git rev-parse --short HEAD)"
