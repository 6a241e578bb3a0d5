#!/usr/bin/env python3
"""Sorts the reference scorer's time misses on WEB-FORUM-52 by kind.

usage: scripts/wf52/time_misses.py GOLD_DIR PRED_DIR
PRED_DIR holds the NAME.jsonl predictions `trawl bench extract --out PRED_DIR` writes. Posts are
matched to gold posts with the reference scorer's own functions (shared/evals/wf52/score.py,
found beside GOLD_DIR's data folder or through WF52_SCORER); for every found post whose time the
scorer counts wrong, the miss is put in one kind:
  year            same month and day, another year (a date shown without a year)
  day/month swap  the predicted month and day are the gold's day and month
  other           anything else, printed with the gold form and the prediction
Prints the counts on the last line.
"""
import json, os, sys
from collections import Counter


def load_scorer(gold_dir):
    scorer = os.environ.get('WF52_SCORER') or os.path.join(
        os.path.dirname(os.path.abspath(gold_dir.rstrip('/'))), '..', 'evals', 'wf52')
    sys.path.insert(0, scorer)
    import score
    return score


def main(gold_dir, pred_dir):
    score = load_scorer(gold_dir)
    kinds = Counter()
    for name in sorted(os.listdir(gold_dir)):
        if not name.endswith('.json'):
            continue
        gold = json.load(open(os.path.join(gold_dir, name)))['gold_standard_annotation']
        prediction_file = os.path.join(pred_dir, name[:-5] + '.jsonl')
        preds = [json.loads(line) for line in open(prediction_file) if line.strip()]
        used = set()
        for gold_post in gold:
            gold_tokens = score.toks(score.surface(gold_post.get('post_text')))
            best, best_index = 0.0, None
            for index, pred in enumerate(preds):
                if index in used:
                    continue
                similarity = score.f1(gold_tokens, score.toks(pred.get('text')))
                if similarity > best:
                    best, best_index = similarity, index
            if best_index is None or best < 0.8:
                continue
            used.add(best_index)
            form = score.surface(gold_post.get('datetime'))
            wanted = score.gold_time(form)
            if not wanted:
                continue
            want, has_clock = wanted
            got = score.pred_time(preds[best_index].get('time'))
            right = got is not None and ((got == want) if has_clock else (got.date() == want.date()))
            if right:
                continue
            kind = 'other'
            if got is not None:
                if got.year != want.year and (got.month, got.day) == (want.month, want.day):
                    kind = 'year'
                elif (got.month, got.day) == (want.day, want.month):
                    kind = 'day/month swap'
            kinds[kind] += 1
            if kind == 'other':
                print(f"{name[:50]} gold {form!r} read as {want} | predicted "
                      f"{preds[best_index].get('time')}")
    print(dict(kinds))


if __name__ == '__main__':
    main(sys.argv[1], sys.argv[2])
