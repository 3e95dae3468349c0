/**
 * The bash of the generated jobs' `run:` steps. Constant text: every value (plan path, phase ids,
 * branch names) reaches it through `env:`, never through `${{ }}` in the script, so nothing a plan
 * or an input holds is ever read as shell (GitHub's script-injection guidance). The steps run as
 * `bash --noprofile --norc -eo pipefail` (the workflow's `defaults.run.shell: bash`).
 *
 * Where work lives: phase P's commits go on its branch `debussy/<run branch>/<plan>/<P>`, made
 * from the run branch with the work of P's dependencies merged in. A job that ran a phase hands its
 * new commits on as a git bundle (an artifact of the workflow run); only the push job, which runs
 * nothing the agent wrote, pushes them. A phase `debussy run --only` completed gets an empty
 * commit with a `Debussy-Completed: <phase> of <plan>` trailer: a later run of the workflow skips
 * the phase when its branch or the run branch holds that commit.
 */

/** Shell functions the steps share, each with the ones it calls: a step's script holds those it uses. */
const FUNCTIONS = {
  phase_branch: String.raw`phase_branch() { printf 'debussy/%s/%s/%s' "$DEBUSSY_CI_RUN_BRANCH" "$DEBUSSY_CI_PLAN_SLUG" "$1"; }`,
  remote_has: String.raw`remote_has() { git rev-parse --quiet --verify "refs/remotes/origin/$1" >/dev/null; }`,
  fail: String.raw`fail() { echo "::error title=debussy::$1"; exit 1; }`,
  holds_completion: String.raw`# Whether REF's history holds PHASE's completion commit (grep reads to the end: no SIGPIPE under pipefail).
holds_completion() { git log --format='%(trailers:key=Debussy-Completed,valueonly)' "$1" -- 2>/dev/null | grep -Fx -- "$2 of $DEBUSSY_CI_PLAN" >/dev/null; }`,
  phase_work: String.raw`# The ref holding PHASE's work: this run's bundle of it, else its branch from an earlier run; none: empty.
phase_work() {
  local branch bundle="$RUNNER_TEMP/debussy-bundles/phase-$1.bundle"
  branch="$(phase_branch "$1")"
  if [ -f "$bundle" ]; then
    git fetch --quiet --no-tags "$bundle" "+refs/heads/$branch:refs/debussy-ci/phase-$1" >&2 || return 1
    echo "refs/debussy-ci/phase-$1"
  elif remote_has "$branch"; then
    echo "refs/remotes/origin/$branch"
  fi
}`,
  merge_or_stop: String.raw`# Merges REF into HEAD. A conflict is never resolved here: it is named, the merge undone, the job failed.
merge_or_stop() {
  if git merge --no-ff --no-edit -m "debussy: merge $2 into $(git branch --show-current)" "$1"; then return 0; fi
  local files
  files="$(git diff --name-only --diff-filter=U | tr '\n' ' ')"
  if [ -z "$files" ]; then fail "merging $2 into $(git branch --show-current) failed (see the log above)"; fi
  git merge --abort
  fail "merging $2 into $(git branch --show-current) conflicts in: $files- nothing was merged and every phase branch is kept; merge them by hand, push, and run the workflow again"
}`,
} as const;

type ShellFunction = keyof typeof FUNCTIONS;

function script(functions: ShellFunction[], body: string): string {
  return `${['set -u', ...functions.map((name) => FUNCTIONS[name]), body].join('\n')}\n`;
}

const MERGING: ShellFunction[] = ['phase_branch', 'remote_has', 'fail', 'holds_completion', 'phase_work', 'merge_or_stop'];

/** Phase job: choose the phase branch, skip a phase already complete, merge in the dependencies' work. */
export const PREPARE_PHASE_SCRIPT = script(MERGING, String.raw`branch="$(phase_branch "$DEBUSSY_CI_PHASE")"
git check-ref-format --branch "$branch" >/dev/null || fail "$branch is not a valid branch name: choose another run_branch"
for ref in "$branch" "$DEBUSSY_CI_RUN_BRANCH"; do
  if holds_completion "refs/remotes/origin/$ref" "$DEBUSSY_CI_PHASE"; then
    echo "phase $DEBUSSY_CI_PHASE is already complete: $ref holds its completion commit; skipped"
    echo "complete=true" >> "$GITHUB_OUTPUT"
    exit 0
  fi
done
if remote_has "$branch"; then
  echo "continuing on $branch, which an earlier run of this workflow pushed"
  git checkout --quiet -B "$branch" "refs/remotes/origin/$branch"
  merge_or_stop "refs/remotes/origin/$DEBUSSY_CI_RUN_BRANCH" "the run branch $DEBUSSY_CI_RUN_BRANCH"
else
  git checkout --quiet -B "$branch" "refs/remotes/origin/$DEBUSSY_CI_RUN_BRANCH"
fi
for dependency in $DEBUSSY_CI_DEPENDS_ON; do
  work="$(phase_work "$dependency")" || fail "the bundle of phase $dependency from this run could not be read"
  if [ -n "$work" ]; then merge_or_stop "$work" "phase $dependency"; fi
  holds_completion HEAD "$dependency" || fail "the work of phase $dependency was not found (no bundle of it from this run, no completion commit on its branch or on $DEBUSSY_CI_RUN_BRANCH)"
done
echo "complete=false" >> "$GITHUB_OUTPUT"`);

/** Phase job: the phase itself, then its completion commit. */
export const RUN_PHASE_SCRIPT = script([], String.raw`debussy run "$DEBUSSY_CI_PLAN" --only "$DEBUSSY_CI_PHASE"
git commit --quiet --allow-empty --no-verify --file - <<EOF
debussy: phase $DEBUSSY_CI_PHASE complete (workflow run $GITHUB_RUN_ID)

debussy run --only $DEBUSSY_CI_PHASE ended with exit 0: the phase's gates passed.
A later run of this workflow skips the phase while this commit is on its branch or the run branch.

Debussy-Completed: $DEBUSSY_CI_PHASE of $DEBUSSY_CI_PLAN
EOF`);

/** Phase job, also after a failure: what debussy left uncommitted (a failed or blocked phase's work), committed as debussy would. */
export const KEEP_WORK_SCRIPT = 'debussy ci keep-work --phase "$DEBUSSY_CI_PHASE" --plan "$DEBUSSY_CI_PLAN"\n';

/** Phase job, also after a failure: the branch's new commits as a bundle for the artifact. */
export const BUNDLE_PHASE_SCRIPT = script(['phase_branch', 'remote_has'], String.raw`branch="$(phase_branch "$DEBUSSY_CI_PHASE")"
mkdir -p "$RUNNER_TEMP/debussy-bundle-out"
# Left out of the bundle: the commits the remote has already.
set -- "^refs/remotes/origin/$DEBUSSY_CI_RUN_BRANCH"
if remote_has "$branch"; then set -- "$@" "^refs/remotes/origin/$branch"; fi
if [ "$(git rev-list --count "refs/heads/$branch" "$@")" = 0 ]; then
  echo "no new commits on $branch: nothing to keep"
  exit 0
fi
git bundle create "$RUNNER_TEMP/debussy-bundle-out/phase-$DEBUSSY_CI_PHASE.bundle" "refs/heads/$branch" "$@"`);

/** Verify job: every phase's work merged into the run branch, in execution order. */
export const MERGE_PHASES_SCRIPT = script(MERGING, String.raw`git check-ref-format --branch "$DEBUSSY_CI_RUN_BRANCH" >/dev/null || fail "$DEBUSSY_CI_RUN_BRANCH is not a valid branch name"
git checkout --quiet -B "$DEBUSSY_CI_RUN_BRANCH" "refs/remotes/origin/$DEBUSSY_CI_RUN_BRANCH"
for phase in $DEBUSSY_CI_PHASE_JOBS; do
  work="$(phase_work "$phase")" || fail "the bundle of phase $phase from this run could not be read"
  if [ -n "$work" ]; then merge_or_stop "$work" "phase $phase"; fi
  holds_completion HEAD "$phase" || fail "phase $phase is not complete: neither this run nor an earlier one completed it"
done`);

/** Verify job: the gates of every phase, on the merged tree. */
export const VERIFY_PHASES_SCRIPT = script(['fail'], String.raw`failed=""
for phase in $DEBUSSY_CI_ALL_PHASES; do
  debussy done --verify --phase "$phase" --plan "$DEBUSSY_CI_PLAN" || failed="$failed $phase"
done
if [ -n "$failed" ]; then fail "the gates of phase(s)$failed fail on the merged work: $DEBUSSY_CI_RUN_BRANCH is not moved; every phase branch is kept"; fi`);

/** Verify job: the merged run branch's new commits as a bundle. */
export const BUNDLE_RUN_SCRIPT = script([], String.raw`mkdir -p "$RUNNER_TEMP/debussy-bundle-out"
if [ "$(git rev-list --count HEAD "^refs/remotes/origin/$DEBUSSY_CI_RUN_BRANCH")" = 0 ]; then
  echo "$DEBUSSY_CI_RUN_BRANCH holds every phase's work already"
  exit 0
fi
git bundle create "$RUNNER_TEMP/debussy-bundle-out/run.bundle" "refs/heads/$DEBUSSY_CI_RUN_BRANCH" "^refs/remotes/origin/$DEBUSSY_CI_RUN_BRANCH"`);

/**
 * Push job: each phase's bundle to its branch, then the merged run branch, never forced: a push
 * that is not a fast-forward fails and the work stays in the run's artifacts. The run branch only
 * moves to a commit that holds every phase branch pushed here.
 */
export const PUSH_SCRIPT = script(['phase_branch', 'fail'], String.raw`bundles="$RUNNER_TEMP/debussy-bundles"
problems=0
pushed=""
for phase in $DEBUSSY_CI_PHASE_JOBS; do
  branch="$(phase_branch "$phase")"
  if [ ! -f "$bundles/phase-$phase.bundle" ]; then echo "phase $phase: no new commits to push"; continue; fi
  if git fetch --quiet --no-tags "$bundles/phase-$phase.bundle" "+refs/heads/$branch:refs/debussy-ci/phase-$phase" && git push --quiet origin "refs/debussy-ci/phase-$phase:refs/heads/$branch"; then
    echo "phase $phase: its work is on $branch"
    pushed="$pushed $phase"
  else
    echo "::error title=debussy::phase $phase: its work was not pushed to $branch; it stays in this run's artifact debussy-bundle-phase-$phase"
    problems=1
  fi
done
if [ -f "$bundles/run.bundle" ]; then
  git fetch --quiet --no-tags "$bundles/run.bundle" "+refs/heads/$DEBUSSY_CI_RUN_BRANCH:refs/debussy-ci/run"
  for phase in $pushed; do
    git merge-base --is-ancestor "refs/debussy-ci/phase-$phase" refs/debussy-ci/run || fail "the merged $DEBUSSY_CI_RUN_BRANCH does not hold phase $phase's work: not pushed"
  done
  git push --quiet origin "refs/debussy-ci/run:refs/heads/$DEBUSSY_CI_RUN_BRANCH" || fail "$DEBUSSY_CI_RUN_BRANCH moved during the run: the merged work stays in this run's artifact debussy-bundle-run"
  echo "$DEBUSSY_CI_RUN_BRANCH now holds every phase's work"
fi
exit "$problems"`);

/** Every job: the identity of the commits it makes (merges, completion commits, debussy's own). */
export const GIT_IDENTITY_SCRIPT = `git config user.name "github-actions[bot]"
git config user.email "41898282+github-actions[bot]@users.noreply.github.com"
`;

/**
 * Installs debussy (and, where a phase runs, Claude Code) from npm specs. \`npm pack\` first: it
 * builds a git URL's package, and a global install from git is broken in npm (npm/cli#8440).
 * Packed in the runner's temp folder, so no tarball lands in the checkout.
 */
export function installScript(withClaudeCode: boolean): string {
  return [
    'set -u',
    'cd "$RUNNER_TEMP" || exit 1',
    ...(withClaudeCode ? ['npm install --global --no-audit --no-fund "@anthropic-ai/claude-code@$DEBUSSY_CI_CLAUDE_CODE_VERSION"'] : []),
    'npm install --global --no-audit --no-fund "$RUNNER_TEMP/$(npm pack --silent "$DEBUSSY_CI_PACKAGE" | tail -n 1)"',
    'debussy --version',
    '',
  ].join('\n');
}
