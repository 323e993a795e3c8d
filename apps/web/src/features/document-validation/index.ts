// The document validation feature's public surface (decision 0016): the words of an EDIFACT finding, which the
// documents' upload results and view show too.
export { describeFinding } from './components/finding-text.ts';
