/**
 * The one shape of a phase job and of its result, and their validation. A job read from the queue
 * is untrusted input (anyone who can write to the Redis can put one there): every field is checked
 * before a worker hands it to git or to the plan loader, and a result is checked before the
 * submitter believes it. A job never holds a credential: a remote URL with a password is refused,
 * and the workers' own environment (ssh keys, credential helpers, API keys) does the logging in.
 * Pure.
 */
import { EXIT_CODES } from '../errors/index.js';

export const PHASE_JOB_VERSION = 1;

export interface PhaseJob {
  v: typeof PHASE_JOB_VERSION;
  /** The git remote the code travels through: a URL or a path the workers can reach. */
  remote: string;
  /** The run's branch on the remote, and the commit of it the phase starts from. */
  runBranch: string;
  baseSha: string;
  runId: string;
  /** The master plan, relative to the repository's root. */
  planPath: string;
  phaseId: string;
  /** The branch the worker commits the phase to and pushes (debussy/<run id>/<phase>). */
  phaseBranch: string;
}

/** What a worker reports at the end of a phase: the `debussy run --only` it ran. */
export interface PhaseJobResult {
  status: 'completed' | 'failed' | 'blocked' | 'aborted' | 'interrupted';
  exitCode: number;
  /** The phase branch's head as pushed. */
  commitSha: string;
  /** What the phase's sessions spent, USD. */
  costUsd: number;
  reason?: string;
  /** Which worker ran it (its host and process id), for the journal and the live view. */
  worker: string;
}

type Check<T> = { ok: true; value: T } | { ok: false; problem: string };

const SHA = /^[0-9a-f]{40}$/;
const STATUSES: readonly PhaseJobResult['status'][] = ['completed', 'failed', 'blocked', 'aborted', 'interrupted'];
const EXIT_VALUES = new Set<number>(Object.values(EXIT_CODES).map((entry) => entry.code));

function text(value: unknown, name: string, max = 4096): string {
  if (typeof value !== 'string' || value === '') throw new Error(`${name} is missing`);
  if (value.length > max) throw new Error(`${name} is longer than ${max} characters`);
  if ([...value].some((char) => char.charCodeAt(0) < 0x20 || char.charCodeAt(0) === 0x7f)) throw new Error(`${name} holds a control character`);
  return value;
}

/** A ref git accepts and no option: the rules of git check-ref-format that matter here. */
function branch(value: unknown, name: string): string {
  const ref = text(value, name, 255);
  if (ref.startsWith('-') || ref.startsWith('/') || ref.endsWith('/') || ref.endsWith('.') || ref.endsWith('.lock') || /\.\.|\/\/|@\{|[\s~^:?*[\\]/.test(ref) || ref.split('/').some((part) => part.startsWith('.'))) {
    throw new Error(`${name} ${JSON.stringify(ref)} is not a branch name`);
  }
  return ref;
}

/** A remote git can fetch from that is no option and holds no password. */
export function remoteProblem(remote: string): string | undefined {
  if (remote.startsWith('-')) return 'the remote starts with "-" (it would be read as an option)';
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(remote)) {
    let url: URL;
    try {
      url = new URL(remote);
    } catch {
      return 'the remote is not a valid URL';
    }
    if (url.password !== '') return 'the remote URL holds a password: credentials stay in the workers\' environment (a credential helper, an ssh key), never in a job';
    if (url.protocol === 'ext:') return 'the remote uses git\'s ext:: transport, which runs commands';
  }
  if (/^ext::/i.test(remote)) return 'the remote uses git\'s ext:: transport, which runs commands';
  return undefined;
}

function relativePath(value: unknown, name: string): string {
  const file = text(value, name);
  if (file.startsWith('/') || file.split(/[\\/]/).includes('..')) throw new Error(`${name} ${JSON.stringify(file)} must stay inside the repository`);
  return file;
}

export function parsePhaseJob(data: unknown): Check<PhaseJob> {
  try {
    if (typeof data !== 'object' || data === null) throw new Error('the job holds no object');
    const raw = data as Record<string, unknown>;
    if (raw.v !== PHASE_JOB_VERSION) throw new Error(`the job's version is ${JSON.stringify(raw.v)}, this debussy reads version ${PHASE_JOB_VERSION}`);
    const remote = text(raw.remote, 'remote');
    const problem = remoteProblem(remote);
    if (problem !== undefined) throw new Error(problem);
    const baseSha = text(raw.baseSha, 'baseSha');
    if (!SHA.test(baseSha)) throw new Error('baseSha is not a commit id');
    return {
      ok: true,
      value: {
        v: PHASE_JOB_VERSION, remote, baseSha,
        runBranch: branch(raw.runBranch, 'runBranch'),
        phaseBranch: branch(raw.phaseBranch, 'phaseBranch'),
        runId: text(raw.runId, 'runId', 200),
        planPath: relativePath(raw.planPath, 'planPath'),
        phaseId: text(raw.phaseId, 'phaseId', 200),
      },
    };
  } catch (error) {
    return { ok: false, problem: (error as Error).message };
  }
}

export function parsePhaseJobResult(data: unknown): Check<PhaseJobResult> {
  try {
    if (typeof data !== 'object' || data === null) throw new Error('the result holds no object');
    const raw = data as Record<string, unknown>;
    const status = raw.status as PhaseJobResult['status'];
    if (!STATUSES.includes(status)) throw new Error(`status ${JSON.stringify(raw.status)} is not a run's status`);
    if (typeof raw.exitCode !== 'number' || !EXIT_VALUES.has(raw.exitCode)) throw new Error(`exitCode ${JSON.stringify(raw.exitCode)} is not one of debussy's exit codes`);
    const commitSha = text(raw.commitSha, 'commitSha');
    if (!SHA.test(commitSha)) throw new Error('commitSha is not a commit id');
    if (typeof raw.costUsd !== 'number' || !Number.isFinite(raw.costUsd) || raw.costUsd < 0) throw new Error('costUsd is not an amount');
    return {
      ok: true,
      value: {
        status, exitCode: raw.exitCode, commitSha, costUsd: raw.costUsd,
        worker: text(raw.worker, 'worker', 300),
        ...(raw.reason === undefined ? {} : { reason: text(raw.reason, 'reason', 4000) }),
      },
    };
  } catch (error) {
    return { ok: false, problem: (error as Error).message };
  }
}

/**
 * The job's id: its phase branch, debussy/<run id>/<phase id>, named after the run that started the
 * phase. Adding it again (the same run, or a run that resumes it) finds the same job, so nothing
 * runs twice; BullMQ reads ':' in an id as its own separator, so the branch is encoded.
 */
export function phaseJobId(phaseBranch: string): string {
  return encodeURIComponent(phaseBranch);
}
