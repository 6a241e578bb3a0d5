//! Post extraction scored on WEB-FORUM-52 pages, by the rules of `shared/evals/wf52/score.py`.
//!
//! The reference scorer reads gold times with Python's `dateparser`; this port reads them with
//! trawl's own date reader instead (relative base 2021-01-01, as the reference). The two differ
//! on two kinds of gold form, so this port's time figure is not the reference's (0.930 here,
//! 0.834 there on the development pages): a dotted numeric date whose day and month are both
//! 12 or under (`11.06.2020`), which `dateparser` reads month first and trawl day first, as such
//! dates are written; and a date without a year ("March 30"), which `dateparser` places in 2021,
//! the base's year, and trawl in the last year before the base that has it (2020). Slashed
//! forms such as `04/02/2005` are read month first by both. The predictions are also written as
//! `NAME.jsonl` files so that the reference scorer can be run on them unchanged, and its figures
//! are the ones docs/BENCHMARKS.md holds against the bars.
//!
//! WEB-FORUM-52 annotates a post's user as the `href` of the author's profile link, exactly as
//! the page writes it, when the name is a link (most forums), and as the name otherwise. The
//! predictions follow that convention: `author` is the profile link as written when there is one,
//! the name otherwise. `trawl extract` prints both separately.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use trawl_page::analysis::analyse_text;
use trawl_page::time::{DateContext, Precision, parse_time};

/// Totals over a gold directory.
#[derive(Debug, Default, Clone, Copy)]
pub struct Score {
    pub pages: usize,
    pub pages_exact: usize,
    pub gold: usize,
    pub predicted: usize,
    pub found: usize,
    pub time_gold: usize,
    pub time_right: usize,
    pub author_gold: usize,
    pub author_right: usize,
}

impl Score {
    pub fn recall(&self) -> f64 {
        self.found as f64 / self.gold.max(1) as f64
    }
    pub fn precision(&self) -> f64 {
        self.found as f64 / self.predicted.max(1) as f64
    }
    pub fn f1(&self) -> f64 {
        f1_of(self.found, self.predicted, self.gold)
    }
    pub fn time(&self) -> f64 {
        self.time_right as f64 / self.time_gold.max(1) as f64
    }
    pub fn author(&self) -> f64 {
        self.author_right as f64 / self.author_gold.max(1) as f64
    }
    pub fn summary(&self) -> String {
        format!(
            "pages {} posts: recall {:.3} precision {:.3} F1 {:.3}; time {:.3}; author {:.3}; pages exact {}/{}",
            self.pages,
            self.recall(),
            self.precision(),
            self.f1(),
            self.time(),
            self.author(),
            self.pages_exact,
            self.pages
        )
    }
}

/// F1 of `right` answers among `predicted`, against `expected` true ones.
pub fn f1_of(right: usize, predicted: usize, expected: usize) -> f64 {
    let precision = right as f64 / predicted.max(1) as f64;
    let recall = right as f64 / expected.max(1) as f64;
    if precision + recall == 0.0 {
        0.0
    } else {
        2.0 * precision * recall / (precision + recall)
    }
}

/// One page of a WEB-FORUM-52 gold directory: its file, its JSON (`url`, `html`,
/// `gold_standard_annotation`) and the address its links resolve against.
pub struct GoldPage {
    pub path: PathBuf,
    pub json: serde_json::Value,
    /// The page's `url`; for a file that gives none, the file's own `file:` URL, as `trawl
    /// extract` reads a saved page given without `--url`.
    pub url: url::Url,
}

impl GoldPage {
    /// The page's HTML (empty when the file has none).
    pub fn html(&self) -> &str {
        self.json["html"].as_str().unwrap_or("")
    }
}

/// The `NAME.json` pages of `gold_dir`, in file-name order: the one reader of the gold set that
/// scoring, `bench page` and `bench fuzz` share.
pub fn read_gold_pages(gold_dir: &Path) -> Result<Vec<GoldPage>> {
    let mut paths: Vec<PathBuf> = std::fs::read_dir(gold_dir)
        .with_context(|| {
            format!(
                "cannot read the gold directory {}; give --gold the folder of WEB-FORUM-52 \
                 pages (NAME.json files with an \"html\" field)",
                gold_dir.display()
            )
        })?
        .filter_map(|entry| entry.ok().map(|entry| entry.path()))
        .filter(|path| {
            path.extension()
                .is_some_and(|extension| extension == "json")
        })
        .collect();
    paths.sort();
    paths
        .into_iter()
        .map(|path| {
            let text = std::fs::read_to_string(&path)
                .with_context(|| format!("cannot read {}", path.display()))?;
            let json: serde_json::Value = serde_json::from_str(&text)
                .with_context(|| format!("{} is not a gold page", path.display()))?;
            let url = match json["url"]
                .as_str()
                .and_then(|url| url::Url::parse(url).ok())
            {
                Some(url) => url,
                None => std::path::absolute(&path)
                    .ok()
                    .and_then(|absolute| url::Url::from_file_path(absolute).ok())
                    .with_context(|| {
                        format!("{} gives no url and its path makes none", path.display())
                    })?,
            };
            Ok(GoldPage { path, json, url })
        })
        .collect()
}

/// A predicted post as the reference scorer reads it.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Predicted {
    pub author: Option<String>,
    pub time: Option<String>,
    pub text: String,
}

/// Extracts every page of `gold_dir`, writes `NAME.jsonl` predictions to `out_dir`, and scores.
/// Per-page rows go to `report`.
pub fn evaluate(gold_dir: &Path, out_dir: &Path, report: &mut dyn FnMut(String)) -> Result<Score> {
    std::fs::create_dir_all(out_dir)
        .with_context(|| format!("cannot create {}", out_dir.display()))?;
    let base = jiff::Timestamp::from_second(1_609_459_200)?; // 2021-01-01T00:00:00Z
    let mut score = Score::default();
    for gold_page in read_gold_pages(gold_dir)? {
        let path = &gold_page.path;
        let page = &gold_page.json;
        let html = gold_page.html();
        let url = &gold_page.url;
        let context = DateContext::new(base, None);
        let analysis = analyse_text(html, "UTF-8", url, &context);
        let predicted: Vec<Predicted> = analysis
            .posts
            .iter()
            .map(|post| Predicted {
                author: post.author_url.clone().or_else(|| post.author.clone()),
                time: post.time.map(|time| time.to_iso8601()),
                text: post.text.clone(),
            })
            .collect();
        let stem = path
            .file_stem()
            .and_then(|stem| stem.to_str())
            .unwrap_or("page");
        let lines: Vec<String> = predicted
            .iter()
            .map(serde_json::to_string)
            .collect::<Result<_, _>>()?;
        std::fs::write(
            out_dir.join(format!("{stem}.jsonl")),
            lines.join("\n") + "\n",
        )?;
        let gold = page["gold_standard_annotation"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        let page_score = score_page(&gold, &predicted, &context);
        report(format!(
            "{:60} gold {:3} pred {:3} found {:3} time {}/{} author {}/{}",
            stem.chars().take(60).collect::<String>(),
            page_score.gold,
            page_score.predicted,
            page_score.found,
            page_score.time_right,
            page_score.time_gold,
            page_score.author_right,
            page_score.author_gold
        ));
        score.pages += 1;
        score.pages_exact += page_score.pages_exact;
        score.gold += page_score.gold;
        score.predicted += page_score.predicted;
        score.found += page_score.found;
        score.time_gold += page_score.time_gold;
        score.time_right += page_score.time_right;
        score.author_gold += page_score.author_gold;
        score.author_right += page_score.author_right;
    }
    Ok(score)
}

fn surface(value: &serde_json::Value) -> Option<&str> {
    match value {
        serde_json::Value::Object(object) => object.get("surface_form").and_then(|v| v.as_str()),
        serde_json::Value::String(text) => Some(text),
        _ => None,
    }
}

fn tokens(text: &str) -> Vec<String> {
    text.to_lowercase()
        .split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .filter(|token| !token.is_empty())
        .map(str::to_string)
        .collect()
}

fn token_f1(gold: &[String], predicted: &[String]) -> f64 {
    let mut counts: HashMap<&str, i64> = HashMap::new();
    for token in gold {
        *counts.entry(token.as_str()).or_default() += 1;
    }
    let mut common = 0;
    for token in predicted {
        if let Some(count) = counts.get_mut(token.as_str())
            && *count > 0
        {
            *count -= 1;
            common += 1;
        }
    }
    if common == 0 {
        return 0.0;
    }
    let precision = common as f64 / predicted.len() as f64;
    let recall = common as f64 / gold.len() as f64;
    2.0 * precision * recall / (precision + recall)
}

fn is_relative(text: &str) -> bool {
    let lower = text.to_lowercase();
    let words: Vec<&str> = lower.split(|c: char| !c.is_alphanumeric()).collect();
    [
        "ago",
        "yesterday",
        "today",
        "hour",
        "hours",
        "minute",
        "minutes",
        "week",
        "weeks",
        "vor",
    ]
    .iter()
    .any(|word| words.contains(word))
        || lower.contains("just now")
        || lower.contains("heute")
        || lower.contains("gestern")
        || lower.contains("hier")
        || lower.contains("aujourd")
}

fn has_clock(text: &str) -> bool {
    let bytes = text.as_bytes();
    let clock = (0..bytes.len()).any(|i| {
        let digit = |j: usize| bytes.get(j).is_some_and(u8::is_ascii_digit);
        digit(i)
            && matches!(bytes.get(i + 1), Some(b':' | b'.' | b'h'))
            && digit(i + 2)
            && digit(i + 3)
            || digit(i)
                && digit(i + 1)
                && matches!(bytes.get(i + 2), Some(b':' | b'.' | b'h'))
                && digit(i + 3)
                && digit(i + 4)
    });
    let lower = text.to_lowercase();
    clock
        || lower
            .split(|c: char| !c.is_alphanumeric())
            .any(|word| word == "am" || word == "pm")
}

/// Minutes since the epoch of a civil date-time (no zone: the scorer drops zones).
fn minute_of(time: jiff::civil::DateTime) -> i64 {
    time.to_zoned(jiff::tz::TimeZone::UTC)
        .map_or(0, |zoned| zoned.timestamp().as_second() / 60)
}

fn score_page(gold: &[serde_json::Value], predicted: &[Predicted], context: &DateContext) -> Score {
    let mut score = Score {
        gold: gold.len(),
        predicted: predicted.len(),
        ..Score::default()
    };
    let predicted_tokens: Vec<Vec<String>> =
        predicted.iter().map(|post| tokens(&post.text)).collect();
    let mut used = vec![false; predicted.len()];
    for post in gold {
        let gold_tokens = tokens(surface(&post["post_text"]).unwrap_or(""));
        let gold_time = surface(&post["datetime"])
            .filter(|text| !text.is_empty() && !is_relative(text))
            .and_then(|text| parse_time(text, context).map(|time| (time, has_clock(text))));
        let gold_author = surface(&post["user"]).filter(|text| !text.is_empty());
        score.time_gold += usize::from(gold_time.is_some());
        score.author_gold += usize::from(gold_author.is_some());
        let mut best: Option<(usize, f64)> = None;
        for (index, candidate) in predicted_tokens.iter().enumerate() {
            if used[index] {
                continue;
            }
            let similarity = token_f1(&gold_tokens, candidate);
            if best.is_none_or(|(_, best_similarity)| similarity > best_similarity) {
                best = Some((index, similarity));
            }
        }
        let Some((index, similarity)) = best else {
            continue;
        };
        if similarity < 0.8 {
            continue;
        }
        used[index] = true;
        score.found += 1;
        let guess = &predicted[index];
        if let Some((want, with_clock)) = gold_time {
            let got = guess
                .time
                .as_deref()
                .and_then(|text| parse_time(text, context));
            if let Some(got) = got {
                let right = if with_clock && want.precision >= Precision::Minute {
                    minute_of(got.local) == minute_of(want.local)
                } else {
                    got.local.date() == want.local.date()
                };
                score.time_right += usize::from(right);
            }
        }
        if let (Some(want), Some(got)) = (gold_author, guess.author.as_deref()) {
            let fold = |text: &str| {
                text.to_lowercase()
                    .split_whitespace()
                    .collect::<Vec<_>>()
                    .join(" ")
            };
            score.author_right += usize::from(fold(want) == fold(got));
        }
    }
    score.pages_exact = usize::from(score.found == gold.len() && gold.len() == predicted.len());
    score
}
