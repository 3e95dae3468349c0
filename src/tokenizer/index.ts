/** cl100k_base token counting: the vocabulary, the pre-tokenizer and the byte-pair merge. */
export { countTokens, estimateTokens } from './token-count.js';
