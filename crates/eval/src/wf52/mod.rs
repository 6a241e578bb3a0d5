//! Post extraction scored on WEB-FORUM-52 pages, by the rules of `shared/evals/wf52/score.py`.
//!
//! The rules are the corrected reference's (`rules`): a gold time is right when every field its
//! form states (year when it has one, month, day unless it names a month alone, clock when it
//! shows one) agrees, numeric dates read in the day/month order the forum's own gold forms show;
//! relative forms are not scored; a gold author given as a profile link is matched by the
//! predicted `author_url` (or `author`) resolved to the same address, and gold users that link a
//! posting action (quote or reply buttons) are left out. The one difference is the date reader:
//! the reference reads gold forms with Python's `dateparser`, this port with trawl's own reader
//! in the same day/month order, so the two can differ only on a form one of them cannot read.
//! The predictions are also written as `NAME.jsonl` files (`author`, `author_url`, `time`,
//! `text`) so that the reference scorer can be run on them unchanged; its figures are the ones
//! docs/BENCHMARKS.md holds against the bars.
//!
//! [`evaluate_perturbed`] reads every page again after a seeded, meaning-preserving
//! perturbation (`perturb`: other class and id words, labels in another language with dates
//! joined otherwise, wrapper elements added) and scores it against the same gold; the gap to the
//! unperturbed score estimates how much the analysis leans on the development pages' surfaces.

pub mod perturb;
mod rules;

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use crate::error::{EvalError, Result};
use trawl_page::analysis::analyse_text;
use trawl_page::time::{DateContext, DayMonthOrder, parse_time};

use rules::StatedFields;

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
#[derive(Debug)]
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
        .map_err(|source| EvalError::GoldDirectory {
            path: gold_dir.to_path_buf(),
            source,
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
            let text = std::fs::read_to_string(&path).map_err(|source| EvalError::File {
                action: "read",
                path: path.clone(),
                source,
            })?;
            let json: serde_json::Value =
                serde_json::from_str(&text).map_err(|source| EvalError::GoldPage {
                    path: path.clone(),
                    source,
                })?;
            let url = match json["url"]
                .as_str()
                .and_then(|url| url::Url::parse(url).ok())
            {
                Some(url) => url,
                None => std::path::absolute(&path)
                    .ok()
                    .and_then(|absolute| url::Url::from_file_path(absolute).ok())
                    .ok_or_else(|| EvalError::GoldPageWithoutUrl(path.clone()))?,
            };
            Ok(GoldPage { path, json, url })
        })
        .collect()
}

/// A predicted post as the reference scorer reads it.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Predicted {
    pub author: Option<String>,
    pub author_url: Option<String>,
    pub time: Option<String>,
    pub text: String,
}

/// The gold date forms of every page, grouped by the forum (host) they come from: the reference
/// settles each forum's day/month order from all of its forms.
fn forms_by_forum(pages: &[GoldPage]) -> HashMap<String, Vec<String>> {
    let mut forms: HashMap<String, Vec<String>> = HashMap::new();
    for page in pages {
        let posts = page.json["gold_standard_annotation"].as_array();
        let forum = forms.entry(forum_of(page)).or_default();
        for post in posts.into_iter().flatten() {
            if let Some(form) = surface(&post["datetime"]) {
                forum.push(form.to_string());
            }
        }
    }
    forms
}

/// The forum a gold page belongs to: the host of its `url` (empty when it gives none, as the
/// reference groups such pages together).
fn forum_of(page: &GoldPage) -> String {
    page.json["url"]
        .as_str()
        .and_then(|url| url::Url::parse(url).ok())
        .and_then(|url| url.host_str().map(str::to_string))
        .unwrap_or_default()
}

/// Extracts every page of `gold_dir`, writes `NAME.jsonl` predictions to `out_dir`, and scores.
/// Per-page rows go to `report`.
pub fn evaluate(gold_dir: &Path, out_dir: &Path, report: &mut dyn FnMut(String)) -> Result<Score> {
    evaluate_perturbed(gold_dir, out_dir, None, report)
}

/// [`evaluate`] with every page first rewritten by `perturbation` (and its seed) when one is
/// given; the predictions written are those of the rewritten pages, each written beside them as
/// `NAME.html`.
pub fn evaluate_perturbed(
    gold_dir: &Path,
    out_dir: &Path,
    perturbation: Option<(perturb::Perturbation, u64)>,
    report: &mut dyn FnMut(String),
) -> Result<Score> {
    std::fs::create_dir_all(out_dir).map_err(|source| EvalError::File {
        action: "create",
        path: out_dir.to_path_buf(),
        source,
    })?;
    let base = jiff::Timestamp::from_second(1_609_459_200)?; // 2021-01-01T00:00:00Z
    let pages = read_gold_pages(gold_dir)?;
    let forms = forms_by_forum(&pages);
    let mut score = Score::default();
    for gold_page in &pages {
        let path = &gold_page.path;
        let gold = gold_page.json["gold_standard_annotation"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        let perturbed = perturbation.map(|(perturbation, seed)| {
            let strings = perturb::GoldStrings::of_annotation(&gold);
            perturb::perturb_page(gold_page.html(), &strings, perturbation, seed)
        });
        let html = perturbed.as_deref().unwrap_or(gold_page.html());
        let url = &gold_page.url;
        let context = DateContext::new(base, None);
        let analysis = analyse_text(html, "UTF-8", url, &context);
        let predicted: Vec<Predicted> = analysis
            .posts
            .iter()
            .map(|post| Predicted {
                author: post.author.clone(),
                author_url: post.author_url.clone(),
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
        if let Some(perturbed) = &perturbed {
            // The rewritten page is kept beside its predictions, to look at what was read.
            let page = out_dir.join(format!("{stem}.html"));
            std::fs::write(&page, perturbed).map_err(|source| EvalError::File {
                action: "write",
                path: page.clone(),
                source,
            })?;
        }
        let predictions = out_dir.join(format!("{stem}.jsonl"));
        std::fs::write(&predictions, lines.join("\n") + "\n").map_err(|source| {
            EvalError::File {
                action: "write",
                path: predictions.clone(),
                source,
            }
        })?;
        let order =
            rules::forum_day_month_order(forms[&forum_of(gold_page)].iter().map(String::as_str));
        let page_score = score_page(&gold, &predicted, url, &context.with_day_month_order(order));
        // The row names the gold file as the reference scorer's rows do, so the two diff clean.
        let file_name = path
            .file_name()
            .and_then(|name| name.to_str())
            .unwrap_or(stem);
        report(format!(
            "{:60} gold {:3} pred {:3} found {:3} time {}/{} author {}/{}",
            file_name.chars().take(60).collect::<String>(),
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

/// A gold time as the reference scores it: its wall-clock reading in the forum's order and the
/// fields its form states; `None` for relative or unreadable forms, which are not scored.
fn gold_time(form: &str, context: &DateContext) -> Option<(jiff::civil::DateTime, StatedFields)> {
    if form.trim().is_empty() || rules::is_relative(form) {
        return None;
    }
    let context = if rules::order_applies(form) {
        *context
    } else {
        context.with_day_month_order(DayMonthOrder::Unknown)
    };
    let time = parse_time(form, &context)?;
    Some((time.local, rules::stated_fields(form)))
}

fn score_page(
    gold: &[serde_json::Value],
    predicted: &[Predicted],
    page_url: &url::Url,
    context: &DateContext,
) -> Score {
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
        let gold_time = surface(&post["datetime"]).and_then(|form| gold_time(form, context));
        let gold_author = surface(&post["user"])
            .filter(|user| !user.is_empty() && !rules::is_posting_action(user));
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
        if let Some((want, fields)) = gold_time {
            // Predictions are ISO 8601, which reads the same in any day/month order.
            let got = guess
                .time
                .as_deref()
                .and_then(|text| parse_time(text, context));
            if let Some(got) = got {
                score.time_right += usize::from(rules::time_agrees(got.local, want, fields));
            }
        }
        if let Some(want) = gold_author {
            score.author_right += usize::from(rules::author_agrees(
                page_url,
                want,
                guess.author.as_deref(),
                guess.author_url.as_deref(),
            ));
        }
    }
    score.pages_exact = usize::from(score.found == gold.len() && gold.len() == predicted.len());
    score
}
