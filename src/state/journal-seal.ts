/**
 * Seals on the records debussy writes, so a later run can tell debussy's own verdicts from lines
 * anyone appended. A journal sits in the work tree: an agent (or a process it left behind) can
 * append a `phase_ended completed` line, or copy one from another run, and the next run would skip
 * that phase unverified. Each line debussy's run writes ends in `"mac"`: an HMAC-SHA256, under the
 * per-user key (journal-key.ts), of the line before it and of the run it belongs to; the line holds
 * `seq`, the record's place among the run's own. A verdict (a phase's completion, a gate's verdict,
 * a baseline) counts only when its seal checks and its seq comes after the last one that did: a
 * line appended by hand has no seal, a line copied from another run (or another machine) or edited
 * has one that does not match, a genuine line repeated later is out of order. Such a record is read
 * as an `unproven` stand-in: shown, never believed (fold.ts).
 *
 * The agent's own words (`signal`, `progress`) are claims whoever wrote them; the rest of a
 * journal is history (sessions, costs, commits). Both are read as written.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { JournalEvent, UnprovenRecordEvent, UnprovenWhy, WrittenJournalEvent } from './events.js';
import type { JournalKey } from './journal-key.js';

const SEAL = /,"mac":"([A-Za-z0-9_-]{43})"\}$/;
const SEAL_VERSION = 'debussy seal 1';

function mac(body: string, context: string, key: Buffer): Buffer {
  return createHmac('sha256', key).update(`${SEAL_VERSION}\n${context}\n`).update(body).digest();
}

/** What a run's seals are bound to: a line of one run does not check in another's journal. */
export function runSealContext(runId: string): string {
  return `run ${runId}`;
}

/** `body` (one JSON object, as JSON.stringify wrote it) with its seal as the last field. */
export function sealLine(body: string, context: string, key: Buffer): string {
  return `${body.slice(0, -1)},"mac":"${mac(body, context, key).toString('base64url')}"}`;
}

/** Whether the line carries a seal that checks under `key` for `context`; why not, when not. */
export function checkSeal(line: string, context: string, key: JournalKey): UnprovenWhy | undefined {
  const found = SEAL.exec(line);
  if (!found?.[1]) return 'unsealed';
  if (!key.ok) return 'no_key';
  const body = `${line.slice(0, found.index)}}`;
  const given = Buffer.from(found[1], 'base64url');
  const expected = mac(body, context, key.key);
  return given.length === expected.length && timingSafeEqual(given, expected) ? undefined : 'bad_seal';
}

/** Records whose word lets a later decision skip work or excuse a failure: believed only when sealed. */
export function isVerdict(event: JournalEvent): event is UnprovenRecordEvent['record'] {
  return (event.type === 'phase_ended' && event.status === 'completed') || event.type === 'gate_result' || event.type === 'baseline_result';
}

/**
 * Judges the lines of one run's journal, in order (it remembers the last sealed place). Cheap: only
 * verdicts are checked, a few per phase.
 */
export class RunJournalProof {
  private readonly context: string;
  private lastSeq = -1;

  constructor(runId: string, private readonly key: JournalKey) {
    this.context = runSealContext(runId);
  }

  /**
   * The event as the fold takes it: itself, or for a verdict debussy cannot prove it wrote, its
   * unproven stand-in. `line` is the line as written, which the seal covers. (A stand-in is the
   * reader's, never a line's: the reader takes no `unproven` line.)
   */
  judge(event: WrittenJournalEvent, line: string): JournalEvent {
    if (!isVerdict(event)) return event;
    const why = this.whyUnproven(event, line);
    if (why === undefined) return event;
    return { type: 'unproven', v: event.v, ts: event.ts, pid: event.pid, record: event, why };
  }

  private whyUnproven(event: WrittenJournalEvent, line: string): UnprovenWhy | undefined {
    const why = checkSeal(line, this.context, this.key);
    if (why !== undefined) return why;
    const { seq } = event;
    if (seq === undefined || !Number.isInteger(seq) || seq <= this.lastSeq) return 'replayed';
    this.lastSeq = seq;
    return undefined;
  }
}

/** Why a record cannot be proven, in words for the user (after "cannot be proven: "). */
export function describeUnproven(why: UnprovenWhy): string {
  switch (why) {
    case 'unsealed':
      return 'it carries no seal of debussy (another process wrote it, or a debussy from before sealed journals)';
    case 'bad_seal':
      return "its seal does not match (the line was edited, or copied from another run or from another machine's debussy)";
    case 'replayed':
      return 'it repeats an earlier record of the run out of order';
    case 'no_key':
      return "debussy's key cannot be read, so no seal can be checked";
    case 'not_verified':
      return 'it was marked without --verify';
  }
}
