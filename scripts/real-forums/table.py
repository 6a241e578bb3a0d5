#!/usr/bin/env python3
"""Prints one Markdown table of the judged crawls that run.sh left in a results folder.

usage: table.py [REAL_FORUMS_DIR]      (default target/real-forums)

One row per engine and strategy, in the columns issue 18 reports: post coverage (posts found,
as judge.py matches them, over the engine's posts), threads whole, right time and author (over
the posts found), invalid and duplicate shares of the fetches, and fetches; then valuable page
coverage, the judge's other headline. Standard library only.
"""

import json
import os
import sys

ENGINES = ["flaskbb", "machina", "spirit", "lbforum", "simpleforum", "mhonarc"]


def percent(value):
    return "–" if value is None else f"{100 * value:.1f} %"


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else "target/real-forums"
    print("| engine | crawl | post coverage | threads whole | right time / author "
          "| invalid / duplicate | fetches | page coverage |")
    print("|---|---|---|---|---|---|---|---|")
    for engine in ENGINES:
        for strategy in ("plan", "bfs"):
            path = os.path.join(root, f"results-{engine}", f"judge-{strategy}.json")
            if not os.path.exists(path):
                continue
            with open(path) as source:
                result = json.load(source)
            posts = f"{result['post_recall']:.3f}"
            whole = f"{result['threads_reassembled'] / max(result['threads'], 1):.3f}"
            if result["posts_found"]:
                time = "n/a" if result["time_right"] is None else f"{result['time_right']:.2f}"
                right = f"{time} / {result['author_right']:.2f}"
            else:
                right = "– (no post found)"
            print(f"| {engine} | {strategy} | {posts} | {whole} | {right} "
                  f"| {percent(result['invalid_share'])} / {percent(result['duplicate_share'])} "
                  f"| {result['fetches']} | {result['coverage']:.3f} "
                  f"({result['valuable_fetched']}/{result['valuable_pages']}) |")


if __name__ == "__main__":
    main()
