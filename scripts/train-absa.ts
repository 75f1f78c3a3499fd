/**
 * Train the analyzer's learned layer and measure it.
 *
 *   npm run train:absa            writes src/domain/insights/absa/model.json and measurement.json
 *   npm run train:absa -- --check exits 1 if either file differs from what training gives now
 *
 * Measurement first, with the committed recipe (train.ts RECIPE):
 *  - cross-validated: leave one writer of train.jsonl out (ga…ge), training on every other
 *    labelled sentence except the frozen writer;
 *  - frozen: the writer gf, scored once by a model trained on everything else;
 *  - the rule analyzer alone on the same sentences, for comparison.
 * Then the committed model is trained on all labelled sentences, gf included.
 * Deterministic and offline: the same data and code give the same bytes. measurement.json keeps
 * its date while the figures stay the same, and takes today's date when they change.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { readAllLabelled, FROZEN_GROUP } from './absa-data.ts';
import { createRuleAnalyzer } from '../src/domain/insights/absa/analyzer.ts';
import { evaluate } from '../src/domain/insights/absa/evaluate.ts';
import { serializeModel, trainModel } from '../src/domain/insights/absa/train.ts';
import { crossValidate, figures, scoreHeldOut } from '../src/domain/insights/absa/validate.ts';
import type { Grouped } from '../src/domain/insights/absa/validate.ts';

const MODEL = new URL('../src/domain/insights/absa/model.json', import.meta.url);
const MEASUREMENT = new URL('../src/domain/insights/absa/measurement.json', import.meta.url);
const CV_GROUPS = ['ga', 'gb', 'gc', 'gd', 'ge'];

function rulesFigures(rules: ReturnType<typeof createRuleAnalyzer>, sentences: readonly Grouped[]) {
  return figures(evaluate(sentences, sentences.map((s) => ({ id: s.id, ...rules.analyzeSentence(s.text) }))));
}

function main(): void {
  const args = process.argv.slice(2);
  for (const a of args) if (a !== '--check') throw new Error(`train-absa: unknown argument ${JSON.stringify(a)} (expected --check)`);
  const check = args.includes('--check');
  const all = readAllLabelled();
  const frozen = all.filter((s) => s.group === FROZEN_GROUP);
  const pool = all.filter((s) => s.group !== FROZEN_GROUP);
  const rules = createRuleAnalyzer();

  const cv = crossValidate(pool, CV_GROUPS, rules);
  const frozenFigures = figures(scoreHeldOut(pool, frozen, rules));
  const cvRules = CV_GROUPS.map((g) => rulesFigures(rules, pool.filter((s) => s.group === g)));
  const meanOf = (key: 'tripleF1' | 'aspectF1' | 'overallAccuracy'): number =>
    Math.round((cvRules.reduce((s, f) => s + f[key], 0) / cvRules.length) * 1000) / 1000;
  const model = serializeModel(trainModel(all, rules));

  const measured = {
    method:
      'Per-aspect logistic detectors and logistic polarity and overall classifiers over word and bigram features, ' +
      'negation-scoped words, the words near each aspect\'s cues (alone and paired with the aspect) and the rule ' +
      'analyzer\'s own labels (stacking; left out of the detector and polarity rows of the sentences the rules were ' +
      'tuned on), trained on the labelled sentences in data/absa: 2,371 written by hand or by independent writers and ' +
      'the rest written and labelled by the team for training only; measured only on independent writers never trained on.',
    frozen: { group: FROZEN_GROUP, note: 'one writer never tuned on, scored by a model trained on everything else', ...frozenFigures },
    crossValidated: { by: 'writer', groups: CV_GROUPS, ...cv.mean, folds: cv.folds },
    rulesAlone: { frozen: rulesFigures(rules, frozen), crossValidated: { tripleF1: meanOf('tripleF1'), aspectF1: meanOf('aspectF1'), overallAccuracy: meanOf('overallAccuracy') } },
    trainedOn: all.length,
  };
  const previous = existsSync(MEASUREMENT) ? (JSON.parse(readFileSync(MEASUREMENT, 'utf8')) as { date?: string } & Record<string, unknown>) : null;
  const { date: previousDate, ...previousFigures } = previous ?? {};
  const unchanged = previous !== null && JSON.stringify(previousFigures) === JSON.stringify(measured);
  const date = unchanged && typeof previousDate === 'string' ? previousDate : new Date().toISOString().slice(0, 10);
  const measurement = `${JSON.stringify({ date, ...measured }, null, 2)}\n`;

  process.stdout.write(
    `cross-validated (by writer ${CV_GROUPS.join(', ')}): triple F1 ${cv.mean.tripleF1}, aspect F1 ${cv.mean.aspectF1}, overall ${cv.mean.overallAccuracy}\n` +
      `  ${cv.folds.map((f) => `${f.group} ${f.tripleF1}/${f.aspectF1}`).join('  ')}\n` +
      `frozen (${FROZEN_GROUP}, ${frozenFigures.sentences}): triple F1 ${frozenFigures.tripleF1}, aspect F1 ${frozenFigures.aspectF1}, overall ${frozenFigures.overallAccuracy}\n` +
      `rules alone: frozen ${measured.rulesAlone.frozen.tripleF1}/${measured.rulesAlone.frozen.aspectF1}, cross-validated ${measured.rulesAlone.crossValidated.tripleF1}/${measured.rulesAlone.crossValidated.aspectF1}\n`,
  );
  const targets: [URL, string][] = [[MODEL, model], [MEASUREMENT, measurement]];
  if (check) {
    const stale = targets.filter(([url, text]) => !existsSync(url) || readFileSync(url, 'utf8') !== text);
    for (const [url] of stale) process.stderr.write(`train-absa: ${url.pathname} differs from what training gives; run npm run train:absa\n`);
    process.exitCode = stale.length > 0 ? 1 : 0;
    return;
  }
  for (const [url, text] of targets) writeFileSync(url, text);
}

main();
