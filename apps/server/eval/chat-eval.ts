/**
 * `npm run eval:chat`: how well the help assistant's retrieval finds the right article, without a model.
 *
 * Reads `chat-questions.json` beside this file (an array of `{ question, language: "en" | "pl", articleId }`), asks
 * each question of its language's collection as `POST /api/chat/question` does, and prints the share of questions
 * whose expected article is among the answer's sources, and every miss with what was found instead. A few questions
 * that the help does not cover show how often the assistant answers where it should say it found nothing.
 * Exit code 0 always: the figure is for reading, not a gate (decision 0031).
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { HelpLibrary, MIN_COVERAGE, MIN_SCORE } from '../src/features/chat/help-index.ts';

const QuestionsSchema = z.array(
  z.object({ question: z.string().min(1), language: z.enum(['en', 'pl']), articleId: z.string().min(1) }),
);

/** Questions the help does not answer: the assistant should say it found nothing. */
const OFF_TOPIC: { question: string; language: 'en' | 'pl' }[] = [
  { question: 'What is the best recipe for a chocolate cake?', language: 'en' },
  { question: 'Who won the football world cup in 1954?', language: 'en' },
  { question: 'What will the weather be like tomorrow in Warsaw?', language: 'en' },
  { question: 'Can you recommend a good hotel in Berlin?', language: 'en' },
  { question: 'How tall is Mount Everest?', language: 'en' },
  { question: 'Jaki jest najlepszy przepis na sernik?', language: 'pl' },
  { question: 'Kto wygrał mundial w 1954 roku?', language: 'pl' },
  { question: 'Jaka będzie jutro pogoda w Krakowie?', language: 'pl' },
];

const file = process.argv[2] ?? fileURLToPath(new URL('./chat-questions.json', import.meta.url));
const questions = QuestionsSchema.parse(JSON.parse(readFileSync(file, 'utf8')));
const help = new HelpLibrary();

const pct = (n: number, of: number) => (of ? `${((100 * n) / of).toFixed(1)} %` : '-');
const misses: string[] = [];
let found = 0;
let first = 0;
let unanswered = 0;
for (const q of questions) {
  const index = help.index(q.language);
  const sources = [...new Set(index.retrieve(q.question).map((p) => p.articleId))];
  if (!sources.length) unanswered += 1;
  if (sources[0] === q.articleId) first += 1;
  if (sources.includes(q.articleId)) {
    found += 1;
    continue;
  }
  const ranked = [...new Set(index.rank(q.question).map((h) => h.articleId))].slice(0, 3);
  const known = index.articles.has(q.articleId) ? '' : ' (no such article)';
  misses.push(
    `  [${q.language}] ${q.question}\n      expected ${q.articleId}${known}; sources: ${sources.join(', ') || '(none: answered=false)'}; ranked: ${ranked.join(', ') || '-'}`,
  );
}
const offTopicAnswered = OFF_TOPIC.filter((q) => help.index(q.language).retrieve(q.question).length > 0);

console.log(`Help assistant retrieval (no model), thresholds: score >= ${MIN_SCORE}, coverage >= ${MIN_COVERAGE}`);
console.log(`Questions: ${questions.length} (${file})`);
console.log(`Expected article among the sources: ${found}/${questions.length} = ${pct(found, questions.length)}`);
console.log(`Expected article first:              ${first}/${questions.length} = ${pct(first, questions.length)}`);
console.log(`Answered "nothing found":            ${unanswered}/${questions.length}`);
console.log(
  `Off-topic questions answered anyway: ${offTopicAnswered.length}/${OFF_TOPIC.length}` +
    (offTopicAnswered.length ? ` (${offTopicAnswered.map((q) => q.question).join(' | ')})` : ''),
);
if (misses.length) console.log(`Misses (${misses.length}):\n${misses.join('\n')}`);
