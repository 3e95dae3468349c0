/** cl100k_base token counting: the vocabulary, the pre-tokenizer and the byte-pair merge. */
export { countTokens, estimateTokens, sampledTokenCount } from './token-count.js';
