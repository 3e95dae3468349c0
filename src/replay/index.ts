export { replayTranscript, type ReplayCall, type ReplayEnd, type ReplayOptions, type TranscriptFormat } from './replay-transcript.js';
export { ReplayFigureCollector, errorFigures, MIN_GROWTH_TOKENS, type ErrorFigures, type ReplayFigures } from './replay-figures.js';
export { readTranscriptLine, endTranscript, newTranscriptState, type TranscriptItem, type TranscriptState } from './transcript-events.js';
